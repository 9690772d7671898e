import FerryArchive
@testable import FerryBundle
@testable import FerryStore
import FerryTestSupport
import Foundation
import GRDB
import Testing

/// export → verify → import, for each archive format, on the samples' store.
@Suite struct BundleRoundTripTests {
    let directory = TemporaryDirectory("ferry-bundle")

    func path(_ name: String) -> String { directory.url.appendingPathComponent(name).path }

    @Test(arguments: ArchiveFormat.allCases)
    func exportVerifyImportGivesIdenticalTables(format: ArchiveFormat) throws {
        let store = try BundleFixtures.sampleStore(at: path("data.ferry"))
        let bundle = path("data.\(format.rawValue)")
        let summary = try BundleExporter(format: format, ferryVersion: "test").export(store: store, to: bundle)
        #expect(summary.counts["recipe"] == 8 && summary.counts["project"] == 25 && summary.counts["log"] == 14)
        #expect(summary.attachmentCount == 1)

        let verification = try BundleVerifier().verify(bundle)
        #expect(verification.problems == [])
        #expect(verification.bundleID == summary.bundleID)
        #expect(verification.counts == summary.counts)

        let imported = path("imported.ferry")
        let result = try BundleImporter().importBundle(bundle, into: imported)
        #expect(result.backup == nil && !result.merged)
        let before = try TableContents(path: store), after = try TableContents(path: imported)
        #expect(before.withoutFerrysOwnTables == after.withoutFerrysOwnTables, "\(before.differences(from: after))")
        // The record digests came with the bundle: a later conversion must not take its rows on trust.
        #expect(before.tables["ferry_record_digest"]?.isEmpty == false)
        #expect(after.tables["ferry_record_digest"] == [] && after.tables["ferry_record_digest_stamp"] == [])
        #expect(try StoreFixtures.integrityProblems(imported) == [])
        // Nothing but the store is left beside it: the staging folder is gone.
        #expect(StoreFixtures.listing(directory.path).filter { $0.hasPrefix(".") } == [])
    }

    /// A bundle a Ferry of schema version 1 wrote (logs keyed by their primary key) imports whole
    /// into version 2, replacing a store or merged into one: the snapshot is upgraded in staging.
    @Test func aBundleOfSchemaVersion1ImportsWhole() throws {
        let current = try BundleFixtures.sampleStore(at: path("current.ferry"))
        let old = path("old.ferry")
        let queue = try DatabaseQueue(path: old)
        try StoreMigrations.migrator.migrate(queue, upTo: "v1-canonical")
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(sql: "ATTACH DATABASE ? AS current", arguments: [current])
            for table in CanonicalTables.all { try db.execute(sql: "INSERT INTO main.\(table) SELECT * FROM current.\(table)") }
            try db.execute(sql: "DETACH DATABASE current")
        }
        try queue.close()
        let bundle = path("old.tar.zst")
        let summary = try BundleExporter().export(store: old, to: bundle)
        #expect(summary.schemaVersion == 1 && summary.counts["log"] == 14)

        let imported = path("imported.ferry")
        _ = try BundleImporter().importBundle(bundle, into: imported)
        var before = try TableContents(path: old), after = try TableContents(path: imported)
        // Ferry's own tables are made by the migrations the import runs (the digests' empty).
        for table in ["grdb_migrations", "ferry_record_digest", "ferry_record_digest_stamp"] {
            before.tables[table] = nil
            after.tables[table] = nil
        }
        #expect(before == after, "\(before.differences(from: after))")
        #expect(try UntrustedStore.checkSchema(imported) == CanonicalStore.schemaVersion)
        #expect(try StoreFixtures.integrityProblems(imported) == [])

        let merged = try BundleImporter(merge: true).importBundle(bundle, into: current)
        #expect(merged.merged && merged.counts["log"] == 14)
        #expect(try TableContents(path: current).tables["log"] == before.tables["log"])
    }

    @Test func theSameStoreGivesTheSameBytes() throws {
        let store = try BundleFixtures.sampleStore(at: path("data.ferry"))
        try FileManager.default.createDirectory(atPath: path("again"), withIntermediateDirectories: true)
        for format in ArchiveFormat.allCases {
            let first = path("data.\(format.rawValue)"), second = path("again/data.\(format.rawValue)")
            _ = try BundleExporter(format: format).export(store: store, to: first)
            _ = try BundleExporter(format: format).export(store: store, to: second)
            #expect(try Data(contentsOf: URL(fileURLWithPath: first)) == Data(contentsOf: URL(fileURLWithPath: second)), "\(format)")
        }
    }

    /// Format 2's order: the declaration, the payload (each table's NDJSON and CSV parts, then
    /// the snapshot, then the other formats by name, the Data Package and the fidelity report),
    /// then what the payload decides, the view, and the tag manifest last.
    @Test func theArchiveOrderAndTablesAsNDJSONOfEveryRow() throws {
        let store = try BundleFixtures.sampleStore(at: path("data.ferry"))
        let bundle = path("data.tar.zst")
        _ = try BundleExporter().export(store: store, to: bundle)
        let entries = try BundleFixtures.entries(of: bundle)
        let names = entries.map(\.name)
        #expect(names.prefix(2) == ["data/bagit.txt", "data/data/tables/attachment/000001.ndjson"])
        let afterPayload = try #require(names.firstIndex { !$0.hasPrefix("data/data/") && $0 != "data/bagit.txt" })
        let snapshot = try #require(names.firstIndex(of: "data/data/store.sqlite"))
        #expect(names[..<snapshot].allSatisfy { $0 == "data/bagit.txt" || $0.hasPrefix("data/data/tables/") || $0.hasPrefix("data/data/attachments/")
                                                 || $0.hasPrefix("data/data/formats/csv/") })
        let formats = Array(names[(snapshot + 1)..<afterPayload])
        #expect(formats.suffix(2) == ["data/data/datapackage.json", "data/data/formats/fidelity.json"])
        #expect(formats.dropLast(2) == formats.dropLast(2).sorted() && formats.dropLast(2).allSatisfy { $0.hasPrefix("data/data/formats/") })
        #expect(formats.contains("data/data/formats/paprika/recipes.paprikarecipes") && formats.contains("data/data/formats/schema-org/recipes.jsonld"))
        #expect(names[..<afterPayload].dropFirst().allSatisfy { $0.hasPrefix("data/data/") })
        #expect(names[afterPayload...].prefix(4) == ["data/bag-info.txt", "data/bundle.json", "data/manifest-sha256.txt", "data/index.html"])
        #expect(names[(afterPayload + 4)...].dropLast().allSatisfy { $0.hasPrefix("data/view/") })
        #expect(names.last == "data/tagmanifest-sha256.txt")
        let files = Dictionary(entries.map { ($0.name, $0.bytes) }, uniquingKeysWith: { first, _ in first })
        let bundleJSON = try JSONSerialization.jsonObject(with: Data(files["data/bundle.json"] ?? [])) as? [String: Any]
        #expect(bundleJSON?["format"] as? String == "ferry.bundle/2")
        let queue = try DatabaseQueue(path: store)
        for table in CanonicalTables.all {
            #expect(files["data/data/tables/\(table)/000001.ndjson"] != nil, "every table has its first part: \(table)")
            let lines = String(decoding: BundleFixtures.table(table, of: entries), as: UTF8.self).split(separator: "\n")
            let count = try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM \(table)") ?? -1 }
            #expect(lines.count == count, "\(table)")
            for line in lines {
                #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any], "\(table): \(line)")
            }
        }
        // A recipe's title as the store holds it, and attachment bytes under their own hash.
        let title = try queue.read { try String.fetchOne($0, sql: "SELECT title FROM recipe ORDER BY id LIMIT 1") }!
        let recipes = String(decoding: BundleFixtures.table("recipe", of: entries), as: UTF8.self)
        #expect(recipes.contains("\"title\":\(String(decoding: try JSONSerialization.data(withJSONObject: title, options: .fragmentsAllowed), as: UTF8.self).replacingOccurrences(of: "\\/", with: "/"))"))
        let (sha, blob) = try queue.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT sha256, data FROM attachment_content")!
            return (row["sha256"] as String, row["data"] as Data)
        }
        #expect(files["data/data/attachments/\(sha)"] == Array(blob))
        let info = String(decoding: files["data/bag-info.txt"]!, as: UTF8.self)
        let payload = entries.filter { $0.name.hasPrefix("data/data/") }
        #expect(info.contains("Payload-Oxum: \(payload.reduce(0) { $0 + $1.bytes.count }).\(payload.count)\n"))
        try queue.close()
    }

    @Test func theUnpackedBagValidatesWithTheLibraryOfCongressBagit() throws {
        guard (try? CommandRunner.run("/usr/bin/env", ["python3", "-c", "import bagit"]).status) == 0,
              CommandRunner.isAvailable("tar"), CommandRunner.isAvailable("zstd") else {
            print("skipped: python3 bagit (pip install bagit), tar or zstd is not installed")
            return
        }
        let store = try BundleFixtures.sampleStore(at: path("data.ferry"))
        let bundle = path("Données été.tar.zst")
        _ = try BundleExporter().export(store: store, to: bundle)
        let unpacked = path("unpacked")
        try FileManager.default.createDirectory(atPath: unpacked, withIntermediateDirectories: true)
        let untar = try CommandRunner.run("/usr/bin/env", ["tar", "--zstd", "-xf", bundle, "-C", unpacked])
        #expect(untar.status == 0, "\(untar.stderr)")
        let validation = try CommandRunner.run("/usr/bin/env", ["python3", "-m", "bagit", "--validate", unpacked + "/Données été"])
        #expect(validation.status == 0, "\(validation.stderr)")
        #expect(validation.stderr.contains("is valid"))
    }

    @Test func nonASCIINamesRoundTrip() throws {
        let store = try BundleFixtures.sampleStore(at: path("Sammlung ü.ferry"))
        let bundle = path("Données été 日本.tar.zst")
        _ = try BundleExporter().export(store: store, to: bundle)
        #expect(try BundleFixtures.entries(of: bundle).first?.name == "Données été 日本/bagit.txt")
        #expect(try BundleVerifier().verify(bundle).problems == [])
        _ = try BundleImporter().importBundle(bundle, into: path("Ziel ß.ferry"))
        #expect(try TableContents(path: store).withoutFerrysOwnTables == TableContents(path: path("Ziel ß.ferry")).withoutFerrysOwnTables)
    }

    @Test func mergeUpsertsByIdAndKeepsTheStoresOwnRows() throws {
        let (store, bundle) = try BundleFixtures.exportedSamples(in: directory)
        // The target: the same data with one recipe renamed and one extra log.
        let target = try BundleFixtures.changedCopy(of: store, logs: 1)
        let queue = try DatabaseQueue(path: target)
        let recipe = try queue.write { db -> String in
            let id = try String.fetchOne(db, sql: "SELECT id FROM recipe ORDER BY id LIMIT 1")!
            try db.execute(sql: "UPDATE recipe SET title = 'Renamed here' WHERE id = ?", arguments: [id])
            return id
        }
        try queue.close()

        let result = try BundleImporter(merge: true).importBundle(bundle, into: target)
        #expect(result.merged && result.backup != nil)
        // What the merge did, per table: the renamed recipe changed back, every log was there.
        let merge = try #require(result.merge)
        #expect(merge["recipe"] == MergeCount(new: 0, changed: 1, unchanged: (result.counts["recipe"] ?? 0) - 1))
        #expect(merge["log"] == MergeCount(new: 0, changed: 0, unchanged: result.counts["log"] ?? -1))
        for (table, count) in merge { #expect(count.new + count.changed + count.unchanged == result.counts[table], "\(table)") }
        #expect(MergeCount.line(["log": MergeCount(new: 3), "recipe": MergeCount(changed: 1, unchanged: 1)]) == "new: 3 log; changed: 1 recipe; unchanged: 1 recipe")
        let merged = try DatabaseQueue(path: target)
        let (title, logs) = try merged.read { db in
            (try String.fetchOne(db, sql: "SELECT title FROM recipe WHERE id = ?", arguments: [recipe]),
             try Int.fetchOne(db, sql: "SELECT count(*) FROM log"))
        }
        #expect(title != nil && title != "Renamed here")
        #expect(logs == 15)
        try merged.close()
        // The backup is the target as it was before the merge.
        let backup = try DatabaseQueue(path: result.backup!)
        #expect(try backup.read { try String.fetchOne($0, sql: "SELECT title FROM recipe WHERE id = ?", arguments: [recipe]) } == "Renamed here")
        try backup.close()
    }

    /// Rows are looked for at the bundle's rowid first, then by key: a store holding the same
    /// logs at other rowids (another device's) merges to the same counts and rows.
    @Test func mergeFindsRowsThatSitAtOtherRowids() throws {
        let (store, bundle) = try BundleFixtures.exportedSamples(in: directory)
        let target = try BundleFixtures.changedCopy(of: store, logs: 1)
        let queue = try DatabaseQueue(path: target)
        let (changed, note) = try queue.write { db -> (String, String?) in
            let id = try #require(try String.fetchOne(db, sql: "SELECT id FROM log ORDER BY rowid LIMIT 1 OFFSET 3"))
            let note = try String.fetchOne(db, sql: "SELECT note FROM log WHERE id = ?", arguments: [id])
            try db.execute(sql: "UPDATE log SET note = 'Changed here' WHERE id = ?", arguments: [id])
            // Every other log and snapshot moves away from the rowid the bundle gives it.
            try db.execute(sql: "UPDATE log SET rowid = rowid + 1000 WHERE rowid % 2 = 0")
            try db.execute(sql: "UPDATE log_snapshot SET rowid = rowid + 1000 WHERE rowid % 2 = 1")
            return (id, note)
        }
        try queue.close()

        let result = try BundleImporter(merge: true).importBundle(bundle, into: target)
        let merge = try #require(result.merge)
        let logs = try #require(result.counts["log"])
        #expect(logs > 4)
        #expect(merge["log"] == MergeCount(new: 0, changed: 1, unchanged: logs - 1))
        #expect(merge["log_snapshot"] == MergeCount(new: 0, changed: 0, unchanged: result.counts["log_snapshot"] ?? -1))
        let merged = try DatabaseQueue(path: target)
        #expect(try merged.read { try String.fetchOne($0, sql: "SELECT note FROM log WHERE id = ?", arguments: [changed]) } == note)
        #expect(try merged.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM log") } == logs + 1)
        try merged.close()
    }

    @Test func replacingAStoreBacksItUpFirst() throws {
        let (store, bundle) = try BundleFixtures.exportedSamples(in: directory)
        let target = try BundleFixtures.changedCopy(of: store, logs: 3)
        let before = try TableContents(path: target)
        let result = try BundleImporter().importBundle(bundle, into: target)
        #expect(try TableContents(path: result.backup!) == before)
        #expect(try TableContents(path: target).withoutFerrysOwnTables == TableContents(path: store).withoutFerrysOwnTables)
    }

    @Test func anExistingBundleIsNeverOverwritten() throws {
        let store = try BundleFixtures.sampleStore(at: path("data.ferry"))
        let bundle = try directory.write("keep me", to: "data.tar.zst")
        #expect(throws: BundleError.self) { try BundleExporter().export(store: store, to: bundle) }
        #expect(try String(contentsOfFile: bundle, encoding: .utf8) == "keep me")
    }
}
