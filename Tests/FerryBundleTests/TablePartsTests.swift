import FerryArchive
@testable import FerryBundle
import FerryStore
import FerryTestSupport
import Foundation
import GRDB
import Testing

/// Format 2 keeps each table's NDJSON in parts of bounded size, made in memory and archived as
/// they come: nothing of the tables is staged on disk, and the parts join into the whole table.
@Suite struct TablePartsTests {
    let directory = TemporaryDirectory("ferry-table-parts")

    func path(_ name: String) -> String { directory.url.appendingPathComponent(name).path }

    /// Parts of at most 4 KiB: the log table of 2,000 logs is many parts, each whole lines within
    /// the bound, named in order, and joined they are the table as one part holds it.
    @Test func partsAreWholeLinesWithinTheBoundAndJoinIntoTheTable() throws {
        let store = try BundleFixtures.sampleStore(at: path("parts.ferry"))
        try StoreFixtures.inflate(store, logs: 2_000)
        // Notes of every length, some longer than a part: a row that passes the bound starts the next pair.
        let queue = try DatabaseQueue(path: store)
        try queue.write { try $0.execute(sql: "UPDATE log SET note = substr(replace(hex(zeroblob(3000)), '0', 'a, \"b\" '), 1, (rowid * 37) % 5000)") }
        try queue.close()
        var small = BundleExporter()
        small.partBytes = 4096
        let bundle = path("small-parts.tar.zst")
        let summary = try small.export(store: store, to: bundle)
        // Without CSV the parts are of 16 MiB: the whole table in one.
        let whole = path("whole.tar.zst")
        var ndjsonAlone = BundleExporter()
        ndjsonAlone.formats = []
        _ = try ndjsonAlone.export(store: store, to: whole)

        let entries = try BundleFixtures.entries(of: bundle)
        let logParts = entries.filter { $0.name.hasPrefix("small-parts/data/tables/log/") }
        #expect(logParts.count > 20)
        #expect(logParts.map(\.name) == (1...logParts.count).map { "small-parts/" + BundleLayout.tablePart("log", $0) })
        for part in logParts {
            #expect(part.bytes.last == 0x0A, "\(part.name) ends with a line's end")
            let lines = part.bytes.split(separator: 0x0A)
            #expect(part.bytes.count <= 4096 || lines.count == 1, "\(part.name): \(part.bytes.count) bytes")
        }
        let wholeEntries = try BundleFixtures.entries(of: whole)
        #expect(wholeEntries.filter { $0.name.hasPrefix("whole/data/tables/log/") }.count == 1)
        for table in CanonicalTables.all {
            #expect(BundleFixtures.table(table, of: entries) == BundleFixtures.table(table, of: wholeEntries), "\(table)")
        }
        #expect(String(decoding: BundleFixtures.table("log", of: entries), as: UTF8.self).split(separator: "\n").count == summary.counts["log"])

        // With CSV (the default), CSV part N follows NDJSON part N in the archive and holds its
        // rows: the same ids in the same order.
        let csvParts = entries.filter { $0.name.hasPrefix("small-parts/data/formats/csv/log/") }
        #expect(csvParts.map(\.name) == (1...logParts.count).map { "small-parts/" + BundleLayout.csvPart("log", $0) })
        let names = entries.map(\.name)
        for (ndjson, csv) in zip(logParts, csvParts) {
            #expect(names.firstIndex(of: csv.name) == names.firstIndex(of: ndjson.name).map { $0 + 1 }, "\(csv.name) right after \(ndjson.name)")
            let records = try CSVRecords.parse(Array(csv.bytes.drop { $0 != 0x0A }.dropFirst()))
            let ids = try ndjson.bytes.split(separator: 0x0A).map { line in
                try #require((try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])?["id"] as? String)
            }
            #expect(records.map { $0.first ?? "" } == ids, "\(csv.name)")
        }

        #expect(try BundleVerifier().verify(bundle).problems == [])
        let imported = path("imported.ferry")
        _ = try BundleImporter().importBundle(bundle, into: imported)
        #expect(try TableContents(path: imported).withoutFerrysOwnTables == TableContents(path: store).withoutFerrysOwnTables)
    }

    /// While the rows are written and archived, the staging folder holds the snapshot and the
    /// view's pages only, and no NDJSON file exists anywhere beside the bundle.
    @Test func noTableIsStagedOnDisk() throws {
        let store = try BundleFixtures.sampleStore(at: path("staged.ferry"))
        try StoreFixtures.inflate(store, logs: 20_000)
        let folder = directory.url.path
        let seen = SeenFiles()
        var exporter = BundleExporter(progress: { update in
            if update.stage == .tables { seen.add(StoreFixtures.listing(folder)) }
        })
        exporter.partBytes = 64 << 10
        _ = try exporter.export(store: store, to: path("staged.tar.zst"))
        let listings = seen.all
        #expect(listings.count >= 4, "progress came while the tables were written")
        let staged = Set(listings.flatMap { $0 }.filter { $0.hasPrefix(".staged.tar.zst.export-") })
        let stagedFiles = Set(staged.compactMap { $0.split(separator: "/", maxSplits: 1).dropFirst().first.map(String.init) })
        #expect(stagedFiles.isSubset(of: ["data", "data/store.sqlite", "view.pages"]), "\(stagedFiles)")
        #expect(!listings.flatMap { $0 }.contains { $0.hasSuffix(".ndjson") })
    }

    /// The archiving side giving up (a full disk) stops the side that makes the parts, which was
    /// waiting for room: nothing hangs.
    @Test func cancellingTheQueueReleasesAWaitingMaker() throws {
        let queue = PayloadQueue(capacity: 10)
        let file = PayloadFile(name: "data/x", bytes: Array(repeating: 1, count: 8), digest: FileDigest(sha256: "", size: 8))
        let maker = BackgroundJob<Int> {
            var made = 0
            defer { queue.end() }
            while true {
                try queue.put(file)
                made += 1
            }
        }
        #expect(queue.take()?.name == "data/x")
        queue.cancel()
        #expect(maker.failure is PayloadQueue.Cancelled)
    }

    @Test func theQueueHandsFilesOverInOrderAndEnds() throws {
        let queue = PayloadQueue(capacity: 100)
        let maker = BackgroundJob<Void> {
            defer { queue.end() }
            for number in 0..<500 {
                try queue.put(PayloadFile(name: "\(number)", bytes: Array(repeating: 0, count: number % 150), digest: FileDigest(sha256: "", size: 0)))
            }
        }
        var names: [String] = []
        while let file = queue.take() { names.append(file.name) }
        try maker.value()
        #expect(names == (0..<500).map(String.init))
    }

    final class SeenFiles: @unchecked Sendable {
        private let lock = NSLock()
        private var listings: [[String]] = []
        var all: [[String]] { lock.withLock { listings } }
        func add(_ listing: [String]) { lock.withLock { listings.append(listing) } }
    }
}
