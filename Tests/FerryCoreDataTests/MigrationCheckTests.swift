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
        #expect(report.failures == 6)
        #expect(report.text.hasSuffix("would fail: 1 null-in-required, 1 out-of-range, 1 duplicate-under-constraint, 1 empty-required-relationship, 2 does-not-convert\n"), "\(report.text)")
    }

    /// The same store checked against its own version meets nothing.
    @Test func theSameVersionMeetsNoProblem() throws {
        let reader = try CoreDataStoreReader(path: Self.store, model: Self.bundle)
        let report = try MigrationCheck(store: reader, new: reader.model).run()
        #expect(report.failures == 0 && report.problems.isEmpty)
        #expect(report.text.contains("meets no problem"))
    }

    /// wibosco's version 2 store against version 4: every Post's new required `color` is empty
    /// (the repository's mapping model fills it); version 3's store meets nothing.
    @Test(.needsCorpus) func realStoresNeedTheirMappingModel() throws {
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
