import FerryJSON
import FerryStore

/// The shared parts of a page's (or a batch's) records (tags, techniques, materials, attachments, links),
/// asked of the snapshot once per page and grouped by their owner's id.
package struct OwnedParts {
    package enum Owner {
        case recipe, recipeStep, project, projectStep, log

        /// The column of `material_line` that names an owner of this kind.
        package var materials: CanonicalColumn {
            switch self {
            case .recipe: return MaterialLineTable.recipeID
            case .recipeStep: return MaterialLineTable.recipeStepID
            case .project: return MaterialLineTable.projectID
            case .projectStep: return MaterialLineTable.projectStepID
            case .log: return MaterialLineTable.logID
            }
        }

        /// Records of these kinds have tags and techniques of their own.
        package var tags: NameTables.Join? {
            switch self {
            case .recipe: return NameTables.recipeTag
            case .project: return NameTables.projectTag
            case .log: return NameTables.logTag
            case .recipeStep, .projectStep: return nil
            }
        }

        package var techniques: NameTables.Join? {
            switch self {
            case .project: return NameTables.projectTechnique
            case .log: return NameTables.logTechnique
            case .recipe, .recipeStep, .projectStep: return nil
            }
        }

        package var attachments: CanonicalColumn? {
            switch self {
            case .recipe: return AttachmentTable.recipeID
            case .project: return AttachmentTable.projectID
            case .log: return AttachmentTable.logID
            case .recipeStep, .projectStep: return nil
            }
        }

        package var links: CanonicalColumn? {
            switch self {
            case .recipe: return ReferenceLinkTable.recipeID
            case .project: return ReferenceLinkTable.projectID
            case .log, .recipeStep, .projectStep: return nil
            }
        }
    }

    package var tags: [String: [String]] = [:]
    package var techniques: [String: [String]] = [:]
    /// Rows of ``materialColumns``.
    package var materials: [String: [TextRow]] = [:]
    /// Rows of ``attachmentColumns``, then whether the bundle has the attachment's bytes.
    package var attachments: [String: [TextRow]] = [:]
    /// Rows of ``linkColumns``.
    package var links: [String: [TextRow]] = [:]

    private typealias Material = MaterialLineTable
    private typealias File = AttachmentTable
    private typealias Link = ReferenceLinkTable
    package static func materialColumns(owner: CanonicalColumn) -> Selection {
        Selection([owner, Material.catalogKey, Material.description, Material.quantity, Material.unit, Material.notes])
    }
    package static func attachmentColumns(_ leading: [CanonicalColumn] = [], _ trailing: [CanonicalColumn] = []) -> Selection {
        Selection(leading + [File.id, File.name, File.mediaType, File.sha256, File.localURL, File.tag, File.byteCount] + trailing)
    }
    /// Whether the bundle carries an attachment's bytes, for a statement reading `attachment` as `a`.
    package static let hasContent = "EXISTS (SELECT 1 FROM \(AttachmentContentTable.table) c WHERE c.\(AttachmentContentTable.sha256) = a.\(File.sha256))"

    package init() {}

    package init(of owner: Owner, ids: [String], session: FrozenStoreSession) throws {
        guard !ids.isEmpty else { return }
        let page = Self.inPage
        let arguments = [Self.idList(ids)]
        if let join = owner.tags { tags = try Self.names(session, join, arguments) }
        if let join = owner.techniques { techniques = try Self.names(session, join, arguments) }
        let column = owner.materials
        materials = try Self.grouped(session, Self.materialColumns(owner: column), from: Material.table, page: page, arguments,
                                     order: "\(Material.position), \(Material.id)")
        if let column = owner.attachments {
            let selection = Self.attachmentColumns([column])
            attachments = try Self.grouped(session, """
                SELECT \(selection.list("a")), \(Self.hasContent)
                FROM \(File.table) a WHERE a.\(column) \(page) ORDER BY a.\(column), a.\(File.position), a.\(File.id)
                """, selection, arguments)
        }
        if let column = owner.links {
            links = try Self.grouped(session, Selection([column, Link.url, Link.title, Link.description]), from: Link.table, page: page,
                                     arguments, order: "\(Link.position), \(Link.id)")
        }
    }

    /// Ids as the one argument of a statement that reads them with ``inPage``: a JSON array.
    package static func idList(_ ids: [String]) -> String {
        JSONWriter.string(.array(ids.map { .string($0) }))
    }

    /// `… IN` the ids of one page, given as ``idList(_:)``, the statement's one argument.
    package static let inPage = "IN (SELECT value FROM json_each(?1))"

    /// A page's records of `table` by id (their first column), every column as text.
    package static func records(_ session: FrozenStoreSession, _ table: String, columns: Selection, ids: [String]) throws -> [String: TextRow] {
        var rows: [String: TextRow] = [:]
        let id = columns.columns[0]
        for row in try session.texts("SELECT \(columns.list()) FROM \(table) WHERE \(id) \(inPage)", [Self.idList(ids)]) {
            rows[row[0] ?? ""] = TextRow(values: row, selection: columns)
        }
        return rows
    }

    /// The rows of `table` whose owner (the selection's first column) is on the page, by owner,
    /// each owner's in `order`.
    package static func grouped(_ session: FrozenStoreSession, _ selection: Selection, from table: String, page: String, _ arguments: [String],
                        order: String) throws -> [String: [TextRow]] {
        let owner = selection.columns[0]
        return try grouped(session, "SELECT \(selection.list()) FROM \(table) WHERE \(owner) \(page) ORDER BY \(owner), \(order)",
                           selection, arguments)
    }

    /// Rows by the owner in their first column.
    package static func grouped(_ session: FrozenStoreSession, _ sql: String, _ selection: Selection, _ arguments: [String]) throws -> [String: [TextRow]] {
        var result: [String: [TextRow]] = [:]
        try session.select(sql, arguments) { row in
            guard let owner = row.text(0) else { return }
            result[owner, default: []].append(TextRow(values: (0..<row.columnCount).map { row.text($0) }, selection: selection))
        }
        return result
    }

    /// The names joined to each owner on the page, in the owner's order.
    private static func names(_ session: FrozenStoreSession, _ join: NameTables.Join, _ arguments: [String]) throws -> [String: [String]] {
        let sql = """
            SELECT j.\(join.owner), t.\(NameTables.name) FROM \(join.table) j JOIN \(join.kind) t ON t.\(NameTables.id) = j.\(join.name)
            WHERE j.\(join.owner) \(inPage) ORDER BY j.\(join.owner), j.\(NameTables.position), t.\(NameTables.name)
            """
        var result: [String: [String]] = [:]
        try session.select(sql, arguments) { row in
            guard let owner = row.text(0), let name = row.text(1) else { return }
            result[owner, default: []].append(name)
        }
        return result
    }

    /// Whether any row of the store's shared parts belongs to a record of this kind: a page of
    /// logs asks for its parts only when some log has any.
    package static func exist(for owner: Owner, session: FrozenStoreSession) throws -> Bool {
        var tables = [(Material.table, owner.materials)]
        if let join = owner.tags { tables.append((join.table, join.owner)) }
        if let join = owner.techniques { tables.append((join.table, join.owner)) }
        if let column = owner.attachments { tables.append((File.table, column)) }
        for (table, column) in tables {
            if try session.count("SELECT EXISTS (SELECT 1 FROM \(table) WHERE \(column) IS NOT NULL)") > 0 { return true }
        }
        return false
    }
}
