import FerryCanonical
import FerryJSON
import GRDB

/// The records a store already holds, for links and snapshots a new batch makes to them.
extension CanonicalStore: ExistingRecords {
    public func recipeExists(_ id: String) -> Bool { exists("recipe", id) }

    public func projectExists(_ id: String) -> Bool { exists("project", id) }

    public func recipeSnapshot(_ id: String) -> LogSnapshot? {
        guard hasSchema else { return nil }
        return try? read { db -> LogSnapshot? in
            guard let row = try Row.fetchOne(db, sql: "SELECT title, method, kind FROM recipe WHERE id = ?", arguments: [id]) else { return nil }
            var snapshot = LogSnapshot(sourceType: "recipe", sourceID: id)
            snapshot.title = row["title"]
            snapshot.method = row["method"]
            snapshot.kind = row["kind"]
            let parameters = try Row.fetchAll(db, sql: "SELECT name, value, text_value, unit FROM recipe_parameter WHERE recipe_id = ? ORDER BY position",
                                              arguments: [id])
            for parameter in parameters {
                var entry = JSONObject()
                if let value = parameter["value"] as Double? { entry["value"] = .double(value) }
                if let text = parameter["text_value"] as String? { entry["text"] = .string(text) }
                if let unit = parameter["unit"] as String? { entry["unit"] = .string(unit) }
                snapshot.parameters[parameter["name"]] = .object(entry)
            }
            return snapshot
        } ?? nil
    }

    public func projectSnapshot(_ id: String) -> LogSnapshot? {
        guard hasSchema else { return nil }
        return try? read { db -> LogSnapshot? in
            guard let row = try Row.fetchOne(db, sql: "SELECT title, kind, category FROM project WHERE id = ?", arguments: [id]) else { return nil }
            var snapshot = LogSnapshot(sourceType: "project", sourceID: id)
            snapshot.title = row["title"]
            snapshot.kind = row["kind"]
            snapshot.method = row["category"]
            return snapshot
        } ?? nil
    }

    private func exists(_ table: String, _ id: String) -> Bool {
        guard hasSchema else { return false }
        return (try? read { try Bool.fetchOne($0, sql: "SELECT EXISTS (SELECT 1 FROM \(table) WHERE id = ?)", arguments: [id]) ?? false }) ?? false
    }
}
