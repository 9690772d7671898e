import FerryCoreData
import Foundation
import GRDB

/// A canonical store read row by row, for writers that map its records into another model
/// (the apps' own Core Data models): each table in `rowid` order, values as SQLite holds them.
public final class CanonicalRows {
    public let path: String
    private let queue: DatabaseQueue

    public init(path: String) throws {
        self.path = path
        var configuration = Configuration()
        configuration.readonly = true
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
        } catch {
            throw StoreError(.database("\(error)"), path: path)
        }
    }

    deinit { try? queue.close() }

    /// One row: its table, `rowid` and columns by name.
    public struct Row: Sendable {
        public let table: String
        public let rowid: Int64
        public let values: [String: CoreDataCell]

        package subscript(_ column: CanonicalColumn) -> CoreDataCell { values[column.name] ?? .null }

        /// A text column's value, nil when it is null or not text.
        package func text(_ column: CanonicalColumn) -> String? {
            if case .text(let value) = self[column] { return value }
            return nil
        }
    }

    /// Calls `body` with each row of `table` (those whose `column` is one of `values`, when given)
    /// in `rowid` order.
    package func each(_ table: String, where column: CanonicalColumn? = nil, isOneOf values: [String] = [], _ body: (Row) throws -> Void) throws {
        var sql = "SELECT rowid AS \"__rowid\", * FROM \"\(table)\""
        if let column { sql += " WHERE \"\(column.name)\" IN (\(values.map { _ in "?" }.joined(separator: ", ")))" }
        sql += " ORDER BY rowid"
        try read { db in
            let cursor = try GRDB.Row.fetchCursor(db, sql: sql, arguments: StatementArguments(values))
            while let row = try cursor.next() {
                var cells: [String: CoreDataCell] = [:]
                for (name, value) in row where name != "__rowid" { cells[name] = CoreDataCell(value) }
                try body(Row(table: table, rowid: row["__rowid"], values: cells))
            }
        }
    }

    /// The bytes of an attachment's content, by its `sha256`.
    public func attachmentData(sha256: String) throws -> Data? {
        try read { db in try Data.fetchOne(db, sql: "SELECT \(AttachmentContentTable.data) FROM \(AttachmentContentTable.table) WHERE \(AttachmentContentTable.sha256) = ?", arguments: [sha256]) }
    }

    private func read<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try queue.read(body)
        } catch let error as DatabaseError {
            throw StoreError(.database(error.message ?? "\(error)"), path: path)
        }
    }
}
