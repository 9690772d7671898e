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
    /// - Throws: ``StoreError``; the transaction is rolled back then (a working copy, which has
    ///   no journal, is to be thrown away).
    public func merge(from otherPath: String) throws -> [String: MergeCount] {
        try merging(otherPath, as: "incoming", activity: "merging \(otherPath)") { try MergeStatements(table: $0, other: "incoming", db: $1).upsert($1) }
    }

    /// The same merge seen from the other side: this store holds the incoming rows, and the
    /// rows of the store at `existingPath` (a private copy of it: it is attached as it is) whose
    /// keys this one lacks are added to it. Where `existing.merge(from: this)` succeeds, this
    /// ends with the rows it would leave (at other rowids) and gives its counts. Cheaper when
    /// the incoming rows outnumber the existing ones: into a store holding half of a million-log
    /// bundle's logs, the other way wrote half a million logs and snapshots in random key order
    /// (20 s of SQL), this way writes nothing (3 s) (`Formats/performance.md`).
    /// - Throws: ``StoreError``, as ``merge(from:)``; also when the two schema versions differ.
    public func merge(keepingRowsOf existingPath: String) throws -> [String: MergeCount] {
        try merging(existingPath, as: "existing", activity: "merging the store's own rows", sameVersion: true) { table, db in
            let statements = try MergeStatements(table: table, other: "existing", db: db)
            guard !statements.key.isEmpty else { throw StoreError(.database("\(table) has no key to merge by"), path: path) }
            return try statements.keepMissing(db)
        }
    }

    /// Attaches the other store as `name` and merges each canonical table with `table`
    /// (``mergeTables(_:name:activity:sameVersion:_:)``), detaching it after.
    /// - Parameter sameVersion: refuse another schema version than this store's (whose tables the
    ///   other's rows are compared with column by column).
    private func merging(_ other: String, as name: String, activity: String, sameVersion: Bool = false,
                         _ table: (String, Database) throws -> MergeCount) throws -> [String: MergeCount] {
        do {
            return try queue.writeWithoutTransaction { db in
                try db.execute(sql: "ATTACH DATABASE ? AS \(name)", arguments: [other])
                let counts: [String: MergeCount]
                do {
                    counts = try mergeTables(db, name: name, activity: activity, sameVersion: sameVersion, table)
                } catch {
                    // The merge's error is the one said; the other store is let go all the same.
                    do { try db.execute(sql: "DETACH DATABASE \(name)") } catch {}
                    throw error
                }
                // After a merge that committed, a store left attached would fail the next one.
                try db.execute(sql: "DETACH DATABASE \(name)")
                return counts
            }
        } catch let error as DatabaseError {
            throw StoreError(error, path: path, activity: activity)
        }
    }

    /// Each canonical table merged by `table` in one transaction, its foreign keys checked
    /// before it commits.
    private func mergeTables(_ db: Database, name: String, activity: String, sameVersion: Bool,
                             _ table: (String, Database) throws -> MergeCount) throws -> [String: MergeCount] {
        if sameVersion {
            let versions = try ["main", name].map { try Int.fetchOne(db, sql: "PRAGMA \($0).user_version") ?? 0 }
            guard versions[0] == versions[1] else {
                throw StoreError(.database("the other store's schema version is \(versions[1]), this one's \(versions[0])"), path: path, activity: activity)
            }
        }
        var counts: [String: MergeCount] = [:]
        try db.inTransaction {
            // Foreign keys are checked once all rows are in, by the check below, which
            // names the row and what it misses: SQLite's own failure names neither (rows
            // a store holds already can name missing rows; this way they are said alike).
            try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
            for canonical in CanonicalTables.all {
                counts[canonical] = try table(canonical, db)
            }
            if let dangling = try ForeignKeyCheck.dangling(db) {
                throw StoreError(.integrity(["merged: " + dangling]), path: path, activity: activity)
            }
            return .commit
        }
        return counts
    }
}

/// The SQL that merges one table of the store attached as `other` with the same table of `main`,
/// by the table's key (its primary key or its unique index).
private struct MergeStatements {
    let table: String
    let other: String
    let key: [String]
    let names: [String]

    init(table: String, other: String, db: Database) throws {
        self.table = table
        self.other = other
        names = try Row.fetchAll(db, sql: "PRAGMA main.table_info(\(table))").map { "\"\($0["name"] as String)\"" }
        key = try CanonicalTables.key(of: table, db: db).map { "\"\($0)\"" }
    }

    private var list: String { names.joined(separator: ", ") }
    private var sameKey: String { key.map { "m.\($0) = r.\($0)" }.joined(separator: " AND ") }

    /// Whether `main` holds the row `r` of `other` as it is. A store and a bundle of it (or of a
    /// store it came from) hold a row at the same rowid: the row is looked for there first, in the
    /// order both tables are read, and by its key only when it is not there. By key alone, a
    /// million logs' lookups jumped all over the store's key index and table: 5.0 s against 1.7 s
    /// for `log` (sqlite3, a store and its own copy).
    private var isHeld: String {
        let identical = names.map { "m.\($0) IS r.\($0)" }.joined(separator: " AND ")
        return key.isEmpty
            ? "EXISTS (SELECT 1 FROM main.\(table) m WHERE \(identical))"
            : "(EXISTS (SELECT 1 FROM main.\(table) m WHERE m.rowid = r.rowid AND \(sameKey) AND \(identical))"
                + " OR EXISTS (SELECT 1 FROM main.\(table) m WHERE \(sameKey) AND \(identical)))"
    }

    /// Whether `main` holds a row with the key of the row `r` of `other`, looked for as in ``isHeld``.
    private var keyIsHeld: String {
        "(EXISTS (SELECT 1 FROM main.\(table) m WHERE m.rowid = r.rowid AND \(sameKey)) OR EXISTS (SELECT 1 FROM main.\(table) m WHERE \(sameKey)))"
    }

    private func count(_ db: Database, _ schema: String, where condition: String = "1") throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM \(schema).\(table) r WHERE \(condition)") ?? 0
    }

    /// `other`'s rows upserted into `main`.
    func upsert(_ db: Database) throws -> MergeCount {
        let others = names.filter { !key.contains($0) }
        let action = others.isEmpty || key.isEmpty ? "DO NOTHING" : "DO UPDATE SET " + others.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        let target = key.isEmpty ? "" : "(\(key.joined(separator: ", ")))"
        // Counted from the one pass that writes: rows are only added or replaced, never removed,
        // so the rows the table gained are the new ones, and the others written were changed.
        // (A pass to count first looked every incoming row up twice more: 2 million lookups at a
        // million logs.)
        let before = try count(db, "main")
        let incoming = try count(db, other)
        // Rows the store holds as they are stay untouched: no write, no trigger, no page dirtied.
        try db.execute(sql: "INSERT INTO main.\(table) (\(list)) SELECT \(list) FROM \(other).\(table) r WHERE NOT \(isHeld) ON CONFLICT\(target) \(action)")
        let written = db.changesCount
        let new = try count(db, "main") - before
        return MergeCount(new: new, changed: written - new, unchanged: incoming - written)
    }

    /// `other`'s rows whose key `main` lacks added to `main`, which holds the incoming rows; the
    /// counts are those of the upsert the other way round: of the existing rows, those `main`
    /// holds as they are were unchanged, those whose key it holds were changed, and the incoming
    /// rows that are neither were new.
    func keepMissing(_ db: Database) throws -> MergeCount {
        let incoming = try count(db, "main")
        // Usually every existing row is held as it is, and this one pass is all the merge does.
        let differing = try count(db, other, where: "NOT \(isHeld)")
        var kept = 0
        if differing > 0 {
            try db.execute(sql: "INSERT INTO main.\(table) (\(list)) SELECT \(list) FROM \(other).\(table) r WHERE NOT \(keyIsHeld)")
            kept = db.changesCount
        }
        let existing = try count(db, other)
        let changed = differing - kept
        return MergeCount(new: incoming - changed - (existing - differing), changed: changed, unchanged: existing - differing)
    }
}
