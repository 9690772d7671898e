import FerryCanonical

/// `tag` and `technique`: names shared by the records that carry them, each row's id derived
/// from its name; and the tables that join them to their owners, in the owner's order.
package enum NameTables {
    package static let id = SharedColumns.id
    package static let name = CanonicalColumn("name", .text, required: true)
    package static let position = CanonicalColumn("position", .integer, required: true)

    static let tag = TableRow<(id: String, name: String)>("tag", names)
    static let technique = TableRow<(id: String, name: String)>("technique", names)
    private static let names: [TableRow<(id: String, name: String)>.Field] = [
        fill(id) { $0.add($1.id) },
        fill(name) { $0.add($1.name) },
    ]

    /// A join row: the owner's id, the name's id and the name's place among the owner's.
    typealias Joined = (owner: String, name: String, position: Int)

    /// A join table: which owner it joins to which names.
    package struct Join: Sendable {
        package let table: String
        /// `tag` or `technique`.
        package let kind: String
        package let owner: CanonicalColumn
        package let name: CanonicalColumn
        let row: TableRow<Joined>
        let key: [CanonicalColumn]

        init(_ owner: String, _ kind: String) {
            table = "\(owner)_\(kind)"
            self.kind = kind
            self.owner = CanonicalColumn("\(owner)_id", .text, required: true)
            name = CanonicalColumn("\(kind)_id", .text, required: true)
            row = TableRow(table, [
                fill(self.owner) { $0.add($1.owner) },
                fill(name) { $0.add($1.name) },
                fill(NameTables.position) { $0.add($1.position) },
            ])
            key = [self.owner, name]
        }
    }

    package static let recipeTag = Join("recipe", "tag")
    package static let projectTag = Join("project", "tag")
    package static let logTag = Join("log", "tag")
    package static let projectTechnique = Join("project", "technique")
    package static let logTechnique = Join("log", "technique")
    static let joins = [recipeTag, projectTag, logTag, projectTechnique, logTechnique]
}
