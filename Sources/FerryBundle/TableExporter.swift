import FerryJSON
import FerryStore
import Foundation
import GRDB

/// Writes each canonical table of a store snapshot as NDJSON, one object per row in primary-key
/// order with the columns in table order; attachment bytes go to content-addressed files.
struct TableExporter {
    let database: DatabaseQueue
    let staging: StagingFolder

    /// Table name → row count, and every payload file written (relative path → digest).
    func export() throws -> (counts: [String: Int], files: [String: FileDigest]) {
        var counts: [String: Int] = [:]
        var files: [String: FileDigest] = [:]
        try staging.makeFolders(for: BundleLayout.tableFile("x"))
        try staging.makeFolders(for: BundleLayout.attachmentFile("x"))
        try database.read { db in
            let present = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
            for table in CanonicalTables.all where present.contains(table) {
                let relative = BundleLayout.tableFile(table)
                let file = try HashingFileWriter(path: staging.file(relative))
                counts[table] = try writeRows(of: table, db: db, to: file, attachments: &files)
                files[relative] = try file.finish()
            }
        }
        return (counts, files)
    }

    private func writeRows(of table: String, db: Database, to file: HashingFileWriter, attachments: inout [String: FileDigest]) throws -> Int {
        let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))")
        let names: [String] = columns.map { $0["name"] }
        let key = columns.filter { ($0["pk"] as Int) > 0 }.sorted { ($0["pk"] as Int) < ($1["pk"] as Int) }.map { $0["name"] as String }
        let order = key.isEmpty ? "rowid" : key.map { "\"\($0)\"" }.joined(separator: ", ")
        let cursor = try Row.fetchCursor(db, sql: "SELECT * FROM \(table) ORDER BY \(order)")
        var writer = JSONWriter(sortedKeys: false)
        var count = 0
        while let row = try cursor.next() {
            var members: [(key: String, value: JSONValue)] = []
            members.reserveCapacity(names.count)
            for (index, name) in names.enumerated() {
                let value = row[index] as DatabaseValue
                if case .blob(let data) = value.storage {
                    if table == "attachment_content", name == "data" {
                        let digest = try writeAttachment(data, row: row, attachments: &attachments)
                        members.append(("byte_count", .integer(data.count)))
                        members.append(("path", .string(BundleLayout.attachmentFile(digest.sha256))))
                    } else {
                        members.append((name, .string(data.base64EncodedString())))
                    }
                } else {
                    members.append((name, json(value)))
                }
            }
            writer.reset()
            writer.write(.object(JSONObject(members)))
            writer.appendNewline()
            try file.write(writer.bytes)
            count += 1
        }
        return count
    }

    /// The attachment's bytes under their own SHA-256; a store row whose key is not the hash
    /// of its bytes is a damaged store, not something to carry on.
    private func writeAttachment(_ data: Data, row: Row, attachments: inout [String: FileDigest]) throws -> FileDigest {
        let expected: String = row["sha256"]
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

    private func json(_ value: DatabaseValue) -> JSONValue {
        switch value.storage {
        case .null: return .null
        case .int64(let integer): return .integer(integer)
        case .double(let double): return .double(double)
        case .string(let text): return .string(text)
        case .blob(let data): return .string(data.base64EncodedString())
        }
    }
}
