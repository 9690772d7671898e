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

    /// Whether each table's rows also go out as CSV parts (`data/formats/csv/<table>/`).
    var csv = false
    /// Whether the NDJSON parts go out (a CSV-only export leaves them out).
    var ndjson = true

    /// Every table in the order given, then the end of the queue (also on failure).
    /// - Returns: rows and parts per table.
    func export(_ tables: [String]) throws -> [String: ExportedParts] {
        defer { queue.end() }
        var exported: [String: ExportedParts] = [:]
        for table in tables { exported[table] = try export(table) }
        return exported
    }

    /// One table: each part ends at a line's end and holds at most `partBytes` bytes, unless
    /// its one line is longer; an empty table is one empty part, so every table has its folder.
    /// Each CSV part starts with the header, so that each opens alone in a spreadsheet.
    private func export(_ table: String) throws -> ExportedParts {
        var ndjson = PartCutter(partBytes: partBytes, splitsChunks: true) { number in BundleLayout.tablePart(table, number) }
        var csvParts = PartCutter(partBytes: partBytes, splitsChunks: false) { number in BundleLayout.csvPart(table, number) }
        let rows = try snapshot.ndjson(of: table,
                                       chunk: { if self.ndjson { try ndjson.add($0, queue: queue) } },
                                       csv: csv ? CSVRows(droppedPathPrefix: "data/") { header, rows in
                                           csvParts.header = header
                                           try csvParts.add(rows, queue: queue)
                                       } : nil,
                                       attachment: { expected, bytes in try attachment(Array(bytes), expected: expected) },
                                       progress: progress.map { tally in { tally.add($0) } })
        if self.ndjson { try ndjson.finish(queue: queue) }
        if csv { try csvParts.finish(queue: queue) }
        return ExportedParts(rows: rows, ndjson: ndjson.names, csv: csv ? csvParts.names : [])
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

    static func file(_ name: String, _ bytes: [UInt8]) -> PayloadFile {
        PayloadFile(name: name, bytes: bytes, digest: FileDigest(sha256: Hex.lowercase(SHA256.hash(data: bytes)), size: Int64(bytes.count)))
    }
}

/// A table's rows in the bag: how many, and the names of its NDJSON and CSV parts in row order.
struct ExportedParts: Sendable {
    var rows: Int
    var ndjson: [String]
    var csv: [String]
}

/// Cuts rows (chunks that end at a row's end) into parts of at most `partBytes` bytes, each a
/// whole number of rows (a part holds at least one), and hands each to the queue as it closes.
private struct PartCutter {
    let partBytes: Int
    /// Whether a part may end inside a chunk, at a newline: NDJSON's rows end at their only
    /// newline; a CSV field may hold line breaks of its own, so CSV parts end between chunks,
    /// which end at a row's end.
    let splitsChunks: Bool
    let name: (Int) -> String
    /// What starts every part (a CSV header), counted in its size.
    var header: [UInt8] = []
    private(set) var names: [String] = []
    private var part: [UInt8] = []

    init(partBytes: Int, splitsChunks: Bool, name: @escaping (Int) -> String) {
        self.partBytes = partBytes
        self.splitsChunks = splitsChunks
        self.name = name
    }

    mutating func add(_ chunk: [UInt8], queue: PayloadQueue) throws {
        if part.isEmpty { part.append(contentsOf: header) }
        guard splitsChunks else {
            if part.count > header.count, part.count + chunk.count > partBytes {
                try handOver(queue)
                part.append(contentsOf: header)
            }
            part.append(contentsOf: chunk)
            return
        }
        var rest = chunk[...]
        while part.count + rest.count > partBytes {
            let room = max(0, partBytes - part.count)
            let bare = part.count == header.count
            if let cut = Self.lastRowEnd(in: rest.prefix(room)) {
                part.append(contentsOf: rest[...cut])
                rest = rest[(cut + 1)...]
            } else if bare, let end = Self.firstRowEnd(in: rest) {
                part.append(contentsOf: rest[...end])
                rest = rest[(end + 1)...]
            } else if bare {
                break
            }
            try handOver(queue)
            part.append(contentsOf: header)
        }
        part.append(contentsOf: rest)
    }

    /// The last part, or an empty one (its header alone) when the table has no rows.
    mutating func finish(queue: PayloadQueue) throws {
        if part.isEmpty { part.append(contentsOf: header) }
        if part.count > header.count || names.isEmpty { try handOver(queue) }
    }

    private mutating func handOver(_ queue: PayloadQueue) throws {
        try queue.put(TableExporter.file(name(names.count + 1), part))
        names.append(name(names.count + 1))
        // The queue holds that buffer now: the next part gets its own, allocated once (grown
        // by doubling, a million logs' export without the view took 7.8 s instead of 6.7 s).
        part = []
        part.reserveCapacity(partBytes)
    }

    /// An NDJSON row ends at a newline, the only one (JSON escapes the rest).
    private static func lastRowEnd(in bytes: ArraySlice<UInt8>) -> Int? { bytes.lastIndex(of: 0x0A) }
    private static func firstRowEnd(in bytes: ArraySlice<UInt8>) -> Int? { bytes.firstIndex(of: 0x0A) }
}
