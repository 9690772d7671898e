import FerryCoreData
import FerryJSON
import FerryModel
import FerryTestSupport
import FerryTestTraits
import Foundation
import GRDB
import Testing

/// `dump -o DIR`, then ``CoreDataDumpLoader`` into a new store, then `dump` again: the same
/// records, byte for byte, on the repository's Gallery store and on every corpus store whose
/// values can be written back; bad records are named and leave nothing.
@Suite struct DumpLoadTests {
    static let galleryStore = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/SQLMapping/Gallery.sqlite").path
    static let galleryModel = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/SQLMapping/Gallery.xcdatamodeld").path

    /// Each `<Entity>.ndjson` file's bytes.
    static func dumped(_ store: String, model: String, into directory: String) throws -> [String: Data] {
        let reader = try CoreDataStoreReader(path: store, model: model)
        _ = try CoreDataStoreDump().write(reader, toDirectory: directory)
        return try Dictionary(uniqueKeysWithValues: FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".ndjson") }.map {
            ($0, try Data(contentsOf: URL(fileURLWithPath: (directory as NSString).appendingPathComponent($0))))
        })
    }

    static func roundTrip(_ store: String, model modelPath: String, in directory: TemporaryDirectory) throws -> (before: [String: Data], after: [String: Data]) {
        let first = directory.url.appendingPathComponent("first").path, second = directory.url.appendingPathComponent("second").path
        let before = try dumped(store, model: modelPath, into: first)
        let reader = try CoreDataStoreReader(path: store, model: modelPath)
        let framework = reader.metadata.frameworkVersion.flatMap { Int($0) } ?? CoreDataStoreWriter.defaultFrameworkVersion
        let loaded = directory.url.appendingPathComponent("loaded.sqlite").path
        _ = try CoreDataDumpLoader(model: reader.model, frameworkVersion: framework).load(from: first, to: loaded)
        return (before, try dumped(loaded, model: modelPath, into: second))
    }

    @Test func theGalleryStoreDumpsTheSameAfterLoading() throws {
        let (before, after) = try Self.roundTrip(Self.galleryStore, model: Self.galleryModel, in: TemporaryDirectory())
        #expect(before.count >= 6)
        #expect(after == before)
    }

    /// 12 of the 15 go back whole; Wire's three later stores hold external data references
    /// (their files are not in the corpus), which are refused, named, as not written back yet.
    @Test(.needsCorpus, arguments: SQLLayoutCorpusTests.storesWithModels)
    func aCorpusStoreDumpsTheSameAfterLoading(_ store: CorpusStore) throws {
        let directory = TemporaryDirectory()
        do {
            let (before, after) = try Self.roundTrip(store.storePath, model: store.modelPath, in: directory)
            #expect(after == before, "\(store.testDescription)")
        } catch let error as CoreDataReadError {
            // What cannot be written back yet is named with its record and field.
            guard case .badRecord(let reason) = error.kind else { throw error }
            let model = try CoreDataStoreReader(path: store.storePath, model: store.modelPath).model
            #expect(model.entities.contains { $0.attributes.contains { $0.allowsExternalBinaryDataStorage || $0.type == .transformable } },
                    "\(store.testDescription): only external data and Transformables are not written back")
            #expect(reason.contains("not written back yet") || reason.contains("base64 text only"), "\(store.testDescription): \(error)")
            #expect(error.location.key != nil && error.location.field != nil)
            #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("loaded.sqlite").path))
        }
    }

    /// The acceptance round trip: `dump --lossless -o`, then load with the version, framework
    /// version and `Z_MAX` the dump recorded: every row of every entity and join table back.
    @Test(.needsCorpus, arguments: SQLLayoutCorpusTests.storesWithModels)
    func aLosslessDumpLoadsBackRowForRow(_ store: CorpusStore) throws {
        let directory = TemporaryDirectory()
        let records = directory.url.appendingPathComponent("records").path
        let reader = try CoreDataStoreReader(path: store.storePath, model: store.modelPath)
        _ = try CoreDataStoreDump(lossless: true).write(reader, toDirectory: records)
        let dumped = try #require(try CoreDataDumpLoader.DumpedStore(directory: records))
        #expect(dumped.lossless && dumped.version == store.expectedVersion)
        let loaded = directory.url.appendingPathComponent("loaded.sqlite").path
        _ = try CoreDataDumpLoader(model: reader.model).load(from: records, to: loaded)
        let layout = CoreDataSQLLayout(model: reader.model, frameworkVersion: dumped.frameworkVersion)
        try StoreWriterCorpusTests.expectSameStore(loaded, as: store, model: reader.model, layout: layout)
    }

    /// A row whose `Z_ENT` names no entity of its table (another tool's row, an old model's) was
    /// skipped unseen. In a table of one entity Core Data reads it as that entity: so do dump and
    /// inspect, and a lossless dump keeps its `Z_ENT`, so that load writes the same row. In a
    /// hierarchy's table it is named, not read, and a lossless dump refuses.
    @Test func rowsOfNoKnownEntityAreReadOrNamed() throws {
        let directory = TemporaryDirectory()
        let store = try directory.write(Data(contentsOf: URL(fileURLWithPath: Self.galleryStore)), to: "Gallery.sqlite")
        let queue = try DatabaseQueue(path: store)
        try queue.write { db in
            try db.execute(sql: "INSERT INTO ZARTWORK (Z_PK, Z_ENT, Z_OPT, ZYEAR, ZTITLE) VALUES (50, 9, 1, 1900, 'Stray'), (51, NULL, 3, 1901, 'No entity')")
        }
        let reader = try CoreDataStoreReader(path: store, model: Self.galleryModel)
        #expect(reader.entityCounts().first { $0.entity == "Artwork" }?.rows == 5)
        var titles: [String] = []
        let warnings = try reader.forEachRecord(entity: "Artwork") { titles.append($0.values["title"]?.string ?? "") }
        #expect(titles.suffix(2) == ["Stray", "No entity"])
        #expect(warnings.keys.contains { $0.contains("ZARTWORK: 2 row(s) whose Z_ENT (NULL, 9) names no entity stored in the table (first Z_PK 50); read as Artwork") })
        let records = directory.url.appendingPathComponent("records").path
        _ = try CoreDataStoreDump(lossless: true).write(reader, toDirectory: records)
        let loaded = directory.url.appendingPathComponent("loaded.sqlite").path
        _ = try CoreDataDumpLoader(model: reader.model).load(from: records, to: loaded)
        let rows = "SELECT Z_PK, Z_ENT, Z_OPT, ZYEAR, ZTITLE FROM ZARTWORK ORDER BY Z_PK"
        #expect(try DatabaseQueue(path: loaded).read { try Row.fetchAll($0, sql: rows) } == queue.read { try Row.fetchAll($0, sql: rows) })

        // ZMESSAGE holds Message, SystemMessage and TextMessage: a row of entity 9 there is none of them.
        try queue.write { db in try db.execute(sql: "INSERT INTO ZMESSAGE (Z_PK, Z_ENT, Z_OPT) VALUES (70, 9, 1)") }
        let again = try CoreDataStoreReader(path: store, model: Self.galleryModel)
        let named = try again.forEachRecord(of: nil) { _ in }
        #expect(named.keys.contains { $0.hasPrefix("ZMESSAGE: 1 row(s) whose Z_ENT (9) names no entity stored in the table (first Z_PK 70); not dumped") })
        let refused = try #require(throws: CoreDataReadError.self) {
            try CoreDataStoreDump(lossless: true).write(again, toDirectory: directory.url.appendingPathComponent("refused").path)
        }
        #expect("\(refused)".contains("ZMESSAGE: 1 row(s) whose Z_ENT (9)"))
    }

    /// A store of merged models (an app's and a framework's) dumps every entity; loading that
    /// dump takes each model, merged as Core Data merges them, and gives the same records back.
    /// With the app's model alone, the first foreign entity is named with what to do.
    @Test func aStoreOfMergedModelsLoadsWithEachModel() throws {
        let directory = TemporaryDirectory()
        let gallery = try ModelBundle(at: Self.galleryModel).currentModel()
        let notes = try ModelParser().parse(data: Data("""
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Note" representedClassName="Note" syncable="YES">
                    <attribute name="text" optional="YES" attributeType="String"/>
                    <attribute name="written" optional="YES" attributeType="Date"/>
                </entity>
            </model>
            """.utf8), file: "Notes.xcdatamodel/contents", versionName: "Notes")
        let merged = try DataModel(merging: [gallery, notes])
        #expect(merged.entities.count == gallery.entities.count + 1)
        let store = directory.url.appendingPathComponent("Merged.sqlite").path
        let writer = try CoreDataStoreWriter(creating: store, model: merged)
        try writer.insert("Artwork", attributes: ["title": .text("Irises"), "year": .integer(1889)])
        try writer.insert("Note", attributes: ["text": .text("Lent to the Getty"), "written": .real(490_189_828.80500007)])
        try writer.finish()

        // Read with the app's model: the framework's entity comes from the store's model cache.
        let records = directory.url.appendingPathComponent("records").path
        _ = try CoreDataStoreDump().write(try CoreDataStoreReader(path: store, model: Self.galleryModel), toDirectory: records)
        #expect(FileManager.default.fileExists(atPath: records + "/Note.ndjson"))
        let alone = try #require(throws: CoreDataReadError.self) {
            try CoreDataDumpLoader(model: gallery).load(from: records, to: directory.url.appendingPathComponent("Alone.sqlite").path)
        }
        #expect("\(alone)".contains(#"no entity "Note" in the model; a store of merged models (an app's and its frameworks') is written for all of them: give each with its own --model"#))
        let loaded = directory.url.appendingPathComponent("Loaded.sqlite").path
        _ = try CoreDataDumpLoader(model: merged).load(from: records, to: loaded)
        let again = directory.url.appendingPathComponent("again").path
        _ = try CoreDataStoreDump().write(try CoreDataStoreReader(path: loaded, model: Self.galleryModel), toDirectory: again)
        for file in ["Artwork.ndjson", "Note.ndjson"] {
            #expect(try Data(contentsOf: URL(fileURLWithPath: again + "/" + file)) == Data(contentsOf: URL(fileURLWithPath: records + "/" + file)), "\(file)")
        }
        #expect(try CoreDataStoreCheck(path: loaded).run().findings.isEmpty)

        let twice = try #require(throws: ModelError.self) { try DataModel(merging: [gallery, gallery]) }
        #expect(twice.kind == .entityInTwoModels("Artwork", other: gallery.file))
    }

    func badLoad(_ lines: [String]) throws -> (error: CoreDataReadError?, left: [String]) {
        let directory = TemporaryDirectory()
        let records = directory.url.appendingPathComponent("records").path
        try FileManager.default.createDirectory(atPath: records, withIntermediateDirectories: true)
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: records + "/Room.ndjson"))
        let model = try ModelBundle(at: Self.galleryModel).currentModel()
        var caught: CoreDataReadError?
        do {
            _ = try CoreDataDumpLoader(model: model).load(from: records, to: directory.url.appendingPathComponent("out.sqlite").path)
        } catch let error as CoreDataReadError {
            caught = error
        }
        // Scanned in pieces of a few bytes by several threads, the first pass names the same record.
        var pieces = CoreDataDumpLoader(model: model)
        pieces.firstPassPieceSize = 7
        let inPieces = #expect(throws: CoreDataReadError.self) {
            _ = try pieces.load(from: records, to: directory.url.appendingPathComponent("pieces.sqlite").path)
        }
        #expect(inPieces.map { "\($0)" } == caught.map { "\($0)" })
        return (caught, StoreFixtures.listing(directory.path).filter { !$0.hasPrefix("records") })
    }

    /// A file that cannot be read is named in its turn, after a bad record of a file before it.
    @Test func anUnreadableFileIsNamedInTheFilesOrder() throws {
        let directory = TemporaryDirectory()
        let records = directory.url.appendingPathComponent("records").path
        try FileManager.default.createDirectory(atPath: records, withIntermediateDirectories: true)
        try Data(#"{"entity":"Room","id":"r1","#.utf8).write(to: URL(fileURLWithPath: records + "/Room.ndjson"))
        try FileManager.default.createSymbolicLink(atPath: records + "/Show.ndjson", withDestinationPath: records + "/missing")
        let model = try ModelBundle(at: Self.galleryModel).currentModel()
        let error = #expect(throws: CoreDataReadError.self) {
            _ = try CoreDataDumpLoader(model: model).load(from: records, to: directory.url.appendingPathComponent("out.sqlite").path)
        }
        #expect(error.map { "\($0)" }?.contains("Room.ndjson: record 1: not JSON") == true, "\(String(describing: error))")
        try FileManager.default.removeItem(atPath: records + "/Room.ndjson")
        let unreadable = #expect(throws: CoreDataReadError.self) {
            _ = try CoreDataDumpLoader(model: model).load(from: records, to: directory.url.appendingPathComponent("out.sqlite").path)
        }
        #expect(unreadable.map { "\($0)" }?.contains("Show.ndjson") == true, "\(String(describing: unreadable))")
        #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("out.sqlite").path))
    }

    /// The Gallery store's dump loaded with the first pass in pieces from one byte up dumps the same.
    @Test(arguments: [1, 40, 1 << 20])
    func theFirstPassInPiecesLoadsTheSameStore(_ size: Int) throws {
        let directory = TemporaryDirectory()
        let first = directory.url.appendingPathComponent("first").path, second = directory.url.appendingPathComponent("second").path
        let before = try Self.dumped(Self.galleryStore, model: Self.galleryModel, into: first)
        let reader = try CoreDataStoreReader(path: Self.galleryStore, model: Self.galleryModel)
        var loader = CoreDataDumpLoader(model: reader.model, frameworkVersion: reader.metadata.frameworkVersion.flatMap { Int($0) })
        loader.firstPassPieceSize = size
        let loaded = directory.url.appendingPathComponent("loaded.sqlite").path
        let counts = try loader.load(from: first, to: loaded)
        #expect(counts.values.reduce(0, +) >= 10)
        #expect(try Self.dumped(loaded, model: Self.galleryModel, into: second) == before)
    }

    @Test(arguments: [
        (#"{"entity":"Room","id":"r1","values":{"gallery":"g9"}}"#, "record 1: id r1: field \"gallery\": links to g9, which no record has"),
        (#"{"entity":"Room","id":"r1","values":{}}"# + "\n" + #"{"entity":"Room","id":"r1","values":{}}"#, "record 2: id r1: a second record with this id"),
        (#"{"entity":"Room","id":"r1","values":{"label":7}}"#, "record 1: id r1: field \"label\": label is a String attribute; the record holds a JSON number"),
        (#"{"entity":"Room","id":"r1","values":{"colour":"red"}}"#, "field \"colour\": Room has no attribute or relationship of this name"),
        (#"{"entity":"Room","id":"r1","pk":3,"values":{}}"# + "\n" + #"{"entity":"Room","id":"r2","pk":3,"values":{}}"#, "id r2: pk 3 is also record r1's"),
        (#"{"entity":"Message","id":"m1","values":{}}"#, "id m1: \"Message\" is abstract in the model: it has no objects of its own"),
        (#"{"entity":"Room","id":"r1","#, "record 1: not JSON"),
        (#"{"entity":"Artwork","id":"a1","values":{}}"# + "\n" + #"{"entity":"Room","id":"r1","values":{"gallery":"a1"}}"#,
         "field \"gallery\": links to a1, a Artwork, where gallery leads to Gallery"),
        (#"{"entity":"Room","id":"r1","pk":9223372036854775807,"values":{}}"#, "\"pk\" is not a whole number from 1 to"),
        (#"{"entity":"Room","id":"r1","values":[]}"#, "id r1: \"values\" is not an object"),
        (#"{"entity":"Gallery","id":"g1","values":{"rooms":["r1"]}}"# + "\n" + #"{"entity":"Room","id":"r1","values":{}}"#,
         "field \"rooms\": lists r1, whose gallery does not name g1 back"),
        (#"{"entity":"Artwork","id":"a1","values":{"year":70000}}"#, "field \"year\": 70000 is outside Integer 16's range"),
        (#"{"entity":"Show","id":"s1","values":{"opening":"2023-02-31T00:00:00Z"}}"#, "field \"opening\": a date is YYYY-MM-DD"),
        // Each form of id, given twice; and the first clash in the files' order is the one named.
        (#"{"entity":"Room","id":"6F61047C-BF3E-4B1D-89F0-8F92BD492A7F","values":{}}"# + "\n" + #"{"entity":"Room","id":"6F61047C-BF3E-4B1D-89F0-8F92BD492A7F","pk":4}"#,
         "record 2: id 6F61047C-BF3E-4B1D-89F0-8F92BD492A7F: a second record with this id"),
        (#"{"entity":"Room","id":"Room/p1","pk":1,"values":{}}"# + "\n" + #"{"entity":"Room","id":"Room/p1","pk":2,"values":{}}"#,
         "record 2: id Room/p1: a second record with this id"),
        (#"{"entity":"Room","id":"Room/p1","pk":1,"values":{}}"# + "\n\n" + #"{"entity":"Room","id":"Room/p1","pk":1,"values":{}}"#,
         "record 3: id Room/p1: a second record with this id"),
        (#"{"entity":"Room","id":"a","pk":1}"# + "\n" + #"{"entity":"Room","id":"b","pk":1}"# + "\n" + #"{"entity":"Room","id":"a"}"#,
         "record 2: id b: pk 1 is also record a's"),
        (#"{"entity":"Room","id":"r1","values":{"gallery":null,"label":"x"}}"# + "\n" + #"{"entity":"Room","id":"r2","values":{"gallery":["r1"]}}"#,
         "record 2: id r2: field \"gallery\": a relationship holds ids (text)"),
        // A record that clashes by id and by pk is named for its id.
        (#"{"entity":"Room","id":"P","pk":7}"# + "\n" + #"{"entity":"Room","id":"Q","pk":1}"# + "\n" + #"{"entity":"Room","id":"Q","pk":7}"#,
         "record 3: id Q: a second record with this id"),
        // A record read whole in the first pass, past the start of the file.
        (#"{"entity":"Room","id":"r1","values":{}}"# + "\n" + #"{"entity":"Message","id":"m1","values":{}}"#,
         "record 2: id m1: \"Message\" is abstract in the model"),
        // Orders given with an empty list are still checked.
        (#"{"entity":"Gallery","id":"g1","values":{"rooms":[]},"orders":{"rooms":[1]}}"#,
         "record 1: id g1: field \"rooms\": \"orders\" of a relationship has one value per id listed"),
    ])
    func aBadRecordIsNamedAndLeavesNothing(_ text: String, _ expected: String) throws {
        let (error, left) = try badLoad(text.components(separatedBy: "\n"))
        #expect(error.map { "\($0)" }?.contains(expected) == true, "\(String(describing: error))")
        #expect(left == [], "no store and no temporary file")
    }

    @Test func datesGoBackToTheSecond() throws {
        for text in ["2001-01-01T00:00:00Z", "2017-09-12T07:33:08.940283Z", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "1969-07-20T20:17:40Z", "2024-02-29T12:00:00Z", "1600-02-29T00:00:00Z"] {
            let seconds = try #require(CoreDataDate.secondsSince2001(iso8601: text))
            #expect(CoreDataDate.iso8601(secondsSince2001: seconds) == text)
        }
        for text in ["2017-13-01T00:00:00Z", "2023-02-29T00:00:00Z", "2017-09-12 07:33:08Z", "2017-09-12T07:33:08", "2017-09-12T07:33:08.Z",
                     "2017-09-12T07:33:08.5xZ", "yesterday"] {
            #expect(CoreDataDate.secondsSince2001(iso8601: text) == nil, "\(text)")
        }
    }

    /// Dates are doubles: the text a dump writes reads back as the same double, bit for bit
    /// (a Wire server timestamp, 490189828.80500007, lost its last digits when written to the
    /// microsecond). Microseconds stay the form when they are exact.
    @Test func datesGoBackBitForBit() throws {
        let cases: [(Double, String)] = [
            (490_189_828.80500007, "2016-07-14T11:50:28.80500007Z"), (490_189_828.805, "2016-07-14T11:50:28.805Z"),
            // Date.distantPast, a common "never": year 0.
            (-63_114_076_800, "0000-12-30T00:00:00Z"),
            (-0.25, "2000-12-31T23:59:59.75Z"), (-631_064_399.5, "1981-01-02T00:20:00.5Z"), (5e-324, nil), (-5e-324, nil), (1e-5, "2001-01-01T00:00:00.00001Z"),
            (0, "2001-01-01T00:00:00Z"), (-63_113_904_000, "0001-01-01T00:00:00Z"), (483_357_101.6909999, nil), (0.1 + 0.2, nil),
        ].map { ($0.0, $0.1 ?? "") }
        for (seconds, expected) in cases {
            let text = CoreDataDate.iso8601(secondsSince2001: seconds)
            if !expected.isEmpty { #expect(text == expected, "\(seconds)") }
            let back = try #require(CoreDataDate.secondsSince2001(iso8601: text), "\(text)")
            let same = back.bitPattern == seconds.bitPattern || back == 0 && seconds == 0
            #expect(same, "\(seconds) → \(text) → \(back)")
        }
        var random = SystemRandomNumberGenerator()
        var longer = 0
        for _ in 0..<20_000 {
            let seconds = Double.random(in: -3e9...3e9, using: &random)
            let text = CoreDataDate.iso8601(secondsSince2001: seconds)
            if text.count > 27 { longer += 1 }
            #expect(CoreDataDate.secondsSince2001(iso8601: text) == seconds, "\(seconds) → \(text)")
        }
        // Random doubles have digits past microseconds nearly always; real app dates nearly never.
        #expect(longer > 10_000)
        // Canonical times read the same text (to the nanosecond): a store's date with 17 fraction digits converts.
        #expect(CoreDataDate.iso8601(secondsSince2001: 0.1 + 0.2) == "2001-01-01T00:00:00.30000000000000004Z")
        #expect(UTCText.unixSeconds("2001-01-01T00:00:00.30000000000000004Z") == CoreDataDate.referenceOffset + 0.3)
    }

    /// A store's date read as a unix time without its text (the typed reading of a SwiftData
    /// store's logs) is the text's reading to the bit, whatever the date.
    @Test func unixSecondsOfADateAreItsTextsToTheBit() throws {
        func text(_ seconds: Double) -> Double? { UTCText.unixSeconds(CoreDataDate.iso8601(secondsSince2001: seconds)) }
        var random = SystemRandomNumberGenerator()
        var values: [Double] = [0, -0.25, 1e-5, 490_189_828.805, 490_189_828.80500007, -63_114_076_800, -63_113_904_000, 0.1 + 0.2, 5e-324,
                                253_402_300_799 - CoreDataDate.referenceOffset, 253_402_300_799.9999996 - CoreDataDate.referenceOffset,
                                -62_167_219_200 - CoreDataDate.referenceOffset, .nan, .infinity, 1e300,
                                // Past 2^53 microseconds, and where adding 1970's offset crosses a power of two.
                                1e10 + 0.123457, -1e10 - 0.123457, 4_081_899_384.541469, 136_460_646_272.00002]
        for _ in 0..<20_000 {
            // As apps store them: whole seconds, quarters, microseconds, and whatever a double holds,
            // from year 0 to 9999.
            let second = Double(Int.random(in: -63_000_000_000...252_000_000_000, using: &random))
            let near = Double(Int.random(in: -3_000_000_000...3_000_000_000, using: &random))
            values += [second, second + Double(Int.random(in: 1...3, using: &random)) / 4,
                       second + Double(Int.random(in: 1...999_999, using: &random)) / 1_000_000,
                       near + Double(Int.random(in: 1...999_999, using: &random)) / 1_000_000, Double.random(in: -3e9...3e9, using: &random)]
        }
        for seconds in values {
            #expect(CoreDataDate.unixSeconds(secondsSince2001: seconds)?.bitPattern == text(seconds)?.bitPattern,
                    "\(seconds): \(CoreDataDate.iso8601(secondsSince2001: seconds))")
        }
    }
}
