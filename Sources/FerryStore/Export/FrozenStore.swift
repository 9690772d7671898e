import FerryJSON
import Foundation
import GRDB
import GRDBSQLite

/// A frozen copy of a store (taken under SQLite's read lock, private to the export), read for
/// export: each canonical table as NDJSON, one object per row in
/// key order with the columns in table order. Read-only; several may read one file side by side.
///
/// Rows go from SQLite's column bytes straight into JSON text, without a `Row` or a
/// `JSONValue` per value: at a million logs that is most of an export's work.
public struct FrozenStore: Sendable {
    public let path: String
    /// The store the copy was taken of, which errors name (the copy is private).
    public let store: String
    /// Rows are handed over in chunks of about this many bytes.
    private static let chunkSize = 256 * 1024

    public init(path: String, of store: String) {
        self.path = path
        self.store = store
    }

    /// The greatest text of `column` in any of `tables` that has it (SQLite compares TEXT as
    /// bytes, as ISO 8601 times sort), or nil when none holds one.
    public func newest(_ column: String, in tables: [String]) throws -> String? {
        do {
            return try open().read { db in
                var newest: String?
                for table in tables where try db.tableExists(table) && db.columns(in: table).contains(where: { $0.name == column }) {
                    let sql = "SELECT max(\"\(column)\") FROM \(table) WHERE typeof(\"\(column)\") = 'text'"
                    guard let value = try String.fetchOne(db, sql: sql) else { continue }
                    if newest.map({ $0.utf8.lexicographicallyPrecedes(value.utf8) }) ?? true { newest = value }
                }
                return newest
            }
        } catch let error as DatabaseError {
            throw StoreError(.database(error.message ?? "\(error.resultCode)"), path: store, activity: "reading \(column)")
        }
    }

    /// The canonical tables present, largest first, and the schema version.
    public func tablesLargestFirst() throws -> (tables: [(table: String, rows: Int)], schemaVersion: Int) {
        do {
            return try open().read { db in
                (try CanonicalTables.largestFirst(db), try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0)
            }
        } catch let error as DatabaseError {
            throw StoreError(.database(error.message ?? "\(error.resultCode)"), path: store, activity: "reading the tables")
        }
    }

    /// Writes `table`'s rows as NDJSON through `chunk`. An `attachment_content` row's bytes go
    /// to `attachment` (its `sha256` column's text and SQLite's bytes, valid during the call),
    /// which returns the path that stands in the row instead, beside `byte_count`.
    /// Chunks end at a row's end. Returns the number of rows.
    /// - Parameter progress: told of rows read, every 4,096 and at the end.
    public func ndjson(of table: String, chunk: ([UInt8]) throws -> Void,
                       attachment: (String, UnsafeBufferPointer<UInt8>) throws -> String, progress: ((Int64) -> Void)? = nil) throws -> Int {
        do {
            let queue = try open()
            do {
                return try queue.read { db in
                    try Self.writeRows(of: table, sortedBySQLite: true, db: db, chunk: chunk, attachment: attachment,
                                       progress: progress)
                }
            } catch is NoRoomToSort {
                return try queue.read { db in
                    try Self.writeRows(of: table, sortedBySQLite: false, db: db, chunk: chunk, attachment: attachment,
                                       progress: progress)
                }
            }
        } catch let error as DatabaseError {
            throw StoreError(.database(error.message ?? "\(error.resultCode)"), path: store, activity: "reading \(table)")
        }
    }

    private func open() throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        // Readers open their connections side by side: a moment's lock is waited out, not an error.
        configuration.busyMode = .timeout(10)
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    /// SQLite's temporary folder had no room to sort the table; nothing was handed over.
    private struct NoRoomToSort: Error {}

    private static func writeRows(of table: String, sortedBySQLite: Bool, db: Database, chunk: ([UInt8]) throws -> Void,
                                  attachment: (String, UnsafeBufferPointer<UInt8>) throws -> String, progress: ((Int64) -> Void)?) throws -> Int {
        var count = 0
        let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))")
        let names: [String] = columns.map { $0["name"] }
        let key = try CanonicalTables.key(of: table, db: db)
        // `+` keeps SQLite from walking the key's index, which visits the rows in random page
        // order; it scans the table in storage order and sorts instead, spilling to temporary
        // files. Same order: the key's BINARY collation. Without room for that in SQLite's
        // temporary folder, the key's index is walked instead: slower, and it needs no space.
        let order = key.isEmpty ? "rowid" : key.map { "\(sortedBySQLite ? "+" : "")\"\($0)\"" }.joined(separator: ", ")
        let sql = "SELECT * FROM \(table) ORDER BY \(order)"
        // GRDB finalizes the statement when `prepared` goes away: it is kept until the last row.
        let prepared = try db.makeStatement(sql: sql)
        defer { withExtendedLifetime(prepared) {} }
        let statement = prepared.sqliteStatement
        var status = sqlite3_step(statement)
        // The sorter takes in every row before the first comes out: nothing is handed over yet.
        if status & 0xFF == SQLITE_FULL, sortedBySQLite, !key.isEmpty { throw NoRoomToSort() }
        // `"name":` of each column, with the comma before every one but the first, in one buffer.
        var keys = JSONWriter()
        var keyRanges: [Range<Int>] = []
        for (index, name) in names.enumerated() {
            let start = keys.bytes.count
            if index > 0 { keys.appendByte(UInt8(ascii: ",")) }
            keys.write(.string(name))
            keys.appendByte(UInt8(ascii: ":"))
            keyRanges.append(start..<keys.bytes.count)
        }
        let contentColumn = table == "attachment_content" ? names.firstIndex(of: "data") : nil
        let hashColumn = names.firstIndex(of: "sha256")
        var writer = JSONWriter(sortedKeys: false)
        try keys.bytes.withUnsafeBufferPointer { keyBytes in
            while status != SQLITE_DONE {
                guard status == SQLITE_ROW else {
                    throw DatabaseError(resultCode: ResultCode(rawValue: status), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: sql)
                }
                writer.appendByte(UInt8(ascii: "{"))
                for column in 0..<names.count {
                    let index = Int32(column)
                    if column == contentColumn, sqlite3_column_type(statement, index) == SQLITE_BLOB, let hashColumn {
                        let expected = text(statement, Int32(hashColumn)).map { String(decoding: $0, as: UTF8.self) } ?? ""
                        let bytes = UnsafeBufferPointer(start: sqlite3_column_blob(statement, index)?.assumingMemoryBound(to: UInt8.self),
                                                        count: Int(sqlite3_column_bytes(statement, index)))
                        let path = try attachment(expected, bytes)
                        writer.appendRaw(column > 0 ? ",\"byte_count\":" : "\"byte_count\":")   // the bundle format's own field names
                        writer.appendInteger(Int64(bytes.count))
                        writer.appendRaw(",\"path\":")
                        writer.write(.string(path))
                        continue
                    }
                    writer.appendRaw(UnsafeBufferPointer(rebasing: keyBytes[keyRanges[column]]))
                    switch sqlite3_column_type(statement, index) {
                    case SQLITE_INTEGER: writer.appendInteger(sqlite3_column_int64(statement, index))
                    case SQLITE_FLOAT: writer.appendDouble(sqlite3_column_double(statement, index))
                    case SQLITE_TEXT:
                        let text = text(statement, index) ?? UnsafeBufferPointer(start: nil, count: 0)
                        writer.appendString(utf8: text)
                    case SQLITE_BLOB: writer.write(.string(blob(statement, index).base64EncodedString()))
                    default: writer.appendRaw("null")
                    }
                }
                writer.appendByte(UInt8(ascii: "}"))
                writer.appendNewline()
                count += 1
                if writer.bytes.count >= chunkSize {
                    try chunk(writer.bytes)
                    writer.reset()
                }
                if count % 4096 == 0 { progress?(4096) }
                status = sqlite3_step(statement)
            }
        }
        progress?(Int64(count % 4096))
        try chunk(writer.bytes)
        return count
    }

    /// A text column's bytes, valid until the statement moves on.
    private static func text(_ statement: OpaquePointer, _ index: Int32) -> UnsafeBufferPointer<UInt8>? {
        guard let pointer = sqlite3_column_text(statement, index) else { return nil }
        return UnsafeBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(statement, index)))
    }

    private static func blob(_ statement: OpaquePointer, _ index: Int32) -> Data {
        guard let pointer = sqlite3_column_blob(statement, index) else { return Data() }
        return Data(bytes: pointer, count: Int(sqlite3_column_bytes(statement, index)))
    }
}
