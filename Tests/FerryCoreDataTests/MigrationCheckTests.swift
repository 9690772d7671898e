import FerryCoreData
import FerryModel
import FerryTestSupport
import Foundation
import Testing

/// The migration check on a store made for it (one record of each failure kind, and records that
/// pass) and on a real store whose next versions need a mapping model.
@Suite struct MigrationCheckTests {
    static func model(_ version: String, _ entities: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="\(version)">\(entities)</model>
        """
    }

    static let old = model("v1", """
        <entity name="Shelf" syncable="YES"><attribute name="label" optional="YES" attributeType="String"/></entity>
        <entity name="Book" syncable="YES">
            <attribute name="title" optional="YES" attributeType="String"/>
            <attribute name="pages" optional="YES" attributeType="Integer 64"/>
            <attribute name="isbn" optional="YES" attributeType="String"/>
            <attribute name="edition" optional="YES" attributeType="String"/>
            <relationship name="shelf" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Shelf"/>
        </entity>
        """)
    /// The next version: title required, pages from 1 to 1,000, edition a 16-bit integer, isbn
    /// unique, the shelf required.
    static let new = model("v2", """
        <entity name="Shelf" syncable="YES"><attribute name="label" optional="YES" attributeType="String"/></entity>
        <entity name="Book" syncable="YES">
            <attribute name="title" attributeType="String"/>
            <attribute name="pages" optional="YES" attributeType="Integer 64" minValueString="1" maxValueString="1000"/>
            <attribute name="isbn" optional="YES" attributeType="String"/>
            <attribute name="edition" optional="YES" attributeType="Integer 16"/>
            <relationship name="shelf" maxCount="1" deletionRule="Nullify" destinationEntity="Shelf"/>
            <uniquenessConstraints><uniquenessConstraint><constraint value="isbn"/></uniquenessConstraint></uniquenessConstraints>
        </entity>
        """)

    let directory = TemporaryDirectory()

    func check() throws -> MigrationCheckReport {
        let oldPath = try directory.write(Self.old, to: "Old.xcdatamodel/contents")
        let newPath = try directory.write(Self.new, to: "New.xcdatamodel/contents")
        let store = directory.url.appendingPathComponent("Books.sqlite").path
        let builder = try CoreDataStoreBuilder(path: store, model: try ModelParser().parse(contentsOf: oldPath), identifiers: ["v1"])
        let shelf = try builder.insert("Shelf", ["label": "A"])
        _ = try builder.insert("Book", ["title": "Fine", "pages": 300, "isbn": "1", "edition": "2", "shelf": shelf])
        _ = try builder.insert("Book", ["pages": 12, "isbn": "2", "edition": "3", "shelf": shelf])          // no title
        _ = try builder.insert("Book", ["title": "Long", "pages": 1200, "isbn": "3", "shelf": shelf])      // too many pages
        _ = try builder.insert("Book", ["title": "Twin", "pages": 20, "isbn": "1", "shelf": shelf])       // same isbn as Fine
        _ = try builder.insert("Book", ["title": "Loose", "pages": 40, "isbn": "4"])                     // no shelf
        _ = try builder.insert("Book", ["title": "Odd", "pages": 50, "isbn": "5", "edition": "first", "shelf": shelf])  // not a number
        _ = try builder.insert("Book", ["title": "Huge", "pages": 60, "isbn": "6", "edition": "70000", "shelf": shelf]) // past Int16
        try builder.finish()
        let reader = try CoreDataStoreReader(path: store, model: oldPath)
        return try MigrationCheck(store: reader, new: try ModelParser().parse(contentsOf: newPath, versionName: "New")).run()
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
        #expect(report.failures == 6)
        #expect(report.text.hasSuffix("would fail: 1 null-in-required, 1 out-of-range, 1 duplicate-under-constraint, 1 empty-required-relationship, 2 does-not-convert\n"), "\(report.text)")
    }

    /// The same store checked against its own version meets nothing.
    @Test func theSameVersionMeetsNoProblem() throws {
        let oldPath = try directory.write(Self.old, to: "Same.xcdatamodel/contents")
        _ = try check()
        let reader = try CoreDataStoreReader(path: directory.url.appendingPathComponent("Books.sqlite").path, model: oldPath)
        let report = try MigrationCheck(store: reader, new: reader.model).run()
        #expect(report.failures == 0 && report.problems.isEmpty)
        #expect(report.text.contains("meets no problem"))
    }

    /// wibosco's version 2 store against version 4: every Post's new required `color` is empty
    /// (the repository's mapping model fills it); version 3's store meets nothing.
    @Test func realStoresNeedTheirMappingModel() throws {
        let base = TestPaths.corpus.appendingPathComponent("coredata-sqlite/02__wibosco__CoreDataMigration-Example")
        let model = base.appendingPathComponent("CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld").path
        let newModel = try ModelBundle(at: model).model(version: "CoreDataMigration_Example 4")
        let stores = base.appendingPathComponent("CoreDataMigration-ExampleTests/Resources/SQLite")
        let second = try CoreDataStoreReader(path: stores.appendingPathComponent("CoreDataMigration_Example_2.sqlite").path, model: model)
        let posts = second.entityCounts().first { $0.entity == "Post" }?.rows ?? 0
        let report = try MigrationCheck(store: second, new: newModel).run()
        #expect(posts > 0 && report.counts == ["empty-required-relationship": posts])
        #expect(report.problems.allSatisfy { $0.entity == "Post" && $0.property == "color" })
        let third = try CoreDataStoreReader(path: stores.appendingPathComponent("CoreDataMigration_Example_3.sqlite").path, model: model)
        #expect(try MigrationCheck(store: third, new: newModel).run().failures == 0)
    }
}
