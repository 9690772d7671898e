import Crypto
import FerryJSON
import FerryStore
import Foundation

/// Makes each canonical table of a store snapshot into NDJSON parts of the bag (rows read by
/// FerryStore's ``FrozenStore``), in memory, and hands them to the archive through a
/// ``PayloadQueue``; attachment bytes go the same way, as content-addressed files, before the
/// part that names them. No NDJSON is written to disk.
struct TableExporter: Sendable {
    let snapshot: FrozenStore
    let queue: PayloadQueue
    let progress: ProgressTally?
    var partBytes = BundleLayout.tablePartBytes

    /// Every table in the order given, then the end of the queue (also on failure).
    /// - Returns: rows per table.
    func export(_ tables: [String]) throws -> [String: Int] {
        defer { queue.end() }
        var counts: [String: Int] = [:]
        for table in tables { counts[table] = try export(table) }
        return counts
    }

    /// One table: each part ends at a line's end and holds at most `partBytes` bytes, unless
    /// its one line is longer; an empty table is one empty part, so every table has its folder.
    private func export(_ table: String) throws -> Int {
        var part: [UInt8] = []
        var number = 0
        func handOver() throws {
            number += 1
            try queue.put(Self.file(BundleLayout.tablePart(table, number), part))
            // The queue holds that buffer now: the next part gets its own, allocated once (grown
            // by doubling, a million logs' export without the view took 7.8 s instead of 6.7 s).
            part = []
            part.reserveCapacity(partBytes)
        }
        // Chunks end at a line's end; a line's end is the only newline (JSON escapes the rest).
        func add(_ chunk: [UInt8]) throws {
            var rest = chunk[...]
            while part.count + rest.count > partBytes {
                let room = partBytes - part.count
                if let cut = rest.prefix(room).lastIndex(of: 0x0A) {
                    part.append(contentsOf: rest[...cut])
                    rest = rest[(cut + 1)...]
                } else if part.isEmpty, let end = rest.firstIndex(of: 0x0A) {
                    part.append(contentsOf: rest[...end])
                    rest = rest[(end + 1)...]
                } else if part.isEmpty {
                    break
                }
                try handOver()
            }
            part.append(contentsOf: rest)
        }
        let rows = try snapshot.ndjson(of: table,
                                       chunk: add,
                                       attachment: { expected, bytes in try attachment(Array(bytes), expected: expected) },
                                       progress: progress.map { tally in { tally.add($0) } })
        if !part.isEmpty || number == 0 { try handOver() }
        return rows
    }

    /// The attachment's bytes under their own SHA-256; a store row whose key is not the hash
    /// of its bytes is a damaged store, not something to carry on.
    private func attachment(_ bytes: [UInt8], expected: String) throws -> String {
        guard expected.count == 64, expected.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
            throw BundleError(.unusableStore("attachment_content: \"\(expected)\" is not a lower-case hex SHA-256"), path: snapshot.store)
        }
        let name = BundleLayout.attachmentFile(expected)
        let file = Self.file(name, bytes)
        guard file.digest.sha256 == expected else {
            throw BundleError(.unusableStore("attachment_content \(expected): its bytes hash to \(file.digest.sha256)"), path: snapshot.store)
        }
        try queue.put(file)
        return name
    }

    private static func file(_ name: String, _ bytes: [UInt8]) -> PayloadFile {
        PayloadFile(name: name, bytes: bytes, digest: FileDigest(sha256: Hex.lowercase(SHA256.hash(data: bytes)), size: Int64(bytes.count)))
    }
}
