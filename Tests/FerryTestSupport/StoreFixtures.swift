import Foundation
import GRDB

/// Small operations on canonical stores and folders that several test targets need.
public enum StoreFixtures {
    /// Adds `count` copies of the store's first log, with new ids, so that work on the store takes measurable time.
    public static func inflate(_ path: String, logs count: Int) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(log)").map { $0["name"] as String }
            let others = columns.filter { $0 != "id" }.map { "\"\($0)\"" }.joined(separator: ", ")
            let first = try String.fetchOne(db, sql: "SELECT id FROM log ORDER BY id LIMIT 1")!
            let statement = try db.makeStatement(sql: "INSERT INTO log (id, \(others)) SELECT ?, \(others) FROM log WHERE id = ?")
            for number in 0..<count {
                let id = String(format: "%08X-0000-4000-8000-%012X", number, number)
                try statement.execute(arguments: [id, first])
            }
        }
        try queue.close()
    }

    /// `PRAGMA integrity_check` findings; empty when the file is a sound SQLite database.
    public static func integrityProblems(_ path: String) throws -> [String] {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") }.filter { $0 != "ok" }
    }

    /// The first column of a query's rows, as text (NULL as "NULL").
    public static func strings(_ path: String, _ sql: String) throws -> [String] {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in try Row.fetchAll(db, sql: sql).map { row in row[0].map { "\($0)" } ?? "NULL" } }
    }

    /// Files and folders under a folder, relative, sorted.
    public static func listing(_ folder: String) -> [String] {
        (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).sorted()
    }
}
