import FerryCoreData
import FerryJSON
import FerryModel
import FerryTestSupport
import Foundation
import GRDB
import Testing

/// The project's own fixture for Core Data's SQL mapping (`make samples` writes it): one case of
/// each rule, read back value by value. Each name below is the one Core Data gives, as the real
/// stores of the corpus show (Formats/coredata-sql-mapping.md).
@Suite struct SQLMappingFixtureTests {
    static let folder = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/SQLMapping")
    static let storePath = folder.appendingPathComponent("Gallery.sqlite").path
    static let modelPath = folder.appendingPathComponent("Gallery.xcdatamodeld").path

    private func records() throws -> [String: [String: JSONObject]] {
        let reader = try CoreDataStoreReader(path: Self.storePath, model: Self.modelPath)
        #expect(reader.mapping.problems.isEmpty && reader.notes.isEmpty)
        var byEntity: [String: [String: JSONObject]] = [:]
        try reader.forEachRecord { byEntity[$0.entity, default: [:]][$0.id] = $0.values }
        return byEntity
    }

    private func columns(_ table: String) throws -> [String] {
        let directory = TemporaryDirectory()
        let copy = try writableCopy(of: Self.storePath, into: directory)
        return try DatabaseQueue(path: copy).read { db in try db.columns(in: table).map(\.name) }
    }

    @Test func siblingSubentitiesSharingANameGetANumberedColumn() throws {
        #expect(try columns("ZMESSAGE") == ["Z_PK", "Z_ENT", "Z_OPT", "ZSENTAT", "ZTEXT", "ZTEXT1"])
        let messages = try records()
        #expect(messages["SystemMessage"]?["SystemMessage/p1"]?["text"] == "moved to storage")
        #expect(messages["TextMessage"]?["TextMessage/p2"]?["text"] == "on loan to Paris")
    }

    @Test func joinTableColumnsAreNumberedAcrossJoinTables() throws {
        #expect(try columns("Z_1EXHIBITS") == ["Z_1ARTWORKS", "Z_2EXHIBITS", "Z_FOK_1ARTWORKS"])
        #expect(try columns("Z_1SHOWS") == ["Z_1ARTWORKS1", "Z_8SHOWS"])
        let all = try records()
        #expect(all["Show"]?["Show/p1"]?["artworks"] == .array(["Artwork/p1", "Artwork/p2"]))
        #expect(all["Artwork"]?["Artwork/p2"]?["shows"] == .array(["Show/p1"]))
        // Exhibit.artworks is ordered: its order column, not the keys, decides.
        #expect(all["Exhibit"]?["Exhibit/p1"]?["artworks"] == .array(["Artwork/p3", "Artwork/p1"]))
    }

    @Test func toManyWithoutInverseIsAColumnOfTheDestination() throws {
        #expect(try columns("ZARTWORK").contains("Z3FEATURED"))
        #expect(try records()["Gallery"]?["Gallery/p1"]?["featured"] == .array(["Artwork/p2", "Artwork/p3"]))
    }

    @Test func toOneToAnEntityWithSubentitiesKeepsItsEntityNumber() throws {
        #expect(try columns("ZARTWORK") == ["Z_PK", "Z_ENT", "Z_OPT", "ZYEAR", "ZNOTE", "Z4_NOTE", "Z3FEATURED", "ZTITLE"])
        let artworks = try records()["Artwork"] ?? [:]
        #expect(artworks["Artwork/p1"]?["note"] == "TextMessage/p2")
        #expect(artworks["Artwork/p2"]?["note"] == "SystemMessage/p1")
        #expect(artworks["Artwork/p3"]?["note"] == .null)
    }

    @Test func orderedToManyFollowsItsOrderColumn() throws {
        #expect(try columns("ZROOM") == ["Z_PK", "Z_ENT", "Z_OPT", "ZGALLERY", "Z_FOK_GALLERY", "ZLABEL"])
        #expect(try records()["Gallery"]?["Gallery/p1"]?["rooms"] == .array(["Room/p2", "Room/p1"]))
    }

    @Test func theFixtureIsWhatMakeSamplesWrites() throws {
        let directory = TemporaryDirectory()
        let model = directory.url.appendingPathComponent("Gallery.xcdatamodeld/Gallery.xcdatamodel")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.folder.appendingPathComponent("Gallery.xcdatamodeld/Gallery.xcdatamodel/contents"),
                                         to: model.appendingPathComponent("contents"))
        try SampleStores.sqlMapping(directory.url)
        var fresh = try TableContents(path: directory.url.appendingPathComponent("Gallery.sqlite").path)
        var committed = try TableContents(path: Self.storePath)
        // Z_METADATA's plist is a dictionary whose byte order Foundation does not fix.
        fresh.tables["Z_METADATA"] = nil
        committed.tables["Z_METADATA"] = nil
        #expect(fresh == committed)
    }

    @Test func aTableNoModelMadeIsAWarningNotARefusal() throws {
        let directory = TemporaryDirectory()
        let copy = try writableCopy(of: Self.storePath, into: directory)
        try DatabaseQueue(path: copy).write { db in
            try db.execute(sql: "CREATE TABLE ANALYTICS_EVENTS (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO ANALYTICS_EVENTS (name) VALUES ('open')")
        }
        let reader = try CoreDataStoreReader(path: copy, model: Self.modelPath)
        #expect(reader.notes.contains { $0.contains("ANALYTICS_EVENTS") && $0.contains("not part of this model") })
        var count = 0
        try reader.forEachRecord { _ in count += 1 }
        #expect(count == 10)
    }

    @Test func aColumnTheModelNeedsAndTheStoreLacksIsARefusalNamingIt() throws {
        let directory = TemporaryDirectory()
        let copy = try writableCopy(of: Self.storePath, into: directory)
        try DatabaseQueue(path: copy).write { db in try db.execute(sql: "ALTER TABLE ZMESSAGE DROP COLUMN ZTEXT1") }
        #expect {
            try CoreDataStoreReader(path: copy, model: Self.modelPath, version: "Gallery")
        } throws: { error in
            "\(error)".contains("ZTEXT1") && "\(error)".contains("ZMESSAGE")
        }
    }

    /// A store of two merged models: either model alone reads its own entities by their names,
    /// and the others from the store's tables, with a warning naming them.
    @Test(arguments: [("Visitors", ["Ticket", "Visitor"]), ("Gallery", ["Artwork", "Exhibit", "Gallery", "Message", "Room", "Show", "SystemMessage", "TextMessage"])])
    func aModelDescribingPartOfAStoreReadsItsPart(model: String, own: [String]) throws {
        let store = Self.folder.appendingPathComponent("Merged.sqlite").path
        let reader = try CoreDataStoreReader(path: store, model: Self.folder.appendingPathComponent("\(model).xcdatamodeld").path)
        #expect(reader.versionMatch?.method == .partOfStore && reader.versionMatch?.version == model)
        let others = reader.schema.entities.map(\.name).filter { !own.contains($0) }.sorted()
        #expect(reader.notes.contains { $0.contains("describes \(own.count) of the store's entities") && $0.contains(others.joined(separator: ", ")) })
        var counts: [String: Int] = [:]
        try reader.forEachRecord { counts[$0.entity, default: 0] += 1 }
        let expected = try independentCounts(of: store)
        for entry in reader.schema.entities {
            #expect(counts[entry.name] ?? 0 == expected[entry.number] ?? 0, "\(entry.name)")
        }
        if model == "Visitors" {
            var visitor: CoreDataRecord?
            try reader.forEachRecord(entity: "Visitor") { visitor = $0 }
            #expect(visitor?.values["tickets"] == .array(["Ticket/p1", "Ticket/p2"]))
            #expect(visitor?.values["since"] == "2023-11-02T12:00:00Z")
        }
    }

    /// The fixture's persistent history, decoded change by change: types, entities, records,
    /// authors, the bundle id kept once in ATRANSACTIONSTRING, and times.
    @Test func persistentHistoryComesOutAsItWasRecorded() throws {
        let reader = try CoreDataStoreReader(path: Self.storePath, model: Self.modelPath)
        #expect(try PersistentHistory.summary(of: reader)?.changeTypes == ["insert": 4, "update": 1, "delete": 1])
        var lines: [String] = []
        try PersistentHistory.forEachChange(of: reader) { change in
            let transaction = change["transaction"]?.object
            lines.append([change["type"]?.string, change["entity"]?.string, change["record"]?.string, transaction?["author"]?.string ?? "-",
                          transaction?["bundleID"]?.string, transaction?["time"]?.string].map { $0 ?? "?" }.joined(separator: " "))
        }
        #expect(lines == [
            "insert SystemMessage SystemMessage/p1 app com.example.gallery 2024-03-02T10:30:00Z",
            "insert TextMessage TextMessage/p2 app com.example.gallery 2024-03-02T10:30:00Z",
            "insert Artwork Artwork/p1 app com.example.gallery 2024-03-02T10:30:00Z",
            "update Artwork Artwork/p1 - com.example.gallery.share 2024-05-10T18:00:00.5Z",
            "insert Show Show/p1 - com.example.gallery.share 2024-05-10T18:00:00.5Z",
            // A deleted object is named by its key: its row is gone.
            "delete Artwork Artwork/p9 app com.example.gallery 2024-06-01T08:00:00Z",
        ])
        // History tables are Core Data's own: no warning, no entity.
        #expect(reader.notes.isEmpty && reader.mapping.entity(number: 16001) == nil)
    }
}
