import FerryCoreData
import FerryModel
import FerryTestSupport
import FerryTestTraits
import Foundation
import GRDB
import Testing

@Suite struct StoreErrorTests {
    let directory = TemporaryDirectory()

    private func kind(_ body: () throws -> Void) -> CoreDataReadError.Kind? {
        do { try body() } catch let error as CoreDataReadError { return error.kind } catch { Issue.record("unexpected \(error)") }
        return nil
    }

    @Test func missingStore() {
        #expect(kind { _ = try CoreDataStoreReader(path: directory.url.appendingPathComponent("none.sqlite").path) } == .fileNotFound)
    }

    @Test func notSQLite() throws {
        let path = try directory.write("just text", to: "notes.sqlite")
        #expect(kind { _ = try CoreDataStoreReader(path: path) } == .notSQLite)
        let empty = try directory.write("", to: "empty.sqlite")
        #expect(kind { _ = try CoreDataStoreReader(path: empty) } == .notSQLite)
    }

    @Test func plainSQLiteDatabaseIsNotACoreDataStore() throws {
        let path = directory.url.appendingPathComponent("plain.sqlite").path
        try DatabaseQueue(path: path).write { try $0.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)") }
        let error = try #require(throws: CoreDataReadError.self) { try CoreDataStoreReader(path: path) }
        #expect(error.description == "\(path): not a Core Data or SwiftData store (no Z_PRIMARYKEY table)")
    }

    @Test func damagedFileIsReported() throws {
        // The repository's own sample store: this test stands without the shared corpus.
        let source = TestPaths.samples.appendingPathComponent("molten/Molten.sqlite").path
        var data = try Data(contentsOf: URL(fileURLWithPath: source))
        for index in stride(from: 100, to: data.count, by: 7) { data[index] ^= 0x5A }
        let path = try directory.write(data, to: "damaged.sqlite")
        let error = try #require(throws: CoreDataReadError.self) {
            let reader = try CoreDataStoreReader(path: path)
            try reader.forEachRecord { _ in }
        }
        guard case .corruptStore = error.kind else { Issue.record("expected corruptStore, got \(error)"); return }
    }

    @Test(.needsCorpus) func modelThatDoesNotDescribeTheStoreIsRefused() throws {
        let wibosco = corpusStores[0]
        let other = corpusStores.first { $0.expectedVersion == "SampleModel2" }!
        let error = try #require(throws: CoreDataReadError.self) { try CoreDataStoreReader(path: wibosco.storePath, model: other.modelPath) }
        guard case .modelMismatch(let detail) = error.kind else { Issue.record("expected modelMismatch, got \(error)"); return }
        #expect(detail.contains("no version of") && detail.contains("table ZPOST is not in the model"))
    }

    @Test(.needsCorpus) func explicitVersionThatDoesNotFitIsRefused() throws {
        let store = corpusStores[0]
        let error = try #require(throws: CoreDataReadError.self) {
            try CoreDataStoreReader(path: store.storePath, model: store.modelPath, version: "CoreDataMigration_Example 4")
        }
        guard case .modelMismatch(let detail) = error.kind else { Issue.record("expected modelMismatch, got \(error)"); return }
        // Its hashes name version 1: asked to read it as version 4, Ferry says so before any column is looked for.
        #expect(detail.contains(#"the store's entity version hashes say version "CoreDataMigration_Example" made it, not "CoreDataMigration_Example 4""#), "\(detail)")
    }

    @Test(.needsCorpus) func damagedXcode3ModelIsRefusedWithTheModelError() throws {
        let store = corpusStores[0]
        let model = TestPaths.fixtures("FerryModelTests").appendingPathComponent("PreXcode4.xcdatamodel").path
        let error = try #require(throws: ModelError.self) { try CoreDataStoreReader(path: store.storePath, model: model) }
        guard case .badXcode3Archive(let reason) = error.kind else { Issue.record("expected badXcode3Archive, got \(error)"); return }
        #expect(reason.hasPrefix("not a keyed archive"))
        #expect(error.location.file.hasSuffix("PreXcode4.xcdatamodel/elements"))
    }

    @Test(.needsCorpus) func unknownEntityInAFilter() throws {
        let reader = try CoreDataStoreReader(path: corpusStores[0].storePath)
        #expect(kind { try reader.forEachRecord(entity: "Comment") { _ in } } == .unknownEntity("Comment", available: ["Post"]))
    }
}
