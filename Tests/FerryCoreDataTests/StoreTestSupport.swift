import FerryCoreData
import FerryModel
import FerryTestSupport
import Foundation
import GRDB
import Testing

/// The real stores of the shared corpus, each with the model bundle that made it and the
/// version its file name says (the repositories name them after their model versions).
struct CorpusStore: Sendable, CustomTestStringConvertible {
    var store: String
    var model: String
    var expectedVersion: String
    var testDescription: String { URL(fileURLWithPath: store).lastPathComponent + " → " + expectedVersion }

    var storePath: String { TestPaths.corpus.appendingPathComponent("coredata-sqlite").appendingPathComponent(store).path }
    var modelPath: String { TestPaths.corpus.appendingPathComponent("coredata-sqlite").appendingPathComponent(model).path }
}

private let wibosco = "02__wibosco__CoreDataMigration-Example/CoreDataMigration-Example"
private let wiboscoStores = "02__wibosco__CoreDataMigration-Example/CoreDataMigration-ExampleTests/Resources/SQLite"
private let revised = "03__wibosco__CoreDataMigrationRevised-Example/CoreDataMigration-Example"
private let revisedStores = "03__wibosco__CoreDataMigrationRevised-Example/CoreDataMigration-ExampleTests/Resources/SQLite"
private let plus = "01__alemar11__CoreDataPlus/Tests/Resources"

let corpusStores: [CorpusStore] = [
    CorpusStore(store: "\(wiboscoStores)/CoreDataMigration_Example_1.sqlite", model: "\(wibosco)/CoreData/Model/CoreDataMigration_Example.xcdatamodeld", expectedVersion: "CoreDataMigration_Example"),
    CorpusStore(store: "\(wiboscoStores)/CoreDataMigration_Example_2.sqlite", model: "\(wibosco)/CoreData/Model/CoreDataMigration_Example.xcdatamodeld", expectedVersion: "CoreDataMigration_Example 2"),
    CorpusStore(store: "\(wiboscoStores)/CoreDataMigration_Example_3.sqlite", model: "\(wibosco)/CoreData/Model/CoreDataMigration_Example.xcdatamodeld", expectedVersion: "CoreDataMigration_Example 3"),
    // The WAL store was saved by the current model (version 4, which adds Post.hide).
    CorpusStore(store: "\(wiboscoStores)/CoreDataMigration_Example_WAL.sqlite", model: "\(wibosco)/CoreData/Model/CoreDataMigration_Example.xcdatamodeld", expectedVersion: "CoreDataMigration_Example 4"),
    CorpusStore(store: "\(revisedStores)/CoreDataMigration_Example_1.sqlite", model: "\(revised)/CoreData/Model/CoreDataMigration_Example.xcdatamodeld", expectedVersion: "CoreDataMigration_Example"),
    CorpusStore(store: "\(revisedStores)/CoreDataMigration_Example_2.sqlite", model: "\(revised)/CoreData/Model/CoreDataMigration_Example.xcdatamodeld", expectedVersion: "CoreDataMigration_Example 2"),
    CorpusStore(store: "\(revisedStores)/CoreDataMigration_Example_3.sqlite", model: "\(revised)/CoreData/Model/CoreDataMigration_Example.xcdatamodeld", expectedVersion: "CoreDataMigration_Example 3"),
    CorpusStore(store: "\(plus)/SampleModel/Fixtures/SampleModel_V1.sqlite", model: "\(plus)/SampleModel/SampleModel.xcdatamodeld", expectedVersion: "SampleModel"),
    CorpusStore(store: "\(plus)/SampleModel/Fixtures/SampleModel_V2.sqlite", model: "\(plus)/SampleModel/SampleModel.xcdatamodeld", expectedVersion: "SampleModel2"),
    CorpusStore(store: "\(plus)/SampleModel3/Fixtures/SampleModel3_V1.sqlite", model: "\(plus)/SampleModel3/SampleModel3.xcdatamodeld", expectedVersion: "SampleModel3"),
    CorpusStore(store: "06__bignerdranch__CoreDataStack/Sample Model/Deprecated/TestModel.sqlite", model: "06__bignerdranch__CoreDataStack/Sample Model/Deprecated/Sample.xcdatamodeld", expectedVersion: "TestModel"),
]
private let wire = "19__wireapp__wire-ios-data-model"

/// Wire's stores, saved by four of the 90 versions of its model: sibling sub-entities sharing
/// column names, join-table column suffixes, `Z<n>_` entity columns, ordered relationships.
let wireStores: [CorpusStore] = [("2-3", "2.3"), ("2-21-1", "2.21.1"), ("2-40-0", "2.39.0"), ("2-60-0", "2.60.0")].map {
    CorpusStore(store: "\(wire)/Tests/Resources/store\($0.0).wiredatabase", model: "\(wire)/Resources/zmessaging.xcdatamodeld",
                expectedVersion: "zmessaging\($0.1)")
}

/// Every SQLite store in the corpus, found on disk rather than listed, so that new ones are covered.
let allCorpusStorePaths = TestPaths.files(under: TestPaths.corpus.appendingPathComponent("coredata-sqlite")) {
    $0.hasSuffix(".sqlite") || $0.hasSuffix(".wiredatabase") || $0.hasSuffix(".store")
}

/// The corpus' Photos libraries and SwiftData stores: no XML model beside them, a model cache
/// and persistent history inside.
let photosAndSwiftDataStores = allCorpusStorePaths.filter { $0.hasSuffix("Photos.sqlite") || $0.hasSuffix("default.store") }

/// A writable copy of a store and its sidecars, so that a careless write would succeed and be seen.
func writableCopy(of storePath: String, into directory: TemporaryDirectory) throws -> String {
    let name = URL(fileURLWithPath: storePath).lastPathComponent
    let copy = directory.url.appendingPathComponent(name).path
    for suffix in ["", "-wal", "-shm", "-journal"] where FileManager.default.fileExists(atPath: storePath + suffix) {
        try FileManager.default.copyItem(atPath: storePath + suffix, toPath: copy + suffix)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy + suffix)
    }
    return copy
}

/// Rows per Z_ENT counted by SQLite itself on a private copy (WAL included).
func independentCounts(of storePath: String) throws -> [Int: Int] {
    let directory = TemporaryDirectory()
    let copy = try writableCopy(of: storePath, into: directory)
    let queue = try DatabaseQueue(path: copy)
    return try queue.read { db in
        var counts: [Int: Int] = [:]
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type='table' AND name LIKE 'Z%' AND name NOT LIKE 'Z\\_%' ESCAPE '\\'")
        for table in tables {
            for row in try Row.fetchAll(db, sql: "SELECT Z_ENT, count(*) FROM \"\(table)\" GROUP BY Z_ENT") {
                counts[row[0], default: 0] += row[1] as Int
            }
        }
        return counts
    }
}

/// A fingerprint of every file in a folder: names, sizes, modification times and contents.
func fingerprint(of directory: String) throws -> [String: String] {
    var result: [String: String] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
        let path = (directory as NSString).appendingPathComponent(name)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let data = FileManager.default.contents(atPath: path) ?? Data()
        result[name] = "\(attributes[.size] ?? 0) \(attributes[.modificationDate] ?? "") \(data.hashValue) \(data.count)"
    }
    return result
}
