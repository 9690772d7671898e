import Foundation
import GRDB
import GRDBSQLite

extension FrozenStore {
    /// Runs `body` with one read-only connection to the frozen copy, for a reader that asks many
    /// queries of the canonical schema (the bundle's view). Errors name the store, not the copy.
    public func session<Result>(_ activity: String, _ body: (FrozenStoreSession) throws -> Result) throws -> Result {
        do {
            var configuration = Configuration()
            configuration.readonly = true
            configuration.busyMode = .timeout(10)
            // No mapped pages: they made the store's pages count as the process's memory (600 MB
            // at a million logs) and saved nothing where logs are kept in about time order.
            return try DatabaseQueue(path: path, configuration: configuration).read { db in try body(FrozenStoreSession(db: db)) }
        } catch let error as DatabaseError {
            throw StoreError(.database(error.message ?? "\(error.resultCode)"), path: store, activity: activity)
        }
    }
}

/// Queries of one read-only connection to a frozen copy; rows are handed over one at a time, their
/// values read straight from SQLite's column buffers.
public struct FrozenStoreSession {
    let db: Database

    /// Steps through the rows of `sql` (text arguments bound in order), calling `row` for each.
    public func select(_ sql: String, _ arguments: [String] = [], row: (FrozenStoreRow) throws -> Void) throws {
        try prepare(sql).select(arguments, row: row)
    }

    /// A statement to run many times, for a lookup per row of another query.
    public func prepare(_ sql: String) throws -> FrozenStoreStatement {
        FrozenStoreStatement(db: db, prepared: try db.makeStatement(sql: sql))
    }

    /// The rows of `sql` one at a time, for a loop that keeps its state in plain local
    /// variables (a million logs: no closure, no captured state to check on each access).
    public func cursor(_ sql: String) throws -> FrozenStoreCursor {
        FrozenStoreCursor(db: db, prepared: try db.makeStatement(sql: sql))
    }

    /// The first column of the first row, as an integer (0 when there is none).
    public func count(_ sql: String, _ arguments: [String] = []) throws -> Int {
        var result = 0
        try select(sql, arguments) { result = Int($0.integer(0) ?? 0) }
        return result
    }

    /// Every row as text values (numbers written as ``FrozenStoreRow/text(_:)`` writes them).
    public func texts(_ sql: String, _ arguments: [String] = []) throws -> [[String?]] {
        var rows: [[String?]] = []
        try select(sql, arguments) { row in rows.append((0..<row.columnCount).map { row.text($0) }) }
        return rows
    }
}

/// A prepared query of a ``FrozenStoreSession``.
public struct FrozenStoreStatement {
    let db: Database
    let prepared: Statement

    public func select(_ arguments: [String] = [], row: (FrozenStoreRow) throws -> Void) throws {
        try prepared.setArguments(StatementArguments(arguments))
        let statement = prepared.sqliteStatement
        defer { sqlite3_reset(statement) }
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return }
            guard status == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: status), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                                    sql: prepared.sql)
            }
            try row(FrozenStoreRow(statement: statement))
        }
    }
}

/// Rows of one query, stepped by ``next()``.
public struct FrozenStoreCursor {
    let db: Database
    let prepared: Statement

    /// The next row, valid until the next call; nil after the last.
    public func next() throws -> FrozenStoreRow? {
        let statement = prepared.sqliteStatement
        let status = sqlite3_step(statement)
        if status == SQLITE_DONE { return nil }
        guard status == SQLITE_ROW else {
            throw DatabaseError(resultCode: ResultCode(rawValue: status), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: prepared.sql)
        }
        return FrozenStoreRow(statement: statement)
    }
}

/// The current row of a ``FrozenStoreSession`` query: valid only inside the closure it is handed to.
public struct FrozenStoreRow {
    @usableFromInline let statement: OpaquePointer

    @usableFromInline init(statement: OpaquePointer) {
        self.statement = statement
    }

    public var columnCount: Int { Int(sqlite3_column_count(statement)) }

    @inlinable public func isNull(_ column: Int) -> Bool { sqlite3_column_type(statement, Int32(column)) == SQLITE_NULL }

    @inlinable public func integer(_ column: Int) -> Int64? {
        isNull(column) ? nil : sqlite3_column_int64(statement, Int32(column))
    }

    /// The value as a person reads it: text as stored, a whole REAL without its `.0`, a blob as
    /// its size; nil for NULL.
    public func text(_ column: Int) -> String? {
        let index = Int32(column)
        switch sqlite3_column_type(statement, index) {
        case SQLITE_NULL: return nil
        case SQLITE_INTEGER: return String(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT: return Self.number(sqlite3_column_double(statement, index))
        case SQLITE_BLOB: return "\(sqlite3_column_bytes(statement, index)) bytes"
        default: return withBytes(column) { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// A TEXT value's UTF-8 bytes, valid inside `body` only; nil for any other type.
    @inlinable public func withBytes<Result>(_ column: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result? {
        let index = Int32(column)
        guard sqlite3_column_type(statement, index) == SQLITE_TEXT, let pointer = sqlite3_column_text(statement, index) else { return nil }
        return try body(UnsafeBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(statement, index))))
    }

    /// A BLOB value's bytes, valid inside `body` only; nil for any other type.
    public func withBlob<Result>(_ column: Int, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result? {
        let index = Int32(column)
        guard sqlite3_column_type(statement, index) == SQLITE_BLOB else { return nil }
        return try body(UnsafeRawBufferPointer(start: sqlite3_column_blob(statement, index), count: Int(sqlite3_column_bytes(statement, index))))
    }

    /// A value's text as SQLite gives it (an INTEGER in decimal), nil for NULL; valid until the
    /// row moves on. Two calls into SQLite where ``withBytes(_:_:)`` takes three: for a loop that
    /// reads a dozen columns of a million rows.
    @inlinable public func shown(_ column: Int) -> UnsafeBufferPointer<UInt8>? {
        guard let pointer = sqlite3_column_text(statement, Int32(column)) else { return nil }
        return UnsafeBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(statement, Int32(column))))
    }

    /// `94` for 94.0, `13.5` for 13.5: the shortest text that reads back as the same double.
    public static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}
