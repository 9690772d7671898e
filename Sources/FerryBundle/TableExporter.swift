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
    private func export(_ table: String) throws -> ExportedParts {
        if csv { return try exportWithCSV(table) }
        var ndjson = PartCutter(partBytes: partBytes) { number in BundleLayout.tablePart(table, number) }
        let rows = try snapshot.ndjson(of: table, chunk: { try ndjson.add($0, queue: queue) },
                                       attachment: { expected, bytes in try attachment(Array(bytes), expected: expected) },
                                       progress: progress.map { tally in { tally.add($0) } })
        try ndjson.finish(queue: queue)
        return ExportedParts(rows: rows, ndjson: ndjson.names, csv: [])
    }

    /// One table as NDJSON and CSV cut at the same rows: NDJSON part N (at most
    /// ``pairedPartBytes``, unless one line is longer), then CSV part N of the same rows, which
    /// starts with the header (each opens alone in a spreadsheet). The archive's compressor looks
    /// back 512 KiB: two forms of a row that near cost little more than one (at a million logs the
    /// CSV added 48 MB to the bundle this way, 75 MB in parts of 16 MiB each).
    private func exportWithCSV(_ table: String) throws -> ExportedParts {
        var names: (ndjson: [String], csv: [String]) = ([], [])
        var pending: [UInt8] = []
        let rows = try snapshot.ndjson(of: table,
                                       chunk: { pending = $0 },
                                       csv: CSVRows(droppedPathPrefix: "data/", chunkBytes: min(partBytes, BundleLayout.pairedPartBytes)) { header, rows in
                                           // The last call of a table with rows may bring none.
                                           guard !(rows.isEmpty && pending.isEmpty && !names.csv.isEmpty) else { return }
                                           let number = names.csv.count + 1
                                           let ndjsonName = BundleLayout.tablePart(table, number), csvName = BundleLayout.csvPart(table, number)
                                           if self.ndjson {
                                               try queue.put(Self.file(ndjsonName, pending))
                                               names.ndjson.append(ndjsonName)
                                           }
                                           try queue.put(Self.file(csvName, header + rows))
                                           names.csv.append(csvName)
                                           pending = []
                                       },
                                       attachment: { expected, bytes in try attachment(Array(bytes), expected: expected) },
                                       progress: progress.map { tally in { tally.add($0) } })
        return ExportedParts(rows: rows, ndjson: names.ndjson, csv: names.csv)
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
    let name: (Int) -> String
    private(set) var names: [String] = []
    private var part: [UInt8] = []

    init(partBytes: Int, name: @escaping (Int) -> String) {
        self.partBytes = partBytes
        self.name = name
    }

    mutating func add(_ chunk: [UInt8], queue: PayloadQueue) throws {
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
            try handOver(queue)
        }
        part.append(contentsOf: rest)
    }

    /// The last part, or an empty one when the table has no rows.
    mutating func finish(queue: PayloadQueue) throws {
        if !part.isEmpty || names.isEmpty { try handOver(queue) }
    }

    private mutating func handOver(_ queue: PayloadQueue) throws {
        try queue.put(TableExporter.file(name(names.count + 1), part))
        names.append(name(names.count + 1))
        // The queue holds that buffer now: the next part gets its own, allocated once (grown
        // by doubling, a million logs' export without the view took 7.8 s instead of 6.7 s).
        part = []
        part.reserveCapacity(partBytes)
    }
}
