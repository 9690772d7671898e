import GRDB

/// Every foreign key of a store checked at once, as `PRAGMA foreign_key_check` would, but walking
/// each child column's index in key order, so that the parent's key is looked up in order too
/// (rows are in the random order of their UUIDs). A store read once has no index on its child
/// columns (``CanonicalStore/init(path:readOnly:bulk:workingCopy:readOnce:)``): the table is
/// scanned, each parent still found by its key.
enum ForeignKeyCheck {
    /// How many rows name a missing row, and the first of them, in one line; nil when none does.
    static func dangling(_ db: Database) throws -> String? {
        var count = 0
        var first: String?
        let tables = try String.fetchAll(db, sql: "SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        for child in tables {
            let keys = try Row.fetchAll(db, sql: "SELECT id, \"table\", \"from\", \"to\" FROM pragma_foreign_key_list(?, 'main') ORDER BY id, seq",
                                        arguments: [child])
            for key in Dictionary(grouping: keys, by: { $0["id"] as Int }).sorted(by: { $0.key < $1.key }).map(\.value) {
                let parent: String = key[0]["table"]
                // A key with a NULL column names nothing, as SQLite has it.
                let named = key.map { "c.\(($0["from"] as String).quotedDatabaseIdentifier) IS NOT NULL" }.joined(separator: " AND ")
                let matches = key.map { "p.\(($0["to"] as String? ?? "id").quotedDatabaseIdentifier) = c.\(($0["from"] as String).quotedDatabaseIdentifier)" }.joined(separator: " AND ")
                let missing = "FROM main.\(child.quotedDatabaseIdentifier) c WHERE \(named) AND NOT EXISTS (SELECT 1 FROM main.\(parent.quotedDatabaseIdentifier) p WHERE \(matches))"
                let found = try Int.fetchOne(db, sql: "SELECT count(*) \(missing)") ?? 0
                guard found > 0 else { continue }
                count += found
                if first == nil {
                    let rowid = try Int64.fetchOne(db, sql: "SELECT c.rowid \(missing) LIMIT 1")
                    first = "\(child)" + (rowid.map { " (rowid \($0))" } ?? "") + ", naming a missing \(parent)"
                }
            }
        }
        guard let first else { return nil }
        return (count == 1 ? "1 row refers" : "\(count) rows refer") + " to missing rows, first in \(first)"
    }
}
