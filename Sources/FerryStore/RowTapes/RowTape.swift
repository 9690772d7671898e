import FerryCanonical
import FerryCoreData
import FerryJSON
import Foundation
import GRDB
import GRDBSQLite

/// Rows taken in the order they are to be written, their values ready to bind, played into
/// their statements later (``RowPlayer``). Taking a row is Swift work (text, JSON, the schema's
/// checks); playing it is SQLite's. Apart, the two can run on two threads: a conversion into a
/// new store takes its logs' rows on one while the store's thread plays the batch before.
struct RowTape {
    typealias Value = BoundValue

    struct Row {
        let shape: UpsertShape
        /// Where the row's values end in ``RowTape/values``; they start where the row before ended.
        let end: Int
        /// The first value that breaks its column's CHECK: the row fails when played.
        let violation: String?
        /// The row's record in ``RowTape/records``, named in an error; -1 for a row of no record.
        let record: Int
    }

    var bytes: [UInt8] = []
    var values: [Value] = []
    var rows: [Row] = []
    /// The records whose rows these are.
    var records: [SourceRef] = []
    /// Writes the JSON columns into ``bytes``; kept, with the key orders it has learnt, from one
    /// row to the next.
    var json = JSONWriter()

    var isEmpty: Bool { rows.isEmpty }

    /// The rows taken from now on are `source`'s.
    mutating func begin(_ source: SourceRef) {
        records.append(source)
    }

    /// Where the tape ends now: the rows taken after it are one record's (``digest(since:)``).
    struct Mark {
        fileprivate let bytes, values, rows, records: Int
    }

    var mark: Mark { Mark(bytes: bytes.count, values: values.count, rows: rows.count, records: records.count) }

    /// Forgets the rows taken since `mark`: a record found in the store as it is.
    mutating func rewind(to mark: Mark) {
        bytes.removeSubrange(mark.bytes...)
        values.removeSubrange(mark.values...)
        rows.removeSubrange(mark.rows...)
        records.removeSubrange(mark.records...)
    }

    /// A digest of the rows taken since `mark`: their tables and columns, and every value, bit
    /// for bit. The same record converted again gives the same digest on any machine.
    func digest(since mark: Mark) -> Int64 {
        var hasher = RowDigestHasher()
        for row in rows[mark.rows...] { hasher.combine(row.shape.digestSeed) }
        for value in values[mark.values...] {
            switch value {
            case .null: hasher.combine(0)
            case .integer(let integer): hasher.combine(1); hasher.combine(UInt64(bitPattern: integer))
            case .real(let real): hasher.combine(2); hasher.combine(real.bitPattern)
            case .text(_, let count): hasher.combine(3); hasher.combine(UInt64(count))
            case .blob(_, let count): hasher.combine(4); hasher.combine(UInt64(count))
            }
        }
        bytes.withUnsafeBufferPointer { hasher.combine(bytes: UnsafeBufferPointer(rebasing: $0[mark.bytes...])) }
        return Int64(bitPattern: hasher.finalize())
    }

    /// Forgets every row, keeping the buffers as large as they have grown.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        rows.removeAll(keepingCapacity: true)
        records.removeAll(keepingCapacity: true)
    }
}

/// Plays tapes on one connection: each row's prepared statement (by shape), its values bound
/// straight through SQLite's C API, one step.
struct RowPlayer {
    private var prepared: [ObjectIdentifier: Statement] = [:]
    /// The record of the row that failed in the last play, if one did.
    private(set) var failedRecord: SourceRef?

    /// SQLite's `SQLITE_TRANSIENT`: it copies the bytes bound before the call returns.
    static let transient = BoundValue.transient

    /// Runs every row of `tape` in order and empties it.
    /// - Throws: `DatabaseError` naming the table and SQLite's message (a constraint, a full
    ///   disk) or the CHECK a value breaks; the rows after the failing one are not run.
    mutating func play(_ tape: inout RowTape, db: Database) throws {
        defer { tape.removeAll() }
        failedRecord = nil
        var start = 0
        try tape.bytes.withUnsafeBufferPointer { bytes in
            for row in tape.rows {
                defer { start = row.end }
                let statement = try statement(row.shape, db: db)
                var code = row.violation == nil ? SQLITE_OK : SQLITE_CONSTRAINT
                if code == SQLITE_OK {
                    code = BoundValue.bind(tape.values[start..<row.end], from: bytes, to: statement)
                }
                if code == SQLITE_OK { code = sqlite3_step(statement) }
                // Reset while the bytes are still bound; the next row binds every column anew.
                sqlite3_reset(statement)
                guard code == SQLITE_DONE else {
                    failedRecord = row.record >= 0 ? tape.records[row.record] : nil
                    let message = row.violation ?? db.sqliteConnection.map { String(cString: sqlite3_errmsg($0)) }
                    throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: row.shape.sql)
                }
            }
        }
    }

    private mutating func statement(_ shape: UpsertShape, db: Database) throws -> SQLiteStatement {
        if let known = prepared[ObjectIdentifier(shape)] { return known.sqliteStatement }
        let statement = try db.makeStatement(sql: shape.sql)
        prepared[ObjectIdentifier(shape)] = statement
        return statement.sqliteStatement
    }
}
