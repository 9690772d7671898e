import Foundation
import GRDB
import GRDBSQLite

/// Rows made on one thread and written on another, each value ready to bind: text and blobs as
/// bytes of one buffer. Writing binds them where they lie, through SQLite's C API (GRDB's
/// `StatementArguments` boxed each value first: a sixth of `load`'s time), and the strings read
/// are freed on the thread that made them.
struct RowBatch: Sendable {
    typealias Value = BoundValue

    struct Row: Sendable {
        /// The statement the row goes in by, and the record's entry in the dump's index.
        var statement: Int
        var entry: Int
        /// Where its values end in ``values``; they start where the row before ended.
        var end: Int
    }

    var bytes: [UInt8] = []
    var values: [Value] = []
    var rows: [Row] = []

    /// Starts a row of `columns` values, all NULL; returns where they start in ``values``.
    mutating func begin(entry: Int, statement: Int, columns: Int) -> Int {
        let start = values.count
        values.append(contentsOf: repeatElement(.null, count: columns))
        rows.append(Row(statement: statement, entry: entry, end: values.count))
        return start
    }

    /// Sets the value at `position` to a cell, copying its text or bytes into the buffer.
    mutating func set(_ position: Int, _ cell: CoreDataCell) {
        switch cell {
        case .null: values[position] = .null
        case .integer(let integer): values[position] = .integer(integer)
        case .real(let real): values[position] = .real(real)
        case .text(var text):
            let start = bytes.count
            text.withUTF8 { bytes.append(contentsOf: $0) }
            values[position] = .text(start: start, count: bytes.count - start)
        case .blob(let data):
            let start = bytes.count
            bytes.append(contentsOf: data)
            values[position] = .blob(start: start, count: data.count)
        }
    }

    /// Forgets every row, keeping the buffers as large as they have grown.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        rows.removeAll(keepingCapacity: true)
    }
}

/// Writes batches on one connection, each row by its prepared statement, one step each.
struct RowBatchPlayer {
    /// A row SQLite refused: its entry, and SQLite's message.
    struct Refused: Error {
        var entry: Int
        var message: String
    }

    private let sql: [String]
    private var prepared: [Statement?]

    /// - Parameter sql: the statements rows go in by, by number.
    init(sql: [String]) {
        self.sql = sql
        prepared = sql.map { _ in nil }
    }

    /// - Throws: ``Refused`` for a row SQLite refuses (the rows after it are not written).
    mutating func play(_ batch: RowBatch, db: Database) throws {
        var start = 0
        try batch.bytes.withUnsafeBufferPointer { bytes in
            for row in batch.rows {
                defer { start = row.end }
                if prepared[row.statement] == nil { prepared[row.statement] = try db.makeStatement(sql: sql[row.statement]) }
                guard let statement = prepared[row.statement]?.sqliteStatement else { continue }
                var code = BoundValue.bind(batch.values[start..<row.end], from: bytes, to: statement)
                if code == SQLITE_OK { code = sqlite3_step(statement) }
                // Reset while the bytes are still bound; the next row binds every column anew.
                sqlite3_reset(statement)
                guard code == SQLITE_DONE else {
                    throw Refused(entry: row.entry, message: db.sqliteConnection.map { String(cString: sqlite3_errmsg($0)) } ?? "SQLite error \(code)")
                }
            }
        }
    }
}
