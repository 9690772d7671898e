import FerryCoreData
import FerryJSON
import FerryModel
import FerryTestSupport
import Foundation
import GRDB
import Testing

/// ``CoreDataStoreWriter`` on the repository's own Gallery model (one case of each mapping
/// rule): what it writes reads back as written, and a bad record is named and leaves nothing.
@Suite struct StoreWriterTests {
    let directory = TemporaryDirectory("ferry-store-writer")
    static let modelPath = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/SQLMapping/Gallery.xcdatamodeld").path

    func model() throws -> DataModel { try ModelBundle(at: Self.modelPath).currentModel() }
    func path(_ name: String) -> String { directory.url.appendingPathComponent(name).path }

    @Test func whatIsWrittenReadsBackAsWritten() throws {
        let store = path("Gallery.sqlite")
        let writer = try CoreDataStoreWriter(creating: store, model: try model())
        let gallery = try writer.insert("Gallery", attributes: ["city": .text("London")])
        let room = try writer.insert("Room", attributes: ["label": .text("Room 2")], toOne: ["gallery": ("Gallery", gallery)])
        try writer.setOrder("Room", primaryKey: room, inverse: "gallery", order: 1)
        let note = try writer.insert("TextMessage", attributes: ["text": .text("on loan"), "sentAt": .real(750_000_000)])
        let artwork = try writer.insert("Artwork", attributes: ["title": .text("Flatford Mill"), "year": .integer(1817)],
                                        toOne: ["note": ("TextMessage", note)])
        let show = try writer.insert("Show", attributes: ["opening": .real(751_000_000)])
        try writer.link("Show", primaryKey: show, "artworks", to: [artwork])
        try writer.link("Gallery", primaryKey: gallery, "featured", to: [artwork])
        #expect(!FileManager.default.fileExists(atPath: store), "nothing at the path before finish")
        try writer.finish(storeUUID: "0F0F0F0F-0000-4000-8000-000000000001")

        let reader = try CoreDataStoreReader(path: store, model: Self.modelPath)
        #expect(reader.versionMatch?.method == .computedVersionHashes)
        #expect(reader.metadata.storeUUID == "0F0F0F0F-0000-4000-8000-000000000001")
        var records: [String: JSONValueText] = [:]
        try reader.forEachRecord { records[$0.id] = JSONValueText($0.json) }
        #expect(records.count == 5)
        #expect(records["Artwork/p1"]?.text.contains(#""note":"TextMessage/p1""#) == true, "\(records)")
        #expect(records["Artwork/p1"]?.text.contains(#""shows":["Show/p1"]"#) == true, "\(records)")
        #expect(records["Gallery/p1"]?.text.contains(#""featured":["Artwork/p1"]"#) == true, "\(records)")
        #expect(records["Gallery/p1"]?.text.contains(#""rooms":["Room/p1"]"#) == true, "\(records)")
        #expect(records["TextMessage/p1"]?.text.contains(#""sentAt":"2024-10-07T13:20:00Z"#) == true, "\(records)")
        #expect(try StoreFixtures.integrityProblems(store) == [])
    }

    @Test func anExistingFileIsNeverWrittenOver() throws {
        let store = try directory.write("keep me", to: "taken.sqlite")
        #expect(throws: CoreDataWriteError.self) { try CoreDataStoreWriter(creating: store, model: try model()) }
        #expect(try String(contentsOfFile: store, encoding: .utf8) == "keep me")
    }

    /// The path is checked again when the store is put there: a file made meanwhile stays.
    @Test func aFileMadeWhileWritingIsNotReplaced() throws {
        let store = path("Raced.sqlite")
        let writer = try CoreDataStoreWriter(creating: store, model: try model())
        try writer.insert("Room", attributes: ["label": .text("A")])
        _ = try directory.write("made meanwhile", to: "Raced.sqlite")
        #expect { try writer.finish() } throws: { ($0 as? CoreDataWriteError)?.kind == .exists }
        #expect(try String(contentsOfFile: store, encoding: .utf8) == "made meanwhile")
    }

    /// What runs before the store is put in place (`convert --as core-data`'s check of the
    /// canonical store it copied) sees it whole; when it fails, the file at the path stays as it
    /// was and the new store is removed.
    @Test func aFailureBeforePublishingLeavesThePathAsItWas() throws {
        struct CheckFailed: Error {}
        for existing in [false, true] {
            let store = path("Checked-\(existing).sqlite")
            if existing { _ = try directory.write("the user's store", to: "Checked-\(existing).sqlite") }
            var seen: [String] = []
            do {
                let writer = try CoreDataStoreWriter(creating: store, model: try model(), replacing: existing)
                try writer.insert("Room", attributes: ["label": .text("A")])
                #expect(throws: CheckFailed.self) {
                    try writer.finish {
                        seen = StoreFixtures.listing(directory.path)
                        throw CheckFailed()
                    }
                }
            }
            #expect(seen.count == (existing ? 2 : 1), "the new store, whole in one file: \(seen)")
            if existing {
                #expect(try String(contentsOfFile: store, encoding: .utf8) == "the user's store")
            } else {
                #expect(!FileManager.default.fileExists(atPath: store))
            }
            #expect(StoreFixtures.listing(directory.path) == (existing ? ["Checked-true.sqlite"] : []), "no temporary file left")
            try? FileManager.default.removeItem(atPath: store)
        }
    }

    @Test func aBadRecordIsNamedAndLeavesNothing() throws {
        let store = path("Bad.sqlite")
        do {
            let writer = try CoreDataStoreWriter(creating: store, model: try model())
            try writer.insert("Room", primaryKey: 7, attributes: ["label": .text("A")])
            #expect { try writer.insert("Room", primaryKey: 7) } throws: { "\($0)".contains("Room Z_PK 7") && "\($0)".contains("UNIQUE") }
            #expect { try writer.insert("Room", attributes: ["colour": .text("red")]) } throws: { "\($0)".contains("\"colour\"") }
            #expect { try writer.insert("Message") } throws: { "\($0)".contains("no entity \"Message\"") }
            #expect { try writer.insert("Statue") } throws: { "\($0)".contains("no entity \"Statue\"") }
            #expect { try writer.insert("Room", primaryKey: Int64.max) } throws: { "\($0)".contains("a key is a whole number from 1 to") }
            #expect { try writer.insert("Room", toOne: ["gallery": ("Room", 7)]) } throws: { "\($0)".contains("gallery leads to Gallery, not to Room") }
        }
        #expect(StoreFixtures.listing(directory.path) == [], "no store and no temporary file")
    }
}

/// A record's JSON as text, for looking for a member in it.
struct JSONValueText: CustomStringConvertible {
    var text: String
    init(_ value: JSONValue) { text = JSONWriter.string(value) }
    var description: String { text }
}
