import Foundation
import FerryCoreData
import GRDB

/// Checks a store file that came from outside (a bundle) before Ferry uses it: a Ferry schema
/// exactly as Ferry's own migrations make it (no extra tables, views or triggers that could run
/// later), not newer than this Ferry, passing `integrity_check` (CHECK constraints included) and
/// `foreign_key_check`.
public enum UntrustedStore {
    /// - Returns: the schema version and the rows per canonical table.
    /// - Throws: ``StoreError`` naming what is wrong.
    ///
    /// The file must be a private copy (import's staging, a backup): once its schema is known to
    /// be exactly Ferry's it is opened for writing, with writes refused, because a read-only
    /// connection's `integrity_check` skips CHECK constraints (SQLite 3.40), and those are what
    /// keep ids, JSON columns and enumerations well formed.
    ///
    /// - Parameter progress: told how many parts of the check are done of how many, first with none.
    public static func check(_ path: String, progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil)
        throws -> (version: Int, counts: [String: Int]) {
        do {
            let version = try checkSchema(path)
            let problems = try integrityProblems(path, progress: progress)
            guard problems.isEmpty else { throw StoreError(.integrity(problems), path: path) }
            let queue = try open(path)
            defer { try? queue.close() }
            return (version, try StoreBackup.rowCounts(queue).filter { CanonicalTables.all.contains($0.key) })
        } catch let error as DatabaseError {
            throw StoreError(error, path: path, activity: "checking")
        }
    }

    /// What `integrity_check` and `foreign_key_check` find, checked in parts side by side: each
    /// table with its indexes (`integrity_check(table)`: records, NOT NULL, CHECK, index entries),
    /// and `quick_check` for what only a whole-file pass sees (pages in no b-tree, the free
    /// list). Only for a file whose schema is known to be exactly Ferry's.
    static func integrityProblems(_ path: String, progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil) throws -> [String] {
        // The whole-file checks first, then the tables largest first: the threads stay evenly loaded.
        let tables = try open(path).read { try CanonicalTables.largestFirst($0) }
        let checks = ["PRAGMA quick_check", "PRAGMA foreign_key_check"] + tables.map { "PRAGMA integrity_check(\($0.table))" }
        let jobs: [@Sendable () throws -> [String]] = checks.map { check in {
            // quick_check is there for the pages; on a read-only connection it skips the CHECK
            // constraints the table checks evaluate anyway.
            try open(path, readOnly: check == "PRAGMA quick_check").read { db in try problems(check, db: db) }
        } }
        progress?(0, jobs.count)
        return try ParallelJobs.run(jobs, threads: ParallelJobs.defaultThreads, finished: progress).flatMap { $0 }
    }

    private static func problems(_ check: String, db: Database) throws -> [String] {
        guard check == "PRAGMA foreign_key_check" else { return try String.fetchAll(db, sql: check).filter { $0 != "ok" } }
        // Counted as they come: a hostile bundle's file may hold millions of rows that dangle.
        let dangling = try Row.fetchCursor(db, sql: check)
        guard let row = try dangling.next() else { return [] }
        // A cursor's row is reused by the next step: its table name is read now.
        let first = row[0] as String? ?? "?"
        var count = 1
        while try dangling.next() != nil { count += 1 }
        return ["\(count) rows refer to missing rows, first in \(first)"]
    }

    /// A connection for checking: opened for writing unless told, because a read-only
    /// connection's `integrity_check` skips CHECK constraints (SQLite 3.40); writes refused.
    private static func open(_ path: String, readOnly: Bool = false) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = readOnly
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA query_only = ON") }
        // The checks open their connections at the same moment; a WAL-mode file's shared index
        // may be being rebuilt by one of them.
        configuration.busyMode = .timeout(10)
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    /// The schema version, once the schema is exactly what Ferry's migrations make for it. Read
    /// only, with schema-defined functions disabled: nothing the file defines runs before this.
    /// - Parameter immutable: read the main file alone, as SQLite's `immutable=1` does: no
    ///   journal is read and no `-shm` made beside a file that is not Ferry's to touch.
    static func checkSchema(_ path: String, immutable: Bool = false) throws -> Int {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA trusted_schema = OFF") }
        let opened = immutable && CoreDataStoreFile.supportsURIFilenames ? CoreDataStoreFile.immutableURI(path) : path
        let queue = try DatabaseQueue(path: opened, configuration: configuration)
        defer { try? queue.close() }
        let version = try queue.read { try Int.fetchOne($0, sql: "PRAGMA user_version") ?? 0 }
        guard version >= 1 else {
            let tables = try queue.read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name") }
            throw StoreError(.notACanonicalStore(tables.isEmpty ? "it has no Ferry schema version"
                : "it has tables (\(tables.prefix(4).joined(separator: ", "))\(tables.count > 4 ? ", …" : "")) but no Ferry schema version"), path: path)
        }
        guard version <= CanonicalStore.schemaVersion else {
            throw StoreError(.newerSchema(found: version, known: CanonicalStore.schemaVersion), path: path)
        }
        let found = try queue.read(schema)
        let expected = try expectedSchema(version: version)
        if found != expected {
            let extra = found.subtracting(expected).map(\.name).sorted()
            let absent = expected.subtracting(found).map(\.name).sorted()
            throw StoreError(.notACanonicalStore("its schema is not Ferry's schema version \(version)"
                + (extra.isEmpty ? "" : "; not Ferry's: \(extra.prefix(5).joined(separator: ", "))")
                + (absent.isEmpty ? "" : "; missing or changed: \(absent.prefix(5).joined(separator: ", "))")), path: path)
        }
        return version
    }

    struct SchemaObject: Hashable {
        var type: String
        var name: String
        var sql: String?
    }

    static func schema(_ db: Database) throws -> Set<SchemaObject> {
        Set(try Row.fetchAll(db, sql: "SELECT type, name, sql FROM sqlite_master").map { SchemaObject(type: $0[0], name: $0[1], sql: $0[2]) })
    }

    /// The schema Ferry's migrations make, up to `version`, in memory.
    static func expectedSchema(version: Int) throws -> Set<SchemaObject> {
        let queue = try DatabaseQueue()
        try StoreMigrations.migrator.migrate(queue, upTo: StoreMigrations.identifiers[version - 1])
        return try queue.read(schema)
    }
}

