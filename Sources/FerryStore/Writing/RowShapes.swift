/// The upsert of every canonical table, from the tables' declarations (`Schema/Tables/`).
enum RowShapes {
    static let recipe = TableShape(RecipeTable.row)
    static let recipeParameter = TableShape(RecipeParameterTable.row, key: RecipeParameterTable.key)
    static let recipeStep = TableShape(RecipeStepTable.row)
    static let project = TableShape(ProjectTable.row)
    static let projectStep = TableShape(ProjectStepTable.row)
    static let log = TableShape(LogTable.row)
    static let logSnapshot = TableShape(LogSnapshotTable.row)
    /// Into a store that was empty, the tables whose keys are built after the rows (schema v2
    /// and v4, ``CanonicalStore/session(report:keepGoing:run:_:)``) take plain INSERTs: an
    /// upsert needs the key it decides by, and opens a statement journal for every row. Logs'
    /// ids were claimed by the conversion (a duplicate was refused before it came here); rows of
    /// a recipe's parts that share a key (a step id from the source) are folded as upserts would
    /// have left them when the key is built.
    static let newLog = TableShape(LogTable.row, plainInsert: true)
    static let newLogSnapshot = TableShape(LogSnapshotTable.row, plainInsert: true)
    /// A recipe the session has not written yet: its key stays while rows go in, and an upsert's
    /// statement journal copied two 16 KiB pages a recipe (a third of converting 100,000).
    static let newRecipe = TableShape(RecipeTable.row, plainInsert: true)
    static let newRecipeStep = TableShape(RecipeStepTable.row, plainInsert: true)
    static let newRecipeTag = TableShape(NameTables.recipeTag.row, plainInsert: true)

    /// Material lines, attachments and reference links belong to one of several owners; one
    /// shape per owner column.
    static let materialLine = perOwner(MaterialLineTable.owners) { TableShape(MaterialLineTable.row(owner: $0)) }
    static let newMaterialLine = perOwner(MaterialLineTable.owners) { TableShape(MaterialLineTable.row(owner: $0), plainInsert: true) }
    static let referenceLink = perOwner(ReferenceLinkTable.owners) { TableShape(ReferenceLinkTable.row(owner: $0)) }
    static let attachment = perOwner(AttachmentTable.owners) { TableShape(AttachmentTable.row(owner: $0)) }

    /// Tags and techniques by name, and the tables that join them to their owners.
    static let tag = TableShape(NameTables.tag, shared: true)
    static let technique = TableShape(NameTables.technique, shared: true)
    static let nameJoins = Dictionary(uniqueKeysWithValues: NameTables.joins.map { ($0.table, TableShape($0.row, key: $0.key)) })

    static let catalogItem = TableShape(CatalogItemTable.row, shared: true)
    static let attachmentContent = TableShape(AttachmentContentTable.row, shared: true)
    static let importRun = TableShape(ImportRunTable.row, shared: true)

    private static func perOwner<Record>(_ owners: [CanonicalColumn], _ make: (CanonicalColumn) -> TableShape<Record>) -> [String: TableShape<Record>] {
        Dictionary(uniqueKeysWithValues: owners.map { ($0.name, make($0)) })
    }
}
