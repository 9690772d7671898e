import FerryStore
import Foundation

/// Writes each canonical table of a store snapshot as an NDJSON file of the bag (rows read by
/// FerryStore's ``SnapshotReader``); attachment bytes go to content-addressed files.
struct TableExporter: Sendable {
    let snapshot: SnapshotReader
    let staging: StagingFolder
    let progress: ProgressTally?

    /// One table's file: its row count, every payload file written (relative path → digest):
    /// the table's NDJSON, and for `attachment_content` each attachment; and for recipes,
    /// projects and logs the newest `modified_at`.
    func export(_ table: String) throws -> TableFile {
        var result = TableFile()
        let relative = BundleLayout.tableFile(table)
        let file = try HashingFileWriter(path: staging.file(relative))
        var attachments: [String: FileDigest] = [:]
        let rows = try snapshot.ndjson(of: table, newestOf: TableFile.dated.contains(table) ? "modified_at" : nil,
                                       chunk: { try file.write($0) },
                                       attachment: { expected, data in
                                           let digest = try writeAttachment(data, expected: expected, attachments: &attachments)
                                           return BundleLayout.attachmentFile(digest.sha256)
                                       },
                                       progress: progress.map { tally in { tally.add($0) } })
        result.count = rows.count
        result.newestModification = rows.newestModification
        result.files = attachments
        result.files[relative] = try file.finish()
        return result
    }

    /// The attachment's bytes under their own SHA-256; a store row whose key is not the hash
    /// of its bytes is a damaged store, not something to carry on.
    private func writeAttachment(_ data: Data, expected: String, attachments: inout [String: FileDigest]) throws -> FileDigest {
        guard expected.count == 64, expected.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
            throw BundleError(.unusableStore("attachment_content: \"\(expected)\" is not a lower-case hex SHA-256"), path: snapshot.path)
        }
        let relative = BundleLayout.attachmentFile(expected)
        let file = try HashingFileWriter(path: staging.file(relative))
        try file.write(data)
        let digest = try file.finish()
        guard digest.sha256 == expected else {
            throw BundleError(.unusableStore("attachment_content \(expected): its bytes hash to \(digest.sha256)"), path: snapshot.path)
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
