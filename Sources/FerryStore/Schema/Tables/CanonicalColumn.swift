/// A column's type, as the STRICT schema declares it.
package enum SQLType: String, Sendable, Hashable {
    case text = "TEXT", integer = "INTEGER", real = "REAL", blob = "BLOB"
}

/// One column of a canonical table: its name, type, whether it may be NULL, and the CHECK its
/// values keep. Declared once, beside its table's other columns (`Tables/`); the writer's
/// statements, the rules it enforces, the view's reads and the schema tests come from it.
package struct CanonicalColumn: Sendable, Hashable, CustomStringConvertible {
    package let name: String
    package let type: SQLType
    package let required: Bool
    let rule: ColumnRule?

    init(_ name: String, _ type: SQLType, required: Bool = false, rule: ColumnRule? = nil) {
        self.name = name
        self.type = type
        self.required = required
        self.rule = rule
    }

    package var description: String { name }

    /// `[table.]name`, for a statement that reads it through an alias.
    package func of(_ alias: String) -> String { "\(alias).\(name)" }
}

/// Columns several tables declare alike: an id, where a record came from, its times, its extras.
package enum SharedColumns {
    package static let id = CanonicalColumn("id", .text, required: true, rule: .uuid)
    package static let sourceApp = CanonicalColumn("source_app", .text, required: true)
    package static let sourceEntity = CanonicalColumn("source_entity", .text, required: true)
    package static let sourceKey = CanonicalColumn("source_key", .text)
    package static let sourceFile = CanonicalColumn("source_file", .text, required: true)
    package static let createdAt = CanonicalColumn("created_at", .text, required: true)
    package static let modifiedAt = CanonicalColumn("modified_at", .text, required: true)
    package static let extras = CanonicalColumn("extras", .text, required: true, rule: .json)
}

/// A canonical table: its name and its columns in the table's order, each with how a record of
/// `Record` fills it. One list gives the statement, the order of the binds and the CHECKs the
/// writer enforces, so the three cannot drift apart.
struct TableRow<Record>: Sendable {
    /// Fills the next column of the row from the record.
    typealias Bind = @Sendable (inout RowBinder, Record) -> Void

    struct Field: Sendable {
        let column: CanonicalColumn
        let bind: Bind
    }

    let table: String
    let fields: [Field]
    var columns: [CanonicalColumn] { fields.map(\.column) }
    /// The binds alone: walking the fields copied each column's name and rule, a retain and a
    /// release apiece, for every column of every row (3% more instructions per log).
    private let binds: [Bind]
    /// For the tables a conversion writes millions of rows of (logs and their snapshots): the
    /// whole row in one function, the fields' binds written out in their order. A closure per
    /// column is called through a thunk and retained and released around the call: 2,800 more
    /// instructions per log (`scripts/bench_instructions.py`). `CanonicalTablesTests` binds a
    /// record both ways and holds the rows equal, so the two cannot drift apart.
    private let direct: Bind?

    init(_ table: String, _ fields: [Field], direct: Bind? = nil) {
        self.table = table
        self.fields = fields
        binds = fields.map(\.bind)
        self.direct = direct
    }

    /// Fills every column of one row, in order.
    func bind(_ row: inout RowBinder, _ record: Record) {
        if let direct { return direct(&row, record) }
        bindByFields(&row, record)
    }

    /// As ``bind(_:_:)``, through the declared fields whatever the table binds directly.
    func bindByFields(_ row: inout RowBinder, _ record: Record) {
        binds.withUnsafeBufferPointer { binds in
            for index in binds.indices { binds[index](&row, record) }
        }
    }
}

/// `column` filled by `bind`: one line of a ``TableRow``.
func fill<Record>(_ column: CanonicalColumn, _ bind: @escaping TableRow<Record>.Bind) -> TableRow<Record>.Field {
    .init(column: column, bind: bind)
}

/// A part that belongs to one of several owners (a material line to a recipe, a step or a log):
/// the part, and its owner's id for the owner column its shape names.
struct Owned<Part>: Sendable where Part: Sendable {
    let owner: String
    let part: Part
}

extension CanonicalTables {
    /// Every canonical table's declared columns, parents before children.
    package static let declarations: [(table: String, columns: [CanonicalColumn])] = [
        (RecipeTable.row.table, RecipeTable.row.columns),
        (RecipeParameterTable.row.table, RecipeParameterTable.row.columns),
        (RecipeStepTable.row.table, RecipeStepTable.row.columns),
        (ProjectTable.row.table, ProjectTable.row.columns),
        (ProjectStepTable.row.table, ProjectStepTable.row.columns),
        (LogTable.row.table, LogTable.row.columns),
        (LogSnapshotTable.row.table, LogSnapshotTable.row.columns),
        (MaterialLineTable.table, MaterialLineTable.columns),
        (CatalogItemTable.row.table, CatalogItemTable.row.columns),
        (NameTables.tag.table, NameTables.tag.columns),
        (NameTables.technique.table, NameTables.technique.columns),
    ] + NameTables.joins.map { ($0.table, $0.row.columns) } + [
        (ReferenceLinkTable.table, ReferenceLinkTable.columns),
        (AttachmentContentTable.row.table, AttachmentContentTable.row.columns),
        (AttachmentTable.table, AttachmentTable.columns),
        (ImportRunTable.row.table, ImportRunTable.row.columns),
    ]
}
