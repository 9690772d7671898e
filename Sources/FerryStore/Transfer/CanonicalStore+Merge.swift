import Foundation
import GRDB

extension CanonicalStore {
    /// Upserts every row of another canonical store (same schema version) into this one by
    /// primary key, parents before children, in one transaction; rows this store has and the
    /// other lacks are kept.
    /// - Returns: rows merged per table.
    /// - Throws: ``StoreError``; the store is unchanged then.
    public func merge(from otherPath: String) throws -> [String: Int] {
        do {
            return try queue.writeWithoutTransaction { db in
                try db.execute(sql: "ATTACH DATABASE ? AS incoming", arguments: [otherPath])
                defer { try? db.execute(sql: "DETACH DATABASE incoming") }
                var counts: [String: Int] = [:]
                try db.inTransaction {
                    for table in CanonicalTables.all {
                        counts[table] = try Self.upsert(table, db: db)
                    }
                    if let dangling = try ForeignKeyCheck.dangling(db) {
                        throw StoreError(.integrity(["merged: " + dangling]), path: path, activity: "merging \(otherPath)")
                    }
                    return .commit
                }
                return counts
            }
        } catch let error as DatabaseError {
            throw StoreError(error, path: path, activity: "merging \(otherPath)")
        }
    }

    private static func upsert(_ table: String, db: Database) throws -> Int {
        let columns = try Row.fetchAll(db, sql: "PRAGMA main.table_info(\(table))")
        let names = columns.map { "\"\($0["name"] as String)\"" }
        let key = try CanonicalTables.key(of: table, db: db).map { "\"\($0)\"" }
        let others = names.filter { !key.contains($0) }
        let list = names.joined(separator: ", ")
        let action = others.isEmpty || key.isEmpty ? "DO NOTHING" : "DO UPDATE SET " + others.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        let target = key.isEmpty ? "" : "(\(key.joined(separator: ", ")))"
        try db.execute(sql: "INSERT INTO main.\(table) (\(list)) SELECT \(list) FROM incoming.\(table) WHERE true ON CONFLICT\(target) \(action)")
        return try Int.fetchOne(db, sql: "SELECT count(*) FROM incoming.\(table)") ?? 0
    }
}
