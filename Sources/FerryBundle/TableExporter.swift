import FerryJSON
import FerryStore
import Foundation
import GRDB
import GRDBSQLite

/// Writes each canonical table of a store snapshot as NDJSON, one object per row in primary-key
/// order with the columns in table order; attachment bytes go to content-addressed files.
///
/// Rows go from SQLite's column bytes straight into JSON text, without a `Row` or a
/// `JSONValue` per value: at a million logs that is most of an export's work.
struct TableExporter: Sendable {
    let database: DatabaseQueue
    let staging: StagingFolder
    let progress: ProgressTally?
    /// Rows are handed to the file in chunks of about this many bytes.
    private static let chunkSize = 256 * 1024

    init(database: DatabaseQueue, staging: StagingFolder, progress: ProgressTally? = nil) {
        self.database = database
        self.staging = staging
        self.progress = progress
    }

    /// One table's file: its row count, every payload file written (relative path → digest):
    /// the table's NDJSON, and for `attachment_content` each attachment; and for recipes,
    /// projects and logs the newest `modified_at`.
    func export(_ table: String) throws -> TableFile {
        do {
            return try export(table, sortedBySQLite: true)
        } catch is NoRoomToSort {
            unlink(staging.file(BundleLayout.tableFile(table)))
            return try export(table, sortedBySQLite: false)
        }
    }

    /// SQLite's temporary folder had no room to sort the table; nothing was written.
    private struct NoRoomToSort: Error {}

    private func export(_ table: String, sortedBySQLite: Bool) throws -> TableFile {
        var result = TableFile()
        let relative = BundleLayout.tableFile(table)
        let file = try HashingFileWriter(path: staging.file(relative))
        try database.read { db in try writeRows(of: table, sortedBySQLite: sortedBySQLite, db: db, to: file, into: &result) }
        result.files[relative] = try file.finish()
        return result
    }

    private func writeRows(of table: String, sortedBySQLite: Bool, db: Database, to file: HashingFileWriter, into result: inout TableFile) throws {
        let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))")
        let names: [String] = columns.map { $0["name"] }
        let key = try CanonicalTables.key(of: table, db: db)
        // `+` keeps SQLite from walking the key's index, which visits the rows in random page
        // order (a read per row at a million logs); it scans the table in storage order and
        // sorts instead, spilling to temporary files. Same order: the key's BINARY collation.
        // Without room for that in SQLite's temporary folder, the key's index is walked instead:
        // slower, and it needs no space.
        let order = key.isEmpty ? "rowid" : key.map { "\(sortedBySQLite ? "+" : "")\"\($0)\"" }.joined(separator: ", ")
        let sql = "SELECT * FROM \(table) ORDER BY \(order)"
        // GRDB finalizes the statement when `prepared` goes away: it is kept until the last row.
        let prepared = try db.makeStatement(sql: sql)
        defer { withExtendedLifetime(prepared) {} }
        let statement = prepared.sqliteStatement
        var status = sqlite3_step(statement)
        // The sorter takes in every row before the first comes out: nothing is written yet.
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
        let modifiedColumn = TableFile.dated.contains(table) ? names.firstIndex(of: "modified_at").map { Int32($0) } : nil
        var newest: [UInt8] = []
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
                        let expected = Self.text(statement, Int32(hashColumn)).map { String(decoding: $0, as: UTF8.self) } ?? ""
                        let data = Self.blob(statement, index)
                        let digest = try writeAttachment(data, expected: expected, attachments: &result.files)
                        writer.appendRaw(column > 0 ? ",\"byte_count\":" : "\"byte_count\":")
                        writer.appendInteger(Int64(data.count))
                        writer.appendRaw(",\"path\":")
                        writer.write(.string(BundleLayout.attachmentFile(digest.sha256)))
                        continue
                    }
                    writer.appendRaw(UnsafeBufferPointer(rebasing: keyBytes[keyRanges[column]]))
                    switch sqlite3_column_type(statement, index) {
                    case SQLITE_INTEGER: writer.appendInteger(sqlite3_column_int64(statement, index))
                    case SQLITE_FLOAT: writer.appendDouble(sqlite3_column_double(statement, index))
                    case SQLITE_TEXT:
                        let text = Self.text(statement, index) ?? UnsafeBufferPointer(start: nil, count: 0)
                        writer.appendString(utf8: text)
                        // TEXT compares as bytes in SQLite: the newest time is the greatest text.
                        if index == modifiedColumn, newest.lexicographicallyPrecedes(text) {
                            newest = Array(text)
                        }
                    case SQLITE_BLOB: writer.write(.string(Self.blob(statement, index).base64EncodedString()))
                    default: writer.appendRaw("null")
                    }
                }
                writer.appendByte(UInt8(ascii: "}"))
                writer.appendNewline()
                result.count += 1
                if writer.bytes.count >= Self.chunkSize {
                    try file.write(writer.bytes)
                    writer.reset()
                }
                if result.count % 4096 == 0 { progress?.add(4096) }
                status = sqlite3_step(statement)
            }
        }
        progress?.add(Int64(result.count % 4096))
        try file.write(writer.bytes)
        if !newest.isEmpty { result.newestModification = String(decoding: newest, as: UTF8.self) }
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

    /// The attachment's bytes under their own SHA-256; a store row whose key is not the hash
    /// of its bytes is a damaged store, not something to carry on.
    private func writeAttachment(_ data: Data, expected: String, attachments: inout [String: FileDigest]) throws -> FileDigest {
        guard expected.count == 64, expected.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
            throw BundleError(.unusableStore("attachment_content: \"\(expected)\" is not a lower-case hex SHA-256"), path: database.path)
        }
        let relative = BundleLayout.attachmentFile(expected)
        let file = try HashingFileWriter(path: staging.file(relative))
        try file.write(data)
        let digest = try file.finish()
        guard digest.sha256 == expected else {
            throw BundleError(.unusableStore("attachment_content \(expected): its bytes hash to \(digest.sha256)"), path: database.path)
        }
        attachments[relative] = digest
        return digest
    }
}

/// What exporting one table gave.
struct TableFile: Sendable {
    var count = 0
    var files: [String: FileDigest] = [:]
    var newestModification: String?

    /// The tables whose newest `modified_at` is the time a bundle's data is from.
    static let dated: Set<String> = ["recipe", "project", "log"]
}
