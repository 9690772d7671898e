import FerryCoreData
import FerryJSON
import FerryTestSupport
import FerryTestTraits
import Foundation
import GRDB
import Testing

/// Persistent history of real stores (a SwiftData app's, two Photos libraries'), held against
/// what SQLite itself says of ACHANGE, ATRANSACTION and Z_PRIMARYKEY.
@Suite struct PersistentHistoryTests {
    @Test(.needsCorpus) func thereAreSuchStores() { #expect(photosAndSwiftDataStores.count >= 4) }

    @Test(.needsCorpus, arguments: photosAndSwiftDataStores)
    func everyChangeComesOutDecoded(path: String) throws {
        let reader = try CoreDataStoreReader(path: path)
        let directory = TemporaryDirectory()
        let queue = try DatabaseQueue(path: try writableCopy(of: path, into: directory))
        let (types, entityNames, transactions) = try queue.read { db in
            (try Row.fetchAll(db, sql: "SELECT ZCHANGETYPE, count(*) FROM ACHANGE GROUP BY ZCHANGETYPE").map { ($0[0] as Int, $0[1] as Int) },
             Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY").map { ($0[0] as Int, $0[1] as String) }),
             try Int.fetchOne(db, sql: "SELECT count(*) FROM ATRANSACTION") ?? -1)
        }
        let summary = try #require(try PersistentHistory.summary(of: reader))
        #expect(summary.transactions == transactions)
        let names = [0: "insert", 1: "update", 2: "delete"]
        #expect(summary.changeTypes == Dictionary(uniqueKeysWithValues: types.map { (names[$0.0] ?? "type \($0.0)", $0.1) }))

        var changes: [JSONObject] = []
        try PersistentHistory.forEachChange(of: reader) { changes.append($0.object ?? JSONObject()) }
        #expect(changes.count == types.map(\.1).reduce(0, +))
        #expect(changes.map { $0["change"]?.number.flatMap { Int64($0.text) } ?? 0 } == changes.map { $0["change"]?.number.flatMap { Int64($0.text) } ?? 0 }.sorted())
        let raw = try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT ZENTITY, ZENTITYPK FROM ACHANGE ORDER BY Z_PK").map { ($0[0] as Int, $0[1] as Int64) }
        }
        for (change, (entity, primaryKey)) in zip(changes, raw) {
            // SwiftData and Core Data model names agree with Z_PRIMARYKEY's.
            #expect(change["entity"]?.string == entityNames[entity])
            #expect(change["pk"]?.number.flatMap { Int64($0.text) } == primaryKey)
            #expect(change["record"]?.string != nil)
            #expect(change["transaction"]?.object?["time"]?.string?.hasSuffix("Z") == true)
        }
    }

    @Test(.needsCorpus) func transactionStringsAreResolvedThroughTheSharedStringTable() throws {
        let path = try #require(photosAndSwiftDataStores.first { $0.hasSuffix("default.store") })
        var bundles: Set<String> = []
        try PersistentHistory.forEachChange(of: try CoreDataStoreReader(path: path)) { change in
            if let bundle = change["transaction"]?.object?["bundleID"]?.string { bundles.insert(bundle) }
        }
        // ZBUNDLEID is NULL in every row: the name lives only in ATRANSACTIONSTRING.
        #expect(bundles == ["com.sdsoftware.ResourcesManager"])
    }

    @Test(.needsCorpus) func aStoreWithoutHistorySaysSo() throws {
        let store = try #require(corpusStores.first)
        let reader = try CoreDataStoreReader(path: store.storePath, model: store.modelPath)
        #expect(try PersistentHistory.summary(of: reader) == nil)
        #expect(CoreDataStoreReport(reader).history == nil)
        #expect(throws: CoreDataReadError.self) { try PersistentHistory.forEachChange(of: reader) { _ in } }
        do {
            try PersistentHistory.forEachChange(of: reader) { _ in }
        } catch let error as CoreDataReadError {
            #expect(error.kind == .noPersistentHistory)
        }
    }
}
