import Foundation
import GRDB

/// What a merge did with one table's incoming rows, judged by primary key.
public struct MergeCount: Sendable, Equatable {
    /// Rows whose key the store did not have.
    public var new = 0
    /// Rows whose key the store had, with other values: the incoming row replaced it.
    public var changed = 0
    /// Rows the store already held exactly: not written.
    public var unchanged = 0

    public init(new: Int = 0, changed: Int = 0, unchanged: Int = 0) {
        self.new = new
        self.changed = changed
        self.unchanged = unchanged
    }

    /// `new: 3 log; changed: 1 import_run; unchanged: 2 recipe`, leaving out empty groups.
    public static func line(_ counts: [String: MergeCount]) -> String {
        let groups: [(String, KeyPath<MergeCount, Int>)] = [("new", \.new), ("changed", \.changed), ("unchanged", \.unchanged)]
        return groups.compactMap { label, path in
            let tables = CanonicalTables.countsLine(counts.mapValues { $0[keyPath: path] })
            return tables.isEmpty ? nil : "\(label): \(tables)"
        }.joined(separator: "; ")
    }
}

extension CanonicalStore {
    /// Upserts every row of another canonical store (same schema version) into this one by
    /// primary key, parents before children, in one transaction; rows this store has and the
    /// other lacks are kept.
    /// - Returns: per table, how many incoming rows were new, changed or already there.
    /// - Throws: ``StoreError``; the store is unchanged then.
    public func merge(from otherPath: String) throws -> [String: MergeCount] {
        do {
            return try queue.writeWithoutTransaction { db in
                try db.execute(sql: "ATTACH DATABASE ? AS incoming", arguments: [otherPath])
                defer { try? db.execute(sql: "DETACH DATABASE incoming") }
                var counts: [String: MergeCount] = [:]
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

    private static func upsert(_ table: String, db: Database) throws -> MergeCount {
        let columns = try Row.fetchAll(db, sql: "PRAGMA main.table_info(\(table))")
        let names = columns.map { "\"\($0["name"] as String)\"" }
        let key = try CanonicalTables.key(of: table, db: db).map { "\"\($0)\"" }
        let others = names.filter { !key.contains($0) }
        let list = names.joined(separator: ", ")
        let sameKey = key.map { "m.\($0) = i.\($0)" }.joined(separator: " AND ")
        let identical = names.map { "m.\($0) IS i.\($0)" }.joined(separator: " AND ")
        // A store and a bundle of it (or of a store it came from) hold a row at the same rowid: the
        // row is looked for there first, in the order both tables are read, and by its key only
        // when it is not there. By key alone, a million logs' lookups jumped all over the store's
        // key index and table: 5.0 s against 1.7 s for `log` (sqlite3, a store and its own copy).
        let isUnchanged = key.isEmpty
            ? "EXISTS (SELECT 1 FROM main.\(table) m WHERE \(identical))"
            : "(EXISTS (SELECT 1 FROM main.\(table) m WHERE m.rowid = i.rowid AND \(sameKey) AND \(identical))"
                + " OR EXISTS (SELECT 1 FROM main.\(table) m WHERE \(sameKey) AND \(identical)))"
        let action = others.isEmpty || key.isEmpty ? "DO NOTHING" : "DO UPDATE SET " + others.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        let target = key.isEmpty ? "" : "(\(key.joined(separator: ", ")))"
        // Counted from the one pass that writes: rows are only added or replaced, never removed,
        // so the rows the table gained are the new ones, and the others written were changed.
        // (A pass to count first looked every incoming row up twice more: 2 million lookups at a
        // million logs.)
        let count = "SELECT count(*) FROM main.\(table)"
        let before = try Int.fetchOne(db, sql: count) ?? 0
        let incoming = try Int.fetchOne(db, sql: "SELECT count(*) FROM incoming.\(table)") ?? 0
        // Rows the store holds as they are stay untouched: no write, no trigger, no page dirtied.
        try db.execute(sql: "INSERT INTO main.\(table) (\(list)) SELECT \(list) FROM incoming.\(table) i WHERE NOT \(isUnchanged) ON CONFLICT\(target) \(action)")
        let written = db.changesCount
        let new = (try Int.fetchOne(db, sql: count) ?? 0) - before
        return MergeCount(new: new, changed: written - new, unchanged: incoming - written)
    }
}
