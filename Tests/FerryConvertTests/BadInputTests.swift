import FerryCanonical
import FerryConvert
import FerryCoreData
import FerryModel
import FerryStore
import FerryTestSupport
import FerryTestTraits
import FerryArchive
import Foundation
import Testing

/// Bad inputs get one specific error naming the file, the record and the field; nothing is
/// written; with `--keep-going` the good records are kept and the bad ones reported.
@Suite struct BadInputTests {
    let directory = TemporaryDirectory("ferry-bad-input")
    var store: String { directory.url.appendingPathComponent("out.ferry").path }

    static let goodTask = #"{"id":"11111111-2222-4333-8444-555555555555","title":"Problem Set 3","type":"homework","locked":false,"isCompleted":false}"#
    static let goodLog = #"{"summary":{"id":"B9B9B9B9-1111-4222-8333-444444444444","rating":4,"recipeNameAtBrew":"V60","timestamp":782611200}}"#

    func conversionError(_ inputs: [String], options: ConversionOptions = ConversionOptions(openArchive: ArchiveReader.opener)) throws -> String {
        do {
            _ = try ConversionJob(inputs: inputs, store: store, options: options).run()
        } catch let error as ConversionError {
            #expect(!FileManager.default.fileExists(atPath: store), "nothing is written after \(error)")
            return error.description
        }
        Issue.record("the conversion of \(inputs) succeeded")
        return ""
    }

    /// The convert library links no archive reader of its own: without one handed in, a
    /// `.molten` export is refused by name rather than skipped.
    @Test func aZipWithoutAnArchiveReaderIsRefusedByName() throws {
        let export = TestPaths.samples.appendingPathComponent("molten/Boro Fish.molten").path
        let message = try conversionError([export], options: ConversionOptions())
        #expect(message == "\(export): cannot be read: this build reads no zip archives (no archive reader was given)", "\(message)")
    }

    @Test func truncatedJSONNamesTheFileLineAndColumn() throws {
        let path = try directory.write("[" + Self.goodTask + #",{"id":"22222222-3333-4444-8555-"#, to: "roots/tasks.json")
        #expect(try conversionError([path]) == #"\#(path): field "[1].id": malformed JSON: line 1, column 156: the JSON ends too early (truncated?)"#)
    }

    @Test func wrongTypeNamesTheRecordIdAndField() throws {
        let line = #"{"summary":{"id":"B9B9B9B9-1111-4222-8333-444444444444","rating":"five","recipeNameAtBrew":"V60","timestamp":782611200}}"#
        let path = try directory.write(Self.goodLog.replacingOccurrences(of: "B9B9B9B9", with: "B8B8B8B8") + "\n" + line + "\n", to: "logs.ndjson")
        #expect(try conversionError([path]) == #"\#(path): record 2: id B9B9B9B9-1111-4222-8333-444444444444: field "summary.rating": expected an integer, found string "five""#)
    }

    @Test func invalidUTF8IsMalformedJSON() throws {
        var bytes = Data("[".utf8) + Data(Self.goodTask.utf8)
        bytes.insert(contentsOf: [0xC3, 0x28], at: bytes.count - 30)
        let path = try directory.write(bytes + Data("]".utf8), to: "roots/tasks.json")
        let message = try conversionError([path])
        #expect(message.hasPrefix("\(path): ") && message.contains("malformed JSON") && message.contains("UTF-8"), "\(message)")
    }

    @Test func duplicateIdsNameTheFirstRecord() throws {
        let path = try directory.write("[" + Self.goodTask + "," + Self.goodTask + "]", to: "roots/tasks.json")
        #expect(try conversionError([path]) == #"\#(path): record 2: id 11111111-2222-4333-8444-555555555555: field "id": duplicate id 11111111-2222-4333-8444-555555555555 (first seen at record 1)"#)
    }

    @Test func unknownRecurrenceEndIsAnError() throws {
        let task = Self.goodTask.dropLast() + #","recurrence":{"frequency":"weekly","interval":1,"end":{"sometimes":{}}}}"#
        let path = try directory.write("[" + task + "]", to: "roots/tasks.json")
        #expect(try conversionError([path]).hasSuffix(#"field "recurrence.end": unknown case "sometimes""#))
    }

    @Test func unknownAppIsRefusedWhenNamed() throws {
        let path = try directory.write(#"[{"sku":"X-1","price":3}]"#, to: "inventory.json")
        #expect(try conversionError([path]) == "\(path): not recognized: JSON of no known app shape; use --from to say which app it comes from")
        // Inside a folder the same file is only skipped.
        let folder = directory.url.appendingPathComponent("mixed").path
        try directory.write(#"[{"sku":"X-1"}]"#, to: "mixed/inventory.json")
        try directory.write("[" + Self.goodTask + "]", to: "mixed/tasks.json")
        let report = try ConversionJob(inputs: [folder], store: store, options: ConversionOptions(openArchive: ArchiveReader.opener)).run()
        #expect(report.skipped.map(\.reason) == ["JSON of no known app shape"])
        #expect(report.counts["project"] == 1)
    }

    @Test(.needsCorpus) func storeOfNoKnownAppIsRefused() throws {
        let path = TestPaths.corpus.appendingPathComponent("coredata-sqlite").path
        let stores = TestPaths.files(under: URL(fileURLWithPath: path)) { $0.hasSuffix(".sqlite") }
        let store = try #require(stores.first)
        let message = try conversionError([store])
        #expect(message.hasPrefix("\(store): not recognized: a store of no app Ferry knows (entities: "), "\(message)")
        // Naming an app whose entities the store lacks is refused too.
        let molten = TestPaths.samples.appendingPathComponent("molten/Molten.sqlite").path
        let wrongApp = try conversionError([molten], options: ConversionOptions(from: .photoapp, openArchive: ArchiveReader.opener))
        #expect(wrongApp.hasPrefix("\(molten): not recognized: not a photoapp store: none of PhotoAction, SwipeSession, UserPreferences"))
    }

    @Test(.needsCorpus) func rootsCoreDataStoreIsNamedAndRefused() throws {
        let modelPath = TestPaths.corpus.appendingPathComponent("seedapps/roots/SharedCore__Persistence__Roots.xcdatamodeld__Roots.xcdatamodel__contents").path
        let path = directory.url.appendingPathComponent("Roots.sqlite").path
        let builder = try CoreDataStoreBuilder(path: path, model: try ModelParser().parse(contentsOf: modelPath))
        try builder.insert("Semester", ["id": CoreDataStoreBuilder.uuid("6F1C2B9E-3D4A-4E5F-8A9B-0C1D2E3F4A5B"), "semesterTerm": "Fall"])
        try builder.finish()
        #expect(try conversionError([path]) == "\(path): not recognized: a Roots store: Ferry converts Roots' JSON files (tasks.json, courses.json …), not its Core Data store yet; ferry dump reads it")
    }

    @Test func unsafeExportIsRefused() throws {
        let zip = try ZipFixture.write(["plan.json": Data("{}".utf8), "../evil.jpg": Data([1, 2, 3])], to: directory.url.appendingPathComponent("evil.molten"))
        #expect(try conversionError([zip]) == #"\#(zip): cannot be read: entry "../evil.jpg" is not a plain relative path"#)
        let empty = try ZipFixture.write(["images/a.jpg": Data([1])], to: directory.url.appendingPathComponent("empty.molten"))
        #expect(try conversionError([empty]) == "\(empty): not recognized: a .molten export without plan.json")
    }

    @Test func aFailingRecordRollsEverythingBack() throws {
        let first = try directory.write(Self.goodLog + "\n", to: "first.ndjson")
        _ = try ConversionJob(inputs: [first], store: store, options: ConversionOptions(openArchive: ArchiveReader.opener)).run()
        let before = try TableContents(path: store)
        let bad = #"{"summary":{"id":"B7B7B7B7-1111-4222-8333-444444444444","rating":9,"recipeNameAtBrew":"X","timestamp":782611200}}"#
        let good = Self.goodLog.replacingOccurrences(of: "B9B9B9B9", with: "B6B6B6B6")
        let second = try directory.write(good + "\n" + bad + "\n", to: "second.ndjson")
        #expect(throws: ConversionError.self) { try ConversionJob(inputs: [second], store: store, options: ConversionOptions(openArchive: ArchiveReader.opener)).run() }
        #expect(try TableContents(path: store) == before, "the good record of the failed conversion was not written either")
        // With keep-going the good record is kept and the bad one reported with its place.
        let report = try ConversionJob(inputs: [second], store: store, options: ConversionOptions(keepGoing: true, openArchive: ArchiveReader.opener)).run()
        #expect(report.counts["log"] == 1)
        #expect(report.rejected.count == 1)
        let rejected = try #require(report.rejected.first)
        #expect(rejected.file == second && rejected.record == 2 && rejected.key == "B7B7B7B7-1111-4222-8333-444444444444")
        #expect(rejected.field == "summary.rating" && rejected.message == "rating 9 is not between 1 and 5")
        let ids = try TableContents(path: store).tables["log"]?.map { $0[0] }
        #expect(ids == ["s:B6B6B6B6-1111-4222-8333-444444444444", "s:B9B9B9B9-1111-4222-8333-444444444444"])
    }

    @Test func aStoreThatIsNotFerrysIsLeftAlone() throws {
        let foreign = TestPaths.samples.appendingPathComponent("photoapp/PhotoApp.sqlite")
        let copy = directory.url.appendingPathComponent("photos.sqlite").path
        try FileManager.default.copyItem(atPath: foreign.path, toPath: copy)
        let before = try Data(contentsOf: URL(fileURLWithPath: copy))
        let input = try directory.write(Self.goodLog, to: "log.json")
        #expect {
            try ConversionJob(inputs: [input], store: copy, options: ConversionOptions(openArchive: ArchiveReader.opener)).run()
        } throws: { error in
            (error as? StoreError)?.description.hasPrefix("\(copy): not a Ferry store: it has tables") == true
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == before)
        #expect(!FileManager.default.fileExists(atPath: StoreBackup.folder(for: copy)))
    }

    @Test func missingInputIsNamed() throws {
        let missing = directory.url.appendingPathComponent("nowhere/tasks.json").path
        #expect(try conversionError([missing]) == "\(missing): cannot be read: no such file or directory")
    }
}
