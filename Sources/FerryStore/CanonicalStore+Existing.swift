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
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM \(table) WHERE id = ?)"), arguments: [id]) ?? false
    }

    /// What a log made from the recipe now would snapshot: title, method, kind, parameters.
    static func recipeSnapshot(_ db: Database, _ id: String) throws -> LogSnapshot? {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT title, method, kind FROM recipe WHERE id = ?"), arguments: [id]) else { return nil }
        var snapshot = LogSnapshot(sourceType: "recipe", sourceID: id, title: row["title"], method: row["method"], kind: row["kind"])
        let parameters = try Row.fetchAll(db.cachedStatement(sql: "SELECT name, value, text_value, unit FROM recipe_parameter WHERE recipe_id = ? ORDER BY position"),
                                          arguments: [id])
        for parameter in parameters {
            var entry = JSONObject()
            if let value = parameter["value"] as Double? { entry["value"] = .double(value) }
            if let text = parameter["text_value"] as String? { entry["text"] = .string(text) }
            if let unit = parameter["unit"] as String? { entry["unit"] = .string(unit) }
            snapshot.parameters[parameter["name"]] = .object(entry)
        }
        return snapshot
    }

    static func projectSnapshot(_ db: Database, _ id: String) throws -> LogSnapshot? {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT title, kind, category FROM project WHERE id = ?"), arguments: [id]) else { return nil }
        return LogSnapshot(sourceType: "project", sourceID: id, title: row["title"], method: row["category"], kind: row["kind"])
    }

    /// A log's snapshot as stored.
    static func logSnapshot(_ db: Database, log: String) throws -> LogSnapshot? {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM log_snapshot WHERE log_id = ?"), arguments: [log]) else { return nil }
        var snapshot = LogSnapshot(sourceType: row["source_type"], sourceID: row["source_id"], title: row["title"], method: row["method"], kind: row["kind"])
        if let parameters = row["parameters"] as String?, let object = try? JSONReader().read(Array(parameters.utf8)).object {
            snapshot.parameters = object
        }
        snapshot.isReconstructed = (row["is_reconstructed"] as Int64? ?? 0) != 0
        if let fields = row["reconstructed_fields"] as String?, let array = try? JSONReader().read(Array(fields.utf8)).array {
            snapshot.reconstructedFields = array.compactMap(\.string)
        }
        return snapshot
    }
}
