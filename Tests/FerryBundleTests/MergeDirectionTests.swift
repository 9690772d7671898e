@testable import FerryBundle
@testable import FerryStore
import FerryTestSupport
import Foundation
import GRDB
import Testing

/// A merge ends the same whichever file takes the other's rows: the store's copy taking the
/// bundle's rows, or the bundle's store taking the rows only the store has.
@Suite struct MergeDirectionTests {
    let directory = TemporaryDirectory("ferry-merge-direction")

    func path(_ name: String) -> String { directory.url.appendingPathComponent(name).path }

    func copy(_ store: String, to name: String) throws -> String {
        try FileManager.default.copyItem(atPath: store, toPath: path(name))
        return path(name)
    }

    /// The samples' store as a bundle would bring it, and a store that differs from it in every
    /// way a merge tells apart: a recipe renamed, a log missing, rows at other rowids than the
    /// bundle's, `logs` logs of its own, and rows the bundle lacks that have rows of their own
    /// (a log with its snapshot and tags; a project with its child projects, the parent at a
    /// rowid after its children's).
    func incomingAndExisting(logs: Int = 1) throws -> Pair {
        let incoming = try BundleFixtures.sampleStore(at: path("incoming.ferry"))
        let existing = try copy(incoming, to: "existing.ferry")
        let queue = try DatabaseQueue(path: incoming)
        let (tagged, parent) = try queue.write { db -> (String, String) in
            let tagged = try #require(try String.fetchOne(db, sql: "SELECT log_id FROM log_tag ORDER BY rowid LIMIT 1"))
            let parent = try #require(try String.fetchOne(db, sql: "SELECT parent_id FROM project WHERE parent_id IS NOT NULL ORDER BY rowid LIMIT 1"))
            try db.execute(sql: "DELETE FROM log WHERE id = ?", arguments: [tagged])
            try db.execute(sql: "DELETE FROM project WHERE id = ?", arguments: [parent])
            return (tagged, parent)
        }
        try queue.close()

        try StoreFixtures.inflate(existing, logs: logs)
        let changing = try DatabaseQueue(path: existing)
        let (renamed, missing) = try changing.write { db -> (String, String) in
            let recipe = try #require(try String.fetchOne(db, sql: "SELECT id FROM recipe ORDER BY id LIMIT 1"))
            try db.execute(sql: "UPDATE recipe SET title = 'Renamed here' WHERE id = ?", arguments: [recipe])
            let log = try #require(try String.fetchOne(db, sql: """
                SELECT l.id FROM log l JOIN log_snapshot s ON s.log_id = l.id WHERE l.id <> ? ORDER BY l.rowid LIMIT 1 OFFSET 2
                """, arguments: [tagged]))
            try db.execute(sql: "DELETE FROM log WHERE id = ?", arguments: [log])
            try db.execute(sql: "UPDATE log SET rowid = rowid + 1000 WHERE rowid % 2 = 0")
            try db.execute(sql: "UPDATE project SET rowid = 5000 WHERE id = ?", arguments: [parent])
            return (recipe, log)
        }
        try changing.close()
        return Pair(incoming: incoming, existing: existing, renamed: renamed, missing: missing, tagged: tagged, parent: parent)
    }

    struct Pair {
        var incoming, existing, renamed, missing, tagged, parent: String
    }

    @Test func bothWaysRoundLeaveTheSameRowsAndCounts() throws {
        let pair = try incomingAndExisting()
        let existingBytes = try Data(contentsOf: URL(fileURLWithPath: pair.existing))
        let incomingProjects = try #require(Int(StoreFixtures.strings(pair.incoming, "SELECT count(*) FROM project").first ?? ""))
        #expect(incomingProjects < 24)

        let storeCopy = try copy(pair.existing, to: "store-copy.ferry")
        let intoCopy = try CanonicalStore(path: storeCopy)
        let forward = try intoCopy.merge(from: try copy(pair.incoming, to: "incoming-read.ferry"))
        try intoCopy.close()

        let intoIncoming = try CanonicalStore(path: pair.incoming)
        let backward = try intoIncoming.merge(keepingRowsOf: pair.existing)
        try intoIncoming.close()

        #expect(forward == backward)
        // Changed: the log whose project the bundle lacks (its project_id is null there).
        #expect(forward["log"] == MergeCount(new: 1, changed: 1, unchanged: 11))
        #expect(forward["log_snapshot"]?.new == 1)
        #expect(forward["recipe"] == MergeCount(new: 0, changed: 1, unchanged: 7))
        #expect(forward["project"] == MergeCount(new: 0, changed: 0, unchanged: incomingProjects))

        let one = try TableContents(path: storeCopy).withoutFerrysOwnTables
        let other = try TableContents(path: pair.incoming).withoutFerrysOwnTables
        #expect(one == other, "\(one.differences(from: other).prefix(4))")
        // The bundle's recipe title won, the missing log came, the store's own rows stayed.
        let merged = pair.incoming
        #expect(try StoreFixtures.strings(merged, "SELECT title FROM recipe WHERE id = '\(pair.renamed)'") != ["Renamed here"])
        #expect(try StoreFixtures.strings(merged, "SELECT count(*) FROM log WHERE id = '\(pair.missing)'") == ["1"])
        #expect(try StoreFixtures.strings(merged, "SELECT count(*) FROM log") == ["15"])
        #expect(try StoreFixtures.strings(merged, "SELECT count(*) FROM log_tag WHERE log_id = '\(pair.tagged)'") != ["0"])
        #expect(try StoreFixtures.strings(merged, "SELECT count(*) FROM project WHERE parent_id = '\(pair.parent)'") != ["0"])
        #expect(try StoreFixtures.strings(merged, "SELECT count(*) FROM project") == ["25"])
        // The store read is never written.
        #expect(try Data(contentsOf: URL(fileURLWithPath: pair.existing)) == existingBytes)
    }

    @Test func theBundlesStoreRefusesAStoreOfAnotherSchemaVersion() throws {
        let pair = try incomingAndExisting()
        let queue = try DatabaseQueue(path: pair.existing)
        try queue.write { try $0.execute(sql: "PRAGMA user_version = 2") }
        try queue.close()
        let before = try TableContents(path: pair.incoming)
        let store = try CanonicalStore(path: pair.incoming)
        let error = try #require(throws: StoreError.self) { try store.merge(keepingRowsOf: pair.existing) }
        try store.close()
        #expect(error.message.contains("schema version is 2"), "\(error.message)")
        #expect(try TableContents(path: pair.incoming) == before)
    }

    func rows(_ store: String) throws -> Int {
        try CanonicalTables.all.reduce(0) { $0 + (Int(try StoreFixtures.strings(store, "SELECT count(*) FROM \($1)").first ?? "") ?? 0) }
    }

    @Test func theSideWithFewerRowsIsTheOneRead() throws {
        let small = try BundleFixtures.sampleStore(at: path("small.ferry"))
        let large = try copy(small, to: "large.ferry")
        try StoreFixtures.inflate(large, logs: 40)
        #expect(MergeDirection.choose(existing: small, incoming: large, incomingRows: try rows(large)) == .intoIncoming)
        #expect(MergeDirection.choose(existing: large, incoming: small, incomingRows: try rows(small)) == .intoStoreCopy)
        #expect(MergeDirection.choose(existing: small, incoming: try copy(small, to: "same.ferry"), incomingRows: try rows(small)) == .intoStoreCopy)
        #expect(MergeDirection.choose(existing: path("absent.ferry"), incoming: large, incomingRows: try rows(large)) == .intoStoreCopy)

        // Files kept otherwise go through the store's copy, which keeps the store's own ways.
        let otherwise = [("wal.ferry", "PRAGMA journal_mode = WAL"), ("older.ferry", "PRAGMA user_version = 2"),
                         ("pages.ferry", "PRAGMA page_size = 4096; VACUUM"), ("application.ferry", "PRAGMA application_id = 7")]
        for (name, pragma) in otherwise {
            let store = try copy(small, to: name)
            let queue = try DatabaseQueue(path: store)
            try queue.writeWithoutTransaction { try $0.execute(sql: pragma) }
            try queue.close()
            #expect(MergeDirection.choose(existing: store, incoming: large, incomingRows: try rows(large)) == .intoStoreCopy, "\(name)")
            #expect(MergeDirection.choose(existing: small, incoming: store, incomingRows: try rows(large)) == .intoStoreCopy, "\(name)")
        }
    }

    /// The bundle of `pair.incoming`, given 40 logs more than the store when `storeIsLarger` is
    /// false, and the store 40 more than it otherwise.
    func bundleAndStore(_ pair: Pair, storeIsLarger: Bool) throws -> String {
        try StoreFixtures.inflate(storeIsLarger ? pair.existing : pair.incoming, logs: 40)
        let bundle = path("incoming.tar.zst")
        _ = try BundleExporter().export(store: pair.incoming, to: bundle)
        #expect(MergeDirection.choose(existing: pair.existing, incoming: pair.incoming, incomingRows: try rows(pair.incoming))
                == (storeIsLarger ? .intoStoreCopy : .intoIncoming))
        return bundle
    }

    /// `ferry import --merge` both ways: into a store holding fewer rows than the bundle (the
    /// bundle's store takes the store's own rows) and into one holding more (the store's copy
    /// takes the bundle's); each ends with the rows and counts of the other way, and a backup of
    /// the store as it was.
    @Test(arguments: [false, true])
    func importMergesEitherWay(storeIsLarger: Bool) throws {
        let pair = try incomingAndExisting(logs: 0)
        let bundle = try bundleAndStore(pair, storeIsLarger: storeIsLarger)
        let before = try TableContents(path: pair.existing)
        // A log both hold, at another rowid in the store: where it ends says which file was written.
        let moved = try #require(try StoreFixtures.strings(pair.existing, "SELECT id FROM log WHERE rowid > 1000 ORDER BY rowid LIMIT 1").first)
        let rowid = { (store: String) in try StoreFixtures.strings(store, "SELECT rowid FROM log WHERE id = '\(moved)'") }
        let (inBundle, inStore) = (try rowid(pair.incoming), try rowid(pair.existing))
        #expect(inBundle != inStore)

        let expected = try copy(pair.existing, to: "expected.ferry")
        let reference = try CanonicalStore(path: expected)
        let counts = try reference.merge(from: pair.incoming)
        try reference.close()

        let result = try BundleImporter(merge: true).importBundle(bundle, into: pair.existing)
        #expect(result.merge == counts)
        #expect(try TableContents(path: pair.existing).withoutFerrysOwnTables == TableContents(path: expected).withoutFerrysOwnTables)
        #expect(try rowid(pair.existing) == (storeIsLarger ? inStore : inBundle))
        #expect(try TableContents(path: #require(result.backup)) == before)
        #expect(try StoreFixtures.integrityProblems(pair.existing) == [])
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.hasPrefix(".") }
        #expect(left == [], "\(left)")
    }

    /// A bundle of the store's own rows brings nothing new: the store's copy, which the merge
    /// does not write, replaces it with the record digests that let the next conversion skip
    /// its unchanged records (the bundle's store has none).
    @Test func aMergeThatBringsNothingNewKeepsTheStoresDigests() throws {
        let (store, bundle) = try BundleFixtures.exportedSamples(in: directory, name: "own")
        #expect(try StoreFixtures.strings(store, "SELECT count(*) FROM ferry_record_digest") != ["0"])
        let before = try TableContents(path: store)
        let result = try BundleImporter(merge: true).importBundle(bundle, into: store)
        let counts = try #require(result.merge)
        #expect(counts.values.allSatisfy { $0.new == 0 && $0.changed == 0 }, "\(counts)")
        #expect(try TableContents(path: store) == before)
    }

    /// A merge that fails either way (here the store holds a tag link naming no tag, which the
    /// merged store's foreign key check finds) leaves the store as it was, no backup and nothing
    /// in its folder.
    @Test(arguments: [false, true])
    func aFailedMergeLeavesTheStoreAndNoBackup(storeIsLarger: Bool) throws {
        let pair = try incomingAndExisting(logs: 0)
        let bundle = try bundleAndStore(pair, storeIsLarger: storeIsLarger)
        var unchecked = Configuration()
        unchecked.foreignKeysEnabled = false
        let queue = try DatabaseQueue(path: pair.existing, configuration: unchecked)
        try queue.write { db in
            try db.execute(sql: "INSERT INTO log_tag (log_id, tag_id, position) VALUES (?, 'A0A0A0A0-0000-4000-8000-000000000000', 0)", arguments: [pair.tagged])
        }
        try queue.close()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: pair.existing))
        let listing = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()

        let error = try #require(throws: (any Error).self) { try BundleImporter(merge: true).importBundle(bundle, into: pair.existing) }
        #expect("\(error)".contains("refer"), "\(error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: pair.existing)) == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == listing)
        let backups = pair.existing + ".backups"
        let kept = FileManager.default.fileExists(atPath: backups) ? try FileManager.default.contentsOfDirectory(atPath: backups) : []
        #expect(kept == [])
    }
}
