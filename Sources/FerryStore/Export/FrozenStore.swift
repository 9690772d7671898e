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
    /// What stands in the exported rows for `attachment_content`'s bytes: their size and where
    /// the bundle carries them.
    public static let attachmentFields = (byteCount: "byte_count", path: "path")   // the bundle format's own field names
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
    /// - Parameters:
    ///   - csv: when given, the same rows as CSV (``CSVRows``), from the same pass over the table.
    ///   - progress: told of rows read, every 4,096 and at the end.
    public func ndjson(of table: String, chunk: ([UInt8]) throws -> Void, csv: CSVRows? = nil,
                       attachment: (String, UnsafeBufferPointer<UInt8>) throws -> String, progress: ((Int64) -> Void)? = nil) throws -> Int {
        do {
            let queue = try open()
            do {
                return try queue.read { db in
                    try Self.writeRows(of: table, sortedBySQLite: true, db: db, chunk: chunk, csv: csv, attachment: attachment,
                                       progress: progress)
                }
            } catch is NoRoomToSort {
                return try queue.read { db in
                    try Self.writeRows(of: table, sortedBySQLite: false, db: db, chunk: chunk, csv: csv, attachment: attachment,
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

    private static func writeRows(of table: String, sortedBySQLite: Bool, db: Database, chunk: ([UInt8]) throws -> Void, csv: CSVRows?,
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
        var csvWriter = csv.map { _ in CSVWriter(header: names.flatMap { name in
            contentColumn.map { names[$0] } == name ? [attachmentFields.byteCount, attachmentFields.path] : [name]
        }) }
        try keys.bytes.withUnsafeBufferPointer { keyBytes in
            while status != SQLITE_DONE {
                guard status == SQLITE_ROW else {
                    throw DatabaseError(resultCode: ResultCode(rawValue: status), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: sql)
                }
                let rowStart = writer.bytes.count
                let csvRowStart = csvWriter?.rows.count ?? 0
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
                        csvWriter?.integer(Int64(bytes.count), first: column == 0)
                        let shown = csv.map { path.hasPrefix($0.droppedPathPrefix) ? String(path.dropFirst($0.droppedPathPrefix.count)) : path } ?? path
                        csvWriter?.text(Array(shown.utf8), first: false)
                        continue
                    }
                    writer.appendRaw(UnsafeBufferPointer(rebasing: keyBytes[keyRanges[column]]))
                    let first = column == 0
                    switch sqlite3_column_type(statement, index) {
                    case SQLITE_INTEGER:
                        writer.appendInteger(sqlite3_column_int64(statement, index))
                        csvWriter?.integer(sqlite3_column_int64(statement, index), first: first)
                    case SQLITE_FLOAT:
                        writer.appendDouble(sqlite3_column_double(statement, index))
                        csvWriter?.double(sqlite3_column_double(statement, index), first: first)
                    case SQLITE_TEXT:
                        let text = text(statement, index) ?? UnsafeBufferPointer(start: nil, count: 0)
                        writer.appendString(utf8: text)
                        csvWriter?.text(text, first: first)
                    case SQLITE_BLOB:
                        let encoded = blob(statement, index).base64EncodedString()
                        writer.write(.string(encoded))
                        csvWriter?.text(Array(encoded.utf8), first: first)
                    default:
                        writer.appendRaw("null")
                        csvWriter?.null(first: first)
                    }
                }
                writer.appendByte(UInt8(ascii: "}"))
                writer.appendNewline()
                csvWriter?.endRow()
                count += 1
                if let csv {
                    // The NDJSON and the CSV of the same rows, together, at most `chunkBytes` of
                    // NDJSON unless one row is longer: a row that passes the bound starts the next pair.
                    if writer.bytes.count > csv.chunkBytes, rowStart > 0 {
                        let row = Array(writer.bytes[rowStart...])
                        try chunk(Array(writer.bytes[..<rowStart]))
                        try csvWriter?.flush(to: csv, upTo: csvRowStart)
                        writer.reset()
                        row.withUnsafeBufferPointer { writer.appendRaw($0) }
                    } else if writer.bytes.count >= csv.chunkBytes {
                        try chunk(writer.bytes)
                        writer.reset()
                        try csvWriter?.flush(to: csv)
                    }
                } else if writer.bytes.count >= chunkSize {
                    try chunk(writer.bytes)
                    writer.reset()
                }
                if count % 4096 == 0 { progress?(4096) }
                status = sqlite3_step(statement)
            }
        }
        progress?(Int64(count % 4096))
        try chunk(writer.bytes)
        if let csv { try csvWriter?.flush(to: csv) }
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

/// A canonical table as the schema declares it, for describing the exported rows to other tools
/// (a Data Package's Table Schema).
public struct ExportedTable: Sendable, Equatable {
    public struct Column: Sendable, Equatable {
        public var name: String
        /// The declared SQL type (`TEXT`, `INTEGER`, `REAL`, `BLOB`, `ANY`).
        public var type: String
        public var required: Bool
    }

    public struct ForeignKey: Sendable, Equatable {
        public var columns: [String]
        public var table: String
        public var referenced: [String]
    }

    public var name: String
    public var columns: [Column]
    /// The columns that identify a row (its primary key, or its UNIQUE index); empty when none.
    public var key: [String]
    public var foreignKeys: [ForeignKey]
}

extension FrozenStore {
    /// The canonical tables present, by name, with their columns, keys and foreign keys.
    public func exportedTables() throws -> [ExportedTable] {
        do {
            return try open().read { db in
                let present = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
                return try CanonicalTables.all.filter(present.contains).sorted().map { table in
                    let columns = try Row.fetchAll(db, sql: "SELECT name, type, \"notnull\", pk FROM pragma_table_info(?, 'main') ORDER BY cid",
                                                   arguments: [table]).map { row in
                        ExportedTable.Column(name: row["name"], type: (row["type"] as String? ?? "").uppercased(),
                                             required: (row["notnull"] as Int? ?? 0) != 0 || (row["pk"] as Int? ?? 0) != 0)
                    }
                    var keys: [Int: ExportedTable.ForeignKey] = [:]
                    for row in try Row.fetchAll(db, sql: "SELECT id, seq, \"table\", \"from\", \"to\" FROM pragma_foreign_key_list(?, 'main') ORDER BY id, seq",
                                                arguments: [table]) {
                        let id: Int = row["id"]
                        var key = keys[id] ?? ExportedTable.ForeignKey(columns: [], table: row["table"], referenced: [])
                        key.columns.append(row["from"])
                        key.referenced.append(row["to"])
                        keys[id] = key
                    }
                    return ExportedTable(name: table, columns: columns, key: try CanonicalTables.key(of: table, db: db),
                                         foreignKeys: keys.sorted { $0.key < $1.key }.map(\.value))
                }
            }
        } catch let error as DatabaseError {
            throw StoreError(.database(error.message ?? "\(error.resultCode)"), path: store, activity: "reading the schema")
        }
    }
}
