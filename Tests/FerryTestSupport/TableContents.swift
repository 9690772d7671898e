import Foundation
import GRDB

/// Every row of every table of an SQLite file, as text, in a stable order: for comparing two
/// stores, or a store before and after something that must not change it.
public struct TableContents: Equatable, CustomStringConvertible {
    public var tables: [String: [[String]]]

    public init(path: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        tables = try queue.read { db in
            var result: [String: [[String]]] = [:]
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name") {
                let rows = try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\"")
                result[table] = rows.map { row in row.databaseValues.map { value in
                    switch value.storage {
                    case .null: return "NULL"
                    case .int64(let number): return "i:\(number)"
                    case .double(let number): return "d:\(number)"
                    case .string(let text): return "s:\(text)"
                    case .blob(let data): return "b:\(data.base64EncodedString())"
                    }
                } }.sorted { $0.lexicographicallyPrecedes($1) }
            }
            return result
        }
        try queue.close()
    }

    /// The same without Ferry's own tables (`ferry_…`: the record digests and their stamp, which
    /// moves with every commit): the canonical rows, and GRDB's migrations.
    public var withoutFerrysOwnTables: TableContents {
        var copy = self
        copy.tables = tables.filter { !$0.key.hasPrefix("ferry_") }
        return copy
    }

    public var description: String {
        tables.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.count) rows" }.joined(separator: ", ")
    }

    /// The rows that differ, per table, for failure messages.
    public func differences(from other: TableContents) -> [String] {
        var result: [String] = []
        for table in Set(tables.keys).union(other.tables.keys).sorted() {
            let mine = tables[table] ?? [], theirs = other.tables[table] ?? []
            if mine != theirs {
                let removed = mine.filter { !theirs.contains($0) }.prefix(2).map { $0.joined(separator: "|") }
                let added = theirs.filter { !mine.contains($0) }.prefix(2).map { $0.joined(separator: "|") }
                result.append("\(table): -\(removed) +\(added)")
            }
        }
        return result
    }
}

/// The bytes of every file under a folder, for proving that inputs were not modified.
public enum FileBytes {
    public static func snapshot(under directory: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for path in TestPaths.files(under: directory, where: { _ in true }) {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                result[path] = try Data(contentsOf: URL(fileURLWithPath: path))
            }
        }
        return result
    }
}
