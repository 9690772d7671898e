import FerryCoreData
import FerryJSON
import FerryModel
import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

/// Entity version hashes computed from model XML against the hashes Core Data itself wrote:
/// real stores' metadata and a compiled model's VersionInfo.plist.
struct EntityVersionHashTests {
    static let wire = "19__wireapp__wire-ios-data-model"
    /// The corpus stores with their models, Wire's among them, and the version that made each.
    static let stores: [CorpusStore] = corpusStores + [
        ("store2-3", "zmessaging2.3"), ("store2-21-1", "zmessaging2.21.1"), ("store2-40-0", "zmessaging2.39.0"),
        ("store2-60-0", "zmessaging2.60.0"),
    ].map { CorpusStore(store: "\(wire)/Tests/Resources/\($0.0).wiredatabase", model: "\(wire)/Resources/zmessaging.xcdatamodeld",
                        expectedVersion: $0.1) }

    @Test(.needsCorpus, arguments: stores)
    func hashesFromXMLEqualTheStoresOwnAndNameOneVersion(_ store: CorpusStore) throws {
        let stored = try CoreDataStoreReader(path: store.storePath).metadata.versionHashes
        #expect(stored.count >= 1)
        let bundle = try ModelBundle(at: store.modelPath)
        var matching: [String] = []
        for version in bundle.versions {
            let computed = EntityVersionHash.hashes(of: try bundle.load(version)).mapValues { Data($0) }
            if computed == stored { matching.append(version.name) }
            if version.name == store.expectedVersion {
                for (entity, hash) in stored {
                    #expect(computed[entity] == hash, "\(entity) in \(version.name)")
                }
            }
        }
        #expect(matching == [store.expectedVersion])
    }

    @Test(.needsCorpus, arguments: ["SampleModel", "SampleModel3"])
    func hashesFromXMLEqualTheCompiledModels(name: String) throws {
        let base = TestPaths.corpus.appendingPathComponent("coredata-sqlite/01__alemar11__CoreDataPlus/Tests/Resources/\(name)")
        let compiled = try CompiledModel(at: base.appendingPathComponent("Fixtures/\(name).momd").path)
        let bundle = try ModelBundle(at: base.appendingPathComponent("\(name).xcdatamodeld").path)
        #expect(compiled.versionHashes.count == bundle.versions.count)
        for version in bundle.versions {
            let computed = EntityVersionHash.hashes(of: try bundle.load(version)).mapValues { Data($0) }
            #expect(computed == compiled.versionHashes[version.name], "\(version.name)")
        }
    }

    /// The smallest real case, written out: CoreDataPlus' `User` (SampleModel3), two String
    /// attributes, one optional. Every input the construction names moves the hash; what it
    /// leaves out does not.
    @Test func eachInputTakesPartAndNothingElse() throws {
        func hash(_ entityXML: String) throws -> String {
            let xml = """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">\(entityXML)</model>
                """
            let model = try ModelParser().parse(data: Data(xml.utf8), file: "contents")
            return Hex.lowercase(try #require(model.entity(named: "User").map { EntityVersionHash.hash(of: $0, in: model) }))
        }
        let user = """
            <entity name="User" representedClassName="User" syncable="YES">
            <attribute name="name" attributeType="String"/><attribute name="petName" optional="YES" attributeType="String"/></entity>
            """
        let stored = try hash(user)
        // What Core Data wrote for this entity (CoreDataPlus' SampleModel3.momd, VersionInfo.plist).
        #expect(stored == "6b31f4e97b691d16c4c820bae55f89408d47013bd42151ecfde1eac7fe4be798")
        let same = [
            user.replacingOccurrences(of: "representedClassName=\"User\" ", with: ""),
            user.replacingOccurrences(of: "attributeType=\"String\"/>", with: "attributeType=\"String\" defaultValueString=\"x\"/>"),
            user.replacingOccurrences(of: "<attribute name=\"name\"", with: "<attribute name=\"name\" indexed=\"YES\" elementID=\"old\""),
            user.replacingOccurrences(of: "</entity>", with: "<attribute name=\"cache\" optional=\"YES\" transient=\"YES\" attributeType=\"String\"/></entity>"),
        ]
        for variant in same { #expect(try hash(variant) == stored, "\(variant)") }
        let different = [
            user.replacingOccurrences(of: "name=\"User\"", with: "name=\"User\" isAbstract=\"YES\""),
            user.replacingOccurrences(of: "<attribute name=\"name\" ", with: "<attribute name=\"name\" optional=\"YES\" "),
            user.replacingOccurrences(of: "name=\"petName\" optional=\"YES\" attributeType=\"String\"", with: "name=\"petName\" optional=\"YES\" attributeType=\"Integer 64\""),
            user.replacingOccurrences(of: "<attribute name=\"name\" ", with: "<attribute name=\"name\" versionHashModifier=\"2\" "),
            user.replacingOccurrences(of: "<attribute name=\"name\" attributeType=\"String\"", with: "<attribute name=\"name\" attributeType=\"Binary\""),
        ]
        for variant in different { #expect(try hash(variant) != stored, "\(variant)") }
    }
}
