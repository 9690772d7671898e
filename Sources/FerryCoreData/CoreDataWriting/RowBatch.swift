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

/// Writes batches on one connection. Rows that follow one another by the same statement go in
/// ``rowsAtOnce`` at a time, by one statement of that many `VALUES` rows: SQLite's work to start
/// and end a statement was paid per row (a million rows of 20 columns and 4 indexes, in C: 6.2–7.1 s
/// one by one, 4.3–4.6 s 32 at a time; `Formats/performance.md` has `load`'s figures).
struct RowBatchPlayer {
    /// A row SQLite refused: its entry, and SQLite's message.
    struct Refused: Error {
        var entry: Int
        var message: String
    }

    static let rowsAtOnce = 32

    private let sql: [String]
    private var prepared: [Statement?]
    private var preparedMany: [Statement?]

    /// - Parameter sql: the statements rows go in by, by number, each `INSERT … VALUES (…)` of one row.
    init(sql: [String]) {
        self.sql = sql
        prepared = sql.map { _ in nil }
        preparedMany = sql.map { _ in nil }
    }

    /// - Throws: ``Refused`` for a row SQLite refuses (the rows after it are not written).
    mutating func play(_ batch: RowBatch, db: Database) throws {
        let rows = batch.rows
        guard let connection = db.sqliteConnection else { throw DatabaseError(message: "the store's connection is closed") }
        func refused(_ row: Int) -> Refused { Refused(entry: rows[row].entry, message: String(cString: sqlite3_errmsg(connection))) }
        try batch.bytes.withUnsafeBufferPointer { bytes in
            var index = 0, start = 0
            // Rows to go one at a time: those of a run of rows whose statement SQLite refused.
            var oneByOne = 0
            while index < rows.count {
                let number = rows[index].statement
                if oneByOne == 0, index + Self.rowsAtOnce <= rows.count,
                   rows[index..<index + Self.rowsAtOnce].allSatisfy({ $0.statement == number }),
                   let statement = try many(number, columns: rows[index].end - start, db: db) {
                    let end = rows[index + Self.rowsAtOnce - 1].end
                    let inTransaction = sqlite3_get_autocommit(connection) == 0
                    if step(statement, batch.values[start..<end], bytes) == SQLITE_DONE {
                        (index, start) = (index + Self.rowsAtOnce, end)
                        continue
                    }
                    // An error that ended the transaction (a full disk, an I/O error) took what it
                    // wrote with it: nothing to try again, and no row of the 32 to blame.
                    if inTransaction, sqlite3_get_autocommit(connection) != 0 { throw refused(index) }
                    // The statement left nothing: one row at a time names the row.
                    oneByOne = Self.rowsAtOnce
                }
                let statement = try one(number, db: db)
                guard step(statement, batch.values[start..<rows[index].end], bytes) == SQLITE_DONE else { throw refused(index) }
                (index, start) = (index + 1, rows[index].end)
                oneByOne = max(0, oneByOne - 1)
            }
        }
    }

    /// Binds and runs `statement` once; returns SQLite's code.
    private func step(_ statement: SQLiteStatement, _ values: ArraySlice<BoundValue>, _ bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
        var code = BoundValue.bind(values, from: bytes, to: statement)
        if code == SQLITE_OK { code = sqlite3_step(statement) }
        // Reset while the bytes are still bound; the next run binds every parameter anew.
        sqlite3_reset(statement)
        return code
    }

    private mutating func one(_ number: Int, db: Database) throws -> SQLiteStatement {
        try Self.cached(&prepared[number]) { try db.makeStatement(sql: sql[number]) }
    }

    private static func cached(_ slot: inout Statement?, _ make: () throws -> Statement) rethrows -> SQLiteStatement {
        if let slot { return slot.sqliteStatement }
        let made = try make()
        slot = made
        return made.sqliteStatement
    }

    /// Nil where that many rows' values are more parameters than SQLite takes in one statement.
    private mutating func many(_ number: Int, columns: Int, db: Database) throws -> SQLiteStatement? {
        if let known = preparedMany[number] { return known.sqliteStatement }
        guard let connection = db.sqliteConnection, columns * Self.rowsAtOnce <= sqlite3_limit(connection, SQLITE_LIMIT_VARIABLE_NUMBER, -1) else { return nil }
        let row = "(" + Array(repeating: "?", count: columns).joined(separator: ", ") + ")"
        return try Self.cached(&preparedMany[number]) { try db.makeStatement(sql: sql[number] + String(repeating: ", " + row, count: Self.rowsAtOnce - 1)) }
    }
}
