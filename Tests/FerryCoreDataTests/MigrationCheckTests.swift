import FerryCoreData
import FerryModel
import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

/// The migration check on a store made for it (one record of each failure kind, and records that
/// pass: `Tests/Fixtures/MigrationCheck`, written by `make samples`) and on real stores whose
/// next versions need a mapping model.
@Suite struct MigrationCheckTests {
    /// `make samples` writes the store from the first version; the models are written by hand.
    static let fixture = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/MigrationCheck")
    static let bundle = fixture.appendingPathComponent("Books.xcdatamodeld").path
    static let store = fixture.appendingPathComponent("Books.sqlite").path

    func check() throws -> MigrationCheckReport {
        let reader = try CoreDataStoreReader(path: Self.store, model: Self.bundle)
        #expect(reader.versionMatch?.version == "Books")
        return try MigrationCheck(store: reader, new: try ModelBundle(at: Self.bundle).model(version: "Books 2")).run()
    }

    @Test func eachKindIsFoundOnItsRecordOnly() throws {
        let report = try check()
        let found = report.problems.map { "\($0.kind.rawValue) \($0.property) \($0.value)" }.sorted()
        #expect(found == [
            "does-not-convert edition 70000", "does-not-convert edition first",
            "duplicate-under-constraint isbn 1",
            "empty-required-relationship shelf nil",
            "null-in-required title nil",
            "out-of-range pages 1200",
        ], "\(found)")
        #expect(report.counts == ["does-not-convert": 2, "duplicate-under-constraint": 1, "empty-required-relationship": 1,
                                  "null-in-required": 1, "out-of-range": 1])
        #expect(report.failures == 6 && report.losses == 0)
        #expect(report.text.hasSuffix("would fail: 1 null-in-required, 1 out-of-range, 1 duplicate-under-constraint, 1 empty-required-relationship, 2 does-not-convert\n"), "\(report.text)")
    }

    /// A version without `isbn`, `Book.shelf` and `Shelf`: the migration succeeds and loses each
    /// value those held — listed per record, counted apart from failures.
    @Test func droppedValuesAreLosses() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-losses-\(UUID().uuidString)/Slim.xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        try """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Book" syncable="YES">
                    <attribute name="title" optional="YES" attributeType="String"/>
                    <attribute name="pages" optional="YES" attributeType="Integer 64"/>
                    <attribute name="edition" optional="YES" attributeType="String"/>
                    <attribute name="isbn" optional="YES" transient="YES" attributeType="String"/>
                </entity>
            </model>
            """.write(to: folder.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        let reader = try CoreDataStoreReader(path: Self.store, model: Self.bundle)
        let report = try MigrationCheck(store: reader, new: try ModelBundle(at: folder.path).model(version: nil)).run()
        #expect(report.failures == 0)
        #expect(report.counts == ["value-dropped": 13, "record-dropped": 1], "\(report.counts)")
        let isbn = report.problems.filter { $0.property == "isbn" }
        #expect(isbn.count == 7 && isbn.allSatisfy { $0.detail.contains("made transient") })
        #expect(report.problems.filter { $0.property == "shelf" }.map(\.record) == ["Book/p1", "Book/p2", "Book/p3", "Book/p4", "Book/p6", "Book/p7"])
        #expect(report.problems.contains { $0.kind == .recordDropped && $0.record == "Shelf/p1" })
        #expect(report.text.hasSuffix("would lose: 13 value-dropped, 1 record-dropped\n"), "\(report.text)")
    }

    /// The same store checked against its own version meets nothing.
    @Test func theSameVersionMeetsNoProblem() throws {
        let reader = try CoreDataStoreReader(path: Self.store, model: Self.bundle)
        let report = try MigrationCheck(store: reader, new: reader.model).run()
        #expect(report.failures == 0 && report.problems.isEmpty)
        #expect(report.text.contains("meets no problem"))
    }

    /// wibosco's version 2 store against version 4: every Post's new required `color` is empty
    /// (the repository's mapping model fills it) and its `hexColor` is dropped; version 3's store
    /// meets nothing. Version 1's store against version 2 loses every `color` (renamed without a
    /// renaming identifier).
    @Test(.needsCorpus) func realStoresNeedTheirMappingModel() throws {
        let base = TestPaths.corpus.appendingPathComponent("coredata-sqlite/02__wibosco__CoreDataMigration-Example")
        let model = base.appendingPathComponent("CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld").path
        let newModel = try ModelBundle(at: model).model(version: "CoreDataMigration_Example 4")
        let stores = base.appendingPathComponent("CoreDataMigration-ExampleTests/Resources/SQLite")
        let second = try CoreDataStoreReader(path: stores.appendingPathComponent("CoreDataMigration_Example_2.sqlite").path, model: model)
        let posts = second.entityCounts().first { $0.entity == "Post" }?.rows ?? 0
        let report = try MigrationCheck(store: second, new: newModel).run()
        #expect(posts > 0 && report.counts == ["empty-required-relationship": posts, "value-dropped": posts])
        #expect(report.problems.allSatisfy { $0.entity == "Post" && ($0.property == "color" || $0.property == "hexColor") })
        let third = try CoreDataStoreReader(path: stores.appendingPathComponent("CoreDataMigration_Example_3.sqlite").path, model: model)
        let fromThird = try MigrationCheck(store: third, new: newModel).run()
        #expect(fromThird.failures == 0 && fromThird.losses == 0)
        let first = try CoreDataStoreReader(path: stores.appendingPathComponent("CoreDataMigration_Example_1.sqlite").path, model: model)
        let renamed = try MigrationCheck(store: first, new: try ModelBundle(at: model).model(version: "CoreDataMigration_Example 2")).run()
        let firstPosts = first.entityCounts().first { $0.entity == "Post" }?.rows ?? 0
        #expect(firstPosts > 0 && renamed.counts == ["value-dropped": firstPosts])
        #expect(renamed.problems.allSatisfy { $0.property == "color" && $0.detail.contains("looks renamed to hexColor") })
    }

    /// A model file of `entities`, in a temporary folder, read as one version.
    func model(_ entities: String) throws -> (DataModel, String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-check-\(UUID().uuidString)/M.xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">\(entities)</model>
            """.write(to: folder.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        return (try ModelBundle(at: folder.path).model(version: nil), folder.path)
    }

    /// Attributes that swap names by renaming identifier are two renames, matched as Core Data
    /// matches them (identifier first): `pages` keeps the editions' text, `edition` the page counts.
    @Test func attributesAreMatchedByRenamingIdentifierFirst() throws {
        let (swapped, _) = try model("""
            <entity name="Shelf"><attribute name="label" optional="YES" attributeType="String"/></entity>
            <entity name="Book"><attribute name="title" optional="YES" attributeType="String"/>
            <attribute name="edition" optional="YES" attributeType="Integer 64" elementID="pages"/>
            <attribute name="isbn" optional="YES" attributeType="String"/>
            <attribute name="pages" optional="YES" attributeType="String" elementID="edition"/>
            <relationship name="shelf" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Shelf"/></entity>
            """)
        let report = try MigrationCheck(store: try CoreDataStoreReader(path: Self.store, model: Self.bundle), new: swapped).run()
        #expect(report.failures == 0 && report.losses == 0, "\(report.problems)")
    }

    /// A link the other side keeps is no loss, though that side and its entity were renamed.
    @Test func aLinkKeptByARenamedInverseIsNoLoss() throws {
        let (_, oldPath) = try model("""
            <entity name="Shelf"><attribute name="label" optional="YES" attributeType="String"/>
            <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="shelf" inverseEntity="Book"/></entity>
            <entity name="Book"><attribute name="title" optional="YES" attributeType="String"/>
            <attribute name="pages" optional="YES" attributeType="Integer 64"/><attribute name="isbn" optional="YES" attributeType="String"/>
            <attribute name="edition" optional="YES" attributeType="String"/>
            <relationship name="shelf" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Shelf" inverseName="books" inverseEntity="Shelf"/></entity>
            """)
        let (renamed, _) = try model("""
            <entity name="Rack" elementID="Shelf"><attribute name="label" optional="YES" attributeType="String"/>
            <relationship name="volumes" elementID="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book"/></entity>
            <entity name="Book"><attribute name="title" optional="YES" attributeType="String"/>
            <attribute name="pages" optional="YES" attributeType="Integer 64"/><attribute name="isbn" optional="YES" attributeType="String"/>
            <attribute name="edition" optional="YES" attributeType="String"/></entity>
            """)
        let report = try MigrationCheck(store: try CoreDataStoreReader(path: Self.store, model: oldPath), new: renamed).run()
        #expect(report.losses == 0, "\(report.problems)")
    }
}
