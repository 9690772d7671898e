@testable import FerryCoreData
import FerryModel
import FerryTestSupport
import Foundation
import GRDB
import Testing

/// ``CoreDataDumpLoader`` holds a few bytes per record, not the records: each id form a dump
/// has (an upper-case UUID, `<Entity>/p<pk>`, any other text) finds its record, records without
/// a pk are numbered after their table's highest, and records the first pass cannot read in
/// place (escapes, members in another order) are read whole and go in the same.
@Suite struct DumpKeyIndexTests {
    static let upper = "6F61047C-BF3E-4B1D-89F0-8F92BD492A7F"

    @Test func everyFormOfIdFindsItsRecord() throws {
        let directory = TemporaryDirectory()
        let records = directory.url.appendingPathComponent("records").path
        _ = try directory.write("""
            {"entity":"Gallery","id":"\(Self.upper)","pk":3,"values":{"city":"Oslo","rooms":["Room/p5","x\\"y"]},"orders":{"rooms":[7,9]}}
            {"entity":"Gallery","id":"\(Self.upper.lowercased())","values":{"city":"Bergen","rooms":["Room/p1"]}}

            """, to: "records/Gallery.ndjson")
        _ = try directory.write("""
            {"entity":"Room","id":"Room/p5","pk":5,"values":{"label":"east","gallery":"\(Self.upper)"}}
            {"values":{"label":"west","gallery":"\(Self.upper)"},"pk":2,"id":"x\\"y","entity":"Room"}
            {"entity":"Room","id":"Room/p1","values":{"label":"north","gallery":"\(Self.upper.lowercased())"}}
            """, to: "records/Room.ndjson")
        let model = try ModelBundle(at: DumpLoadTests.galleryModel).currentModel()
        let store = directory.url.appendingPathComponent("out.sqlite").path
        let counts = try CoreDataDumpLoader(model: model).load(from: records, to: store)
        #expect(counts == ["Gallery": 2, "Room": 3])
        let queue = try DatabaseQueue(path: store)
        let galleries = try queue.read { try Row.fetchAll($0, sql: "SELECT Z_PK, ZCITY FROM ZGALLERY ORDER BY Z_PK") }
        #expect(galleries.map { [$0[0] as Int64, $0[1] as String] as [AnyHashable] } == [[3, "Oslo"], [4, "Bergen"]])
        // The upper-case UUID's gallery, and the lower-case one (another id), ordered as listed.
        let rooms = try queue.read { try Row.fetchAll($0, sql: "SELECT Z_PK, ZLABEL, ZGALLERY, Z_FOK_GALLERY FROM ZROOM ORDER BY Z_PK") }
        #expect(rooms.map { [$0[0] as Int64, $0[1] as String, $0[2] as Int64, $0[3] as Int64] as [AnyHashable] }
                == [[2, "west", 3, 9], [5, "east", 3, 7], [6, "north", 4, 1]])
        let highest = try queue.read { try Row.fetchAll($0, sql: "SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME IN ('Gallery', 'Room') ORDER BY Z_NAME") }
        #expect(highest.map { [$0[0] as String, $0[1] as Int64] as [AnyHashable] } == [["Gallery", 4], ["Room", 6]])
    }

    /// Text goes in whole, bound by its length: a NUL inside it does not end it.
    @Test func textWithANulGoesInWhole() throws {
        let directory = TemporaryDirectory()
        _ = try directory.write(#"{"entity":"Room","id":"r1","pk":1,"values":{"label":"a\u0000b é"}}"# + "\n", to: "records/Room.ndjson")
        let model = try ModelBundle(at: DumpLoadTests.galleryModel).currentModel()
        let store = directory.url.appendingPathComponent("out.sqlite").path
        _ = try CoreDataDumpLoader(model: model).load(from: directory.url.appendingPathComponent("records").path, to: store)
        let stored = try DatabaseQueue(path: store).read { try Data.fetchOne($0, sql: "SELECT CAST(ZLABEL AS BLOB) FROM ZROOM") }
        #expect(stored == Data("a\u{0}b é".utf8))
    }

    @Test func onlyARecordsOwnEntityAndKeyNameIt() {
        func named(_ id: String, _ name: String, _ key: Int64) -> Bool {
            var id = id
            return id.withUTF8 { DumpKeyIndex.isName($0, of: name, key: key) }
        }
        #expect(named("Room/p5", "Room", 5))
        #expect(named("Room/p9223372036854775807", "Room", .max))
        for (id, key) in [("Room/p05", 5), ("Room/p5", 6), ("Rooms/p5", 5), ("Room/5", 5), ("Room/p", 0), ("Room/p-5", -5), ("Room/p5 ", 5),
                          ("Room/p99999999999999999999", 5)] as [(String, Int64)] {
            #expect(!named(id, "Room", key), "\(id)")
        }
        func uuid(_ id: String) -> Bool {
            var id = id
            return id.withUTF8 { DumpKeyIndex.upperCaseUUID($0) } != nil
        }
        #expect(uuid(Self.upper))
        #expect(!uuid(Self.upper.lowercased()))
        #expect(!uuid("6F61047C-BF3E-4B1D-89F0-8F92BD492A7G"))
        #expect(!uuid("6F61047CXBF3E-4B1D-89F0-8F92BD492A7F"))
        #expect(!uuid(String(Self.upper.dropLast())))
    }

    /// The same id in two forms is one id given twice; the first clash in the files' order is named.
    @Test func aClashIsFoundWhateverTheIdsForm() {
        var index = DumpKeyIndex(entities: [("Room", "ZROOM"), ("Gallery", "ZGALLERY")])
        func add(_ id: String, _ entity: UInt16, _ key: Int64?, line: Int) {
            var id = id
            id.withUTF8 { index.add(entity: entity, id: $0, primaryKey: key, file: 0, line: line) }
        }
        add("Room/p1", 0, 1, line: 1)
        add(Self.upper, 1, nil, line: 2)
        add("free text", 0, nil, line: 3)
        add("Room/p1", 0, 2, line: 4)           // text here: its pk is 2
        add(Self.upper, 0, 7, line: 5)
        #expect(index.seal() == DumpKeyIndex.Clash(kind: .id, first: 0, second: 3))
        #expect(index.entry(ofID: "Room/p1") != nil)
        #expect(index.entries.map(\.primaryKey) == [1, 1, 8, 2, 7])
    }
}
