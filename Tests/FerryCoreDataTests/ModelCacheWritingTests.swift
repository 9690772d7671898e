@testable import FerryCoreData
import FerryModel
import FerryTestSupport
import FerryTestTraits
import Foundation
import GRDB
import Testing

/// The `Z_MODELCACHE` Ferry writes: it decodes to the model it was written for (entities,
/// properties, hashes, tables, indexes), with the classes and keys real stores' caches have.
@Suite struct ModelCacheWritingTests {
    static func roundTrip(_ model: DataModel) throws -> DataModel {
        try ArchivedModel.decodeModelCache(try CoreDataModelCache.content(for: model, file: "test"), file: "test")
    }

    static func expectSameModel(_ decoded: DataModel, _ model: DataModel, _ label: String) {
        #expect(EntityVersionHash.hashes(of: decoded) == EntityVersionHash.hashes(of: model), "\(label)")
        let layouts = [decoded, model].map { CoreDataSQLLayout(model: $0).tables.map { "\($0.name)(\($0.columns.map(\.name).joined(separator: ",")))" } }
        #expect(layouts[0] == layouts[1], "\(label)")
        #expect(decoded.versionIdentifier == model.versionIdentifier, "\(label)")
        for entity in model.entities {
            let twin = decoded.entity(named: entity.name)
            #expect(twin?.parentName == entity.parentName && twin?.isAbstract == entity.isAbstract, "\(label) \(entity.name)")
            #expect(twin?.fetchIndexes.map(\.name) == entity.fetchIndexes.map(\.name), "\(label) \(entity.name)")
            #expect(twin?.compoundIndexes == entity.compoundIndexes && twin?.uniquenessConstraints == entity.uniquenessConstraints, "\(label) \(entity.name)")
            #expect(twin?.attributes.filter(\.isIndexed).map(\.name) == entity.attributes.filter(\.isIndexed).map(\.name).sorted(), "\(label) \(entity.name)")
            #expect(twin?.relationships.map(\.name) == entity.relationships.map(\.name).sorted(), "\(label) \(entity.name)")
        }
    }

    @Test func theGalleryModelComesBack() throws {
        let model = try ModelBundle(at: DumpLoadTests.galleryModel).currentModel()
        Self.expectSameModel(try Self.roundTrip(model), model, "Gallery")
    }

    @Test(.needsCorpus, arguments: SQLLayoutCorpusTests.storesWithModels)
    func everyCorpusModelComesBack(_ store: CorpusStore) throws {
        let model = try CoreDataStoreReader(path: store.storePath, model: store.modelPath).model
        Self.expectSameModel(try Self.roundTrip(model), model, store.testDescription)
    }

    /// Each class the cache uses, and each key of it, is one a real store's cache has.
    @Test(.needsCorpus) func classesAndKeysAreTheRealCachesOwn() throws {
        func shape(_ archive: KeyedArchive) -> [String: Set<String>] {
            var result: [String: Set<String>] = [:]
            for object in archive.objects {
                guard let name = archive.className(of: object) else { continue }
                result[name, default: []].formUnion((object.members ?? []).map(\.key))
            }
            return result
        }
        var real: [String: Set<String>] = [:]
        for path in allCorpusStorePaths {
            // Read as Ferry reads stores: a read-write connection would checkpoint a store's -wal into it.
            let file = try CoreDataStoreFile(path: path)
            guard let blob = try file.read({ db in try db.tableExists("Z_MODELCACHE") ? try Data.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE") : nil }) else { continue }
            for (name, keys) in shape(try KeyedArchive(data: try RawInflate.decompress(blob))) { real[name, default: []].formUnion(keys) }
        }
        #expect(real.count > 10)
        let model = try ModelBundle(at: DumpLoadTests.galleryModel).currentModel()
        let ours = shape(try KeyedArchive(data: try RawInflate.decompress(try CoreDataModelCache.content(for: model, file: "test"))))
        for (name, keys) in ours {
            #expect(real[name] != nil, "class \(name)")
            #expect(keys.subtracting(real[name] ?? []).isEmpty, "\(name): \(keys.subtracting(real[name] ?? []))")
        }
    }
}
