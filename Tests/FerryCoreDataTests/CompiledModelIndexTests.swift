import FerryCoreData
import FerryModel
import FerryTestSupport
import FerryTestTraits
import Foundation
import GRDB
import Testing

/// A compiled model (a store's `Z_MODELCACHE`, a `.momd`) keeps an attribute's indexed flag and
/// a compound index beside the fetch index Xcode converted each to, and may index a to-many,
/// which has no column, or a to-one alone, which its foreign key's index covers. Core Data makes
/// the other fetch indexes alone: in the Photos libraries, none of the compound indexes beside
/// fetch indexes is in the store, every indexed attribute has a one-element fetch index of its
/// own, and no to-many or lone to-one is indexed (`Formats/coredata-sql-mapping.md` §7.8). Every
/// index Ferry predicts for them is in the store, in the same words, partial indexes' conditions
/// (read from the cache's archived predicates) included.
@Suite struct CompiledModelIndexTests {
    static let photosLibraries = photosAndSwiftDataStores.filter { $0.hasSuffix("Photos.sqlite") }

    @Test(.needsCorpus, arguments: photosLibraries)
    func aCompiledModelsIndexesAreItsFetchIndexes(_ path: String) throws {
        let reader = try CoreDataStoreReader(path: path)
        let framework = try #require(reader.metadata.frameworkVersion.flatMap { Int($0) })
        let model = reader.model
        let schema = CoreDataSchemaSQL(model: model, layout: CoreDataSQLLayout(model: model, frameworkVersion: framework), frameworkVersion: framework)
        var configuration = Configuration()
        configuration.readonly = true
        let inStore = Dictionary(uniqueKeysWithValues: try DatabaseQueue(path: "file:\(path)?immutable=1", configuration: configuration).read {
            try Row.fetchAll($0, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'index'").map { ($0[0] as String, ($0[1] as String?) ?? "") }
        })
        let predicted = schema.statements.filter { $0.kind == .index }
        #expect(predicted.count > 250)

        #expect(predicted.map(\.name).filter { inStore[$0] == nil } == [])
        // Word for word, partial indexes' conditions included (`… WHERE ZSYNDICATIONIDENTIFIER IS NOT
        // NULL`, `(ZCLOUDLOCALSTATE = 2 OR ZCLOUDLOCALSTATE = 4)`), but for join tables whose
        // columns' suffixes 15.4.1 numbers the other way (§7.2).
        let differing = predicted.filter { statement in inStore[statement.name].map { $0 != statement.sql } ?? false }
        #expect(differing.allSatisfy { $0.table.dropFirst(2).first?.isNumber == true }, "\(differing.map(\.sql))")
        #expect(differing.count <= 2)
        #expect(predicted.contains { $0.sql.hasSuffix(" WHERE ZSYNDICATIONIDENTIFIER IS NOT NULL") })
        #expect(predicted.contains { $0.sql.hasSuffix(" WHERE ZSEARCHINDEXREBUILDSTATE = 1") })
        #expect(predicted.contains { $0.sql.hasSuffix(" WHERE (ZLIBRARYSCOPESHARESTATE = 2 OR ZLIBRARYSCOPESHARESTATE = 16 OR ZLIBRARYSCOPESHARESTATE = 65538 OR ZLIBRARYSCOPESHARESTATE = 65552)") })
        #expect(predicted.filter { $0.sql.contains(" WHERE ") }.count >= 11)
        // A fetch index on a to-many is no reason to refuse the model.
        #expect(!schema.notWritten.contains { $0.contains("byAlbumsIndex") }, "\(schema.notWritten)")
    }
}
