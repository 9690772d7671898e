import FerryCoreData
import FerryModel
import FerryTestSupport
import FerryTestTraits
import Foundation
import GRDB
import Testing

/// `Z_METADATA`'s property list as Core Data writes it, held against every real store: written
/// back byte for byte, its hashes in CoreFoundation's order, and, for each store with its model,
/// computed from the model's XML alone.
@Suite struct CoreDataMetadataPlistTests {
    static let coreDataKeys: Set<String> = [
        "NSStoreModelVersionIdentifiers", "NSStoreType", "_NSAutoVacuumLevel", "NSStoreModelVersionHashesDigest",
        "NSStoreModelVersionChecksumKey", "NSStoreModelVersionHashes", "NSPersistenceFrameworkVersion", "NSStoreModelVersionHashesVersion",
    ]

    static func storedPlist(_ path: String) throws -> [UInt8] {
        let directory = TemporaryDirectory()
        let queue = try DatabaseQueue(path: try writableCopy(of: path, into: directory))
        let blob = try queue.read { try Data.fetchOne($0, sql: "SELECT Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION DESC LIMIT 1") }
        return Array(try #require(blob))
    }

    @Test(.needsCorpus) func thereAreStores() { #expect(allCorpusStorePaths.count >= 19) }

    @Test(.needsCorpus, arguments: allCorpusStorePaths)
    func everyStoresPlistIsWrittenBackByteForByte(path: String) throws {
        let stored = try Self.storedPlist(path)
        let value = try BinaryPropertyList.read(Data(stored))
        #expect(BinaryPropertyListWriter.write(value) == stored)
    }

    /// Inserted by name, listed by bucket: the hash dictionary of every store, from 1 to 68 entities.
    @Test(.needsCorpus, arguments: allCorpusStorePaths)
    func entityHashesAreInCoreFoundationsOrder(path: String) throws {
        let value = try BinaryPropertyList.read(Data(try Self.storedPlist(path)))
        let names = try #require(value["NSStoreModelVersionHashes"]?.members).map(\.key)
        #expect(CFHashOrder.ordered(names.sorted(by: EntityVersionHash.codePointOrder)) == names)
    }

    /// Computed from the XML and the framework version the store names: the store's own bytes
    /// where it holds Core Data's keys alone (11 stores); Core Data's keys and values where an
    /// app added its own (Wire's 4).
    @Test(.needsCorpus, arguments: SQLLayoutCorpusTests.storesWithModels)
    func metadataFromTheModelIsTheStoresOwn(_ store: CorpusStore) throws {
        let reader = try CoreDataStoreReader(path: store.storePath, model: store.modelPath)
        let framework = try #require(reader.metadata.frameworkVersion.flatMap { Int($0) })
        let stored = try Self.storedPlist(store.storePath)
        let storedValue = try BinaryPropertyList.read(Data(stored))
        let computed = CoreDataMetadataPlist.value(for: reader.model, frameworkVersion: framework)
        let storedKeys = try #require(storedValue.members).map(\.key)
        if Set(storedKeys).isSubset(of: Self.coreDataKeys) {
            #expect(CoreDataMetadataPlist.bytes(for: reader.model, frameworkVersion: framework) == stored, "\(store.testDescription)")
        } else {
            // App keys make the table larger, so only the values are compared, not their order.
            #expect(Set(try #require(computed.members).map(\.key)) == Set(storedKeys.filter(Self.coreDataKeys.contains)))
            for key in Self.coreDataKeys where storedValue[key] != nil {
                #expect(computed[key] == storedValue[key], "\(store.testDescription): \(key)")
            }
        }
    }

    @Test(.needsCorpus) func mostStoresWithModelsHoldCoreDatasKeysAlone() throws {
        let alone = try SQLLayoutCorpusTests.storesWithModels.filter { store in
            let keys = try BinaryPropertyList.read(Data(try Self.storedPlist(store.storePath))).members?.map(\.key) ?? []
            return Set(keys).isSubset(of: Self.coreDataKeys)
        }
        #expect(alone.count >= 11)
    }

    @Test func digestAndChecksumAreWrittenFromTheirFrameworkVersionsOn() throws {
        let model = try ModelParser().parse(data: Data("""
            <model><entity name="Pet"><attribute name="name" attributeType="String"/></entity></model>
            """.utf8), file: "Pet")
        let keys = { (framework: Int) in CoreDataMetadataPlist.value(for: model, frameworkVersion: framework).members?.map(\.key) ?? [] }
        #expect(!keys(1043).contains("NSStoreModelVersionHashesDigest") && keys(1044).contains("NSStoreModelVersionHashesDigest"))
        #expect(!keys(1343).contains("NSStoreModelVersionChecksumKey") && keys(1344).contains("NSStoreModelVersionChecksumKey"))
        #expect(keys(1344).first == "NSStoreModelVersionIdentifiers" && keys(1344).last == "NSStoreModelVersionHashesVersion")
        #expect(!keys(1344).contains("NSStoreUUID"))
    }
}
