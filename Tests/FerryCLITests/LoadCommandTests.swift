import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

/// `ferry dump -o DIR` then `ferry load DIR --model M --to NEW` from the command line: the new
/// store dumps the same records; a bad record and a taken path get their exit statuses.
@Suite struct LoadCommandTests {
    let directory = TemporaryDirectory("ferry-cli-load")
    static let model = TestPaths.corpus.appendingPathComponent(
        "coredata-sqlite/02__wibosco__CoreDataMigration-Example/CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld").path
    static let store = TestPaths.files(under: TestPaths.corpus.appendingPathComponent("coredata-sqlite")) { $0.hasSuffix("_WAL.sqlite") }.first ?? ""

    func path(_ name: String) -> String { directory.url.appendingPathComponent(name).path }

    @Test(.needsCorpus) func aDumpLoadsIntoAStoreThatDumpsTheSame() throws {
        #expect(try ferry("dump", Self.store, "--model", Self.model, "-o", path("records")).status == 0)
        let load = try ferry("load", path("records"), "--model", Self.model, "--to", path("New.sqlite"))
        #expect(load.status == 0, "\(load.stderr)")
        #expect(load.stderr.contains("records of") && load.stderr.contains("written to \(path("New.sqlite"))"))
        let before = try ferry("dump", Self.store, "--model", Self.model)
        let after = try ferry("dump", path("New.sqlite"), "--model", Self.model)
        #expect(after.status == 0 && !after.stdout.isEmpty && after.stdout == before.stdout)
        #expect(after.stderr.contains(#"version "CoreDataMigration_Example 4" (matched by the store's entity version hashes)"#), "\(after.stderr)")
        let checked = try ferry("check", path("New.sqlite"), "--model", Self.model)
        #expect(checked.status == 0 && checked.stdout.contains("no findings"), "\(checked.stdout)")
        // Without the model, through the cache: the same records.
        #expect(try ferry("dump", path("New.sqlite")).stdout == after.stdout)

    }

    /// A store of merged models: `--model` once per model; `--version` is for one model only.
    @Test func aStoreOfMergedModelsTakesEachModel() throws {
        let notes = try directory.write("""
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Note" syncable="YES"><attribute name="text" optional="YES" attributeType="String"/></entity>
            </model>
            """, to: "Notes.xcdatamodel/contents")
        let gallery = "Tests/Fixtures/SQLMapping/Gallery.xcdatamodeld"
        try FileManager.default.createDirectory(atPath: path("records"), withIntermediateDirectories: true)
        try Data(#"{"entity":"Note","id":"n1","values":{"text":"Lent to the Getty"}}"#.utf8).write(to: URL(fileURLWithPath: path("records/Note.ndjson")))
        try Data(#"{"entity":"Artwork","id":"a1","values":{"title":"Irises","year":1889}}"#.utf8).write(to: URL(fileURLWithPath: path("records/Artwork.ndjson")))
        let alone = try ferry("load", path("records"), "--model", gallery, "--to", path("Alone.sqlite"))
        #expect(alone.status == 65 && alone.stderr.contains("give each with its own --model"), "\(alone.stderr)")
        let model = (notes as NSString).deletingLastPathComponent
        let merged = try ferry("load", path("records"), "--model", gallery, "--model", model, "--to", path("Merged.sqlite"))
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stderr.contains("2 records of 2 entities written"))
        let dumped = try ferry("dump", path("Merged.sqlite"), "--entity", "Note")
        #expect(dumped.stdout.contains(#""text":"Lent to the Getty""#))
        let versioned = try ferry("load", path("records"), "--model", gallery, "--model", model, "--version", "Gallery", "--to", path("V.sqlite"))
        #expect(versioned.status == 64)
    }

    /// Loading over a store keeps a verified backup of it first, as every command that replaces one.
    @Test(.needsCorpus) func aStoreLoadedOverIsBackedUpFirst() throws {
        #expect(try ferry("dump", Self.store, "--model", Self.model, "-o", path("records")).status == 0)
        let target = path("Target.sqlite")
        try FileManager.default.copyItem(atPath: Self.store, toPath: target)
        let before = try TableContents(path: target)
        let load = try ferry("load", path("records"), "--model", Self.model, "--to", target)
        #expect(load.status == 0, "\(load.stderr)")
        let backups = try FileManager.default.contentsOfDirectory(atPath: target + ".backups").filter { !$0.hasPrefix(".") }
        #expect(backups.count == 1)
        #expect(load.stderr.contains("(the store it replaced is kept as \(target).backups/\(backups.first ?? "")"), "\(load.stderr)")
        #expect(try TableContents(path: target + ".backups/" + (backups.first ?? "")) == before)
        #expect(try ferry("dump", target, "--model", Self.model).stdout == ferry("dump", Self.store, "--model", Self.model).stdout)
    }

    @Test(.needsCorpus) func aBadRecordExitsWith65AndLeavesNothing() throws {
        let records = path("bad")
        try FileManager.default.createDirectory(atPath: records, withIntermediateDirectories: true)
        try Data(#"{"entity":"Post","id":"p1","values":{"color":"Color/p9"}}"#.utf8).write(to: URL(fileURLWithPath: records + "/Post.ndjson"))
        let result = try ferry("load", records, "--model", Self.model, "--to", path("Bad.sqlite"))
        #expect(result.status == 65)
        #expect(result.stderr == "ferry: error: \(records)/Post.ndjson: record 1: id p1: field \"color\": links to Color/p9, which no record has\n")
        #expect(!FileManager.default.fileExists(atPath: path("Bad.sqlite")))
    }
}
