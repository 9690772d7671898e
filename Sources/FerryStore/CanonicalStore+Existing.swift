import FerryCanonical
import FerryJSON
import GRDB

/// The records a store already holds, for links and snapshots a new batch makes to them.
extension CanonicalStore: ExistingRecords {
    public func recipeExists(_ id: String) throws -> Bool { try exists("recipe", id) }

    public func projectExists(_ id: String) throws -> Bool { try exists("project", id) }

    public func recipeSnapshot(_ id: String) throws -> LogSnapshot? {
        guard try hasSchema() else { return nil }
        return try read { try ExistingQueries.recipeSnapshot($0, id) }
    }

    public func projectSnapshot(_ id: String) throws -> LogSnapshot? {
        guard try hasSchema() else { return nil }
        return try read { try ExistingQueries.projectSnapshot($0, id) }
    }

    private func exists(_ table: String, _ id: String) throws -> Bool {
        guard try hasSchema() else { return false }
        return try read { try ExistingQueries.exists($0, table, id) }
    }
}

/// Queries for records a store holds, on any connection (a read, or a write transaction in progress).
enum ExistingQueries {
    static func exists(_ db: Database, _ table: String, _ id: String) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM \(table) WHERE \(SharedColumns.id) = ?)"), arguments: [id]) ?? false
    }

    /// What a log made from the recipe now would snapshot: title, method, kind, parameters.
    static func recipeSnapshot(_ db: Database, _ id: String) throws -> LogSnapshot? {
        typealias Recipe = RecipeTable
        typealias Parameter = RecipeParameterTable
        let sql = "SELECT \(Recipe.title), \(Recipe.method), \(Recipe.kind) FROM \(Recipe.table) WHERE \(Recipe.id) = ?"
        guard let row = try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [id]) else { return nil }
        var snapshot = LogSnapshot(sourceType: Recipe.table, sourceID: id, title: row[0], method: row[1], kind: row[2])
        let parameters = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT \(Parameter.name), \(Parameter.value), \(Parameter.textValue), \(Parameter.unit) FROM \(Parameter.table)
            WHERE \(Parameter.recipeID) = ? ORDER BY \(Parameter.position)
            """), arguments: [id])
        // The snapshot's own words: `{"value": 15, "unit": "g"}` or `{"text": "fine"}`.
        for parameter in parameters {
            var entry = JSONObject()
            if let value = parameter[1] as Double? { entry["value"] = .double(value) }
            if let text = parameter[2] as String? { entry["text"] = .string(text) }
            if let unit = parameter[3] as String? { entry["unit"] = .string(unit) }
            snapshot.parameters[parameter[0]] = .object(entry)
        }
        return snapshot
    }

    static func projectSnapshot(_ db: Database, _ id: String) throws -> LogSnapshot? {
        typealias Project = ProjectTable
        let sql = "SELECT \(Project.title), \(Project.kind), \(Project.category) FROM \(Project.table) WHERE \(Project.id) = ?"
        guard let row = try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [id]) else { return nil }
        return LogSnapshot(sourceType: Project.table, sourceID: id, title: row[0], method: row[2], kind: row[1])
    }

    /// A log's snapshot as stored.
    static func logSnapshot(_ db: Database, log: String) throws -> LogSnapshot? {
        typealias Snapshot = LogSnapshotTable
        let sql = "SELECT * FROM \(Snapshot.table) WHERE \(Snapshot.logID) = ?"
        guard let row = try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [log]) else { return nil }
        var snapshot = LogSnapshot(sourceType: row[Snapshot.sourceType.name], sourceID: row[Snapshot.sourceID.name], title: row[Snapshot.title.name],
                                   method: row[Snapshot.method.name], kind: row[Snapshot.kind.name])
        if let parameters = row[Snapshot.parameters.name] as String?, let object = try? JSONReader().read(Array(parameters.utf8)).object {
            snapshot.parameters = object
        }
        snapshot.isReconstructed = (row[Snapshot.isReconstructed.name] as Int64? ?? 0) != 0
        if let fields = row[Snapshot.reconstructedFields.name] as String?, let array = try? JSONReader().read(Array(fields.utf8)).array {
            snapshot.reconstructedFields = array.compactMap(\.string)
        }
        return snapshot
    }
}
