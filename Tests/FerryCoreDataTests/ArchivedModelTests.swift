@testable import FerryCoreData
import FerryModel
import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

@Suite struct ArchivedModelTests {
    static let plus = TestPaths.corpus.appendingPathComponent("coredata-sqlite/01__alemar11__CoreDataPlus/Tests/Resources")

    /// Each compiled version against the XML it was compiled from.
    @Test(.needsCorpus, arguments: [
        ("SampleModel/Fixtures/SampleModel.momd", "SampleModel/SampleModel.xcdatamodeld", ["SampleModel", "SampleModel2", "SampleModel3"]),
        ("SampleModel3/Fixtures/SampleModel3.momd", "SampleModel3/SampleModel3.xcdatamodeld", ["SampleModel3", "SampleModel3_v2", "SampleModel3_v3"]),
    ])
    func compiledModelsAgreeWithTheirSources(momd: String, bundle: String, versions: [String]) throws {
        let compiled = try CompiledModel(at: Self.plus.appendingPathComponent(momd).path)
        let source = try ModelBundle(at: Self.plus.appendingPathComponent(bundle).path)
        #expect(compiled.versionNames.sorted() == versions.sorted())
        #expect(compiled.currentVersionName == source.currentVersion.name)
        for version in versions {
            let fromMom = try compiled.model(version: version)
            let fromXML = try source.model(version: version)
            // Everything a version hash is made of survives compiling and decoding.
            #expect(EntityVersionHash.hashes(of: fromMom).mapValues { Data($0) } == compiled.versionHashes[version], "\(version)")
            #expect(fromMom.entities.map(\.name) == fromXML.entities.map(\.name).sorted(), "\(version)")
            for entity in fromXML.entities {
                let decoded = try #require(fromMom.entity(named: entity.name))
                #expect(decoded.parentName == entity.parentName)
                #expect(decoded.attributes.map(\.name) == entity.attributes.map(\.name).sorted(), "\(version) \(entity.name)")
                for attribute in entity.attributes {
                    let match = decoded.attribute(named: attribute.name)
                    #expect(match?.type == attribute.type && match?.isOptional == attribute.isOptional
                            && match?.isTransient == attribute.isTransient, "\(version) \(entity.name).\(attribute.name)")
                }
                for relationship in entity.relationships {
                    let match = decoded.relationship(named: relationship.name)
                    #expect(match?.destinationEntity == relationship.destinationEntity && match?.isToMany == relationship.isToMany
                            && match?.inverseName == relationship.inverseName && match?.deletionRule == relationship.deletionRule,
                            "\(version) \(entity.name).\(relationship.name)")
                }
                #expect(decoded.uniquenessConstraints == entity.uniquenessConstraints, "\(version) \(entity.name)")
            }
            #expect(fromMom.versionIdentifier == fromXML.versionIdentifier)
        }
    }

    @Test func rawInflateMatchesGzip() throws {
        let directory = TemporaryDirectory()
        var random = SystemRandomNumberGenerator()
        let samples: [Data] = [
            Data(), Data("a".utf8), Data(String(repeating: "Core Data model cache ", count: 4000).utf8),
            Data((0..<70_000).map { _ in UInt8.random(in: 0...255, using: &random) }),
            Data((0..<50_000).map { UInt8(($0 * 7) % 13) }),
        ]
        for (index, sample) in samples.enumerated() {
            for level in ["-1", "-9"] {
                let path = try directory.write(sample, to: "sample\(index)\(level)")
                let result = try CommandRunner.run("/usr/bin/env", ["gzip", level, "-n", "-k", "-f", path])
                #expect(result.status == 0)
                let gzip = try Data(contentsOf: URL(fileURLWithPath: path + ".gz"))
                // A gzip member is a 10-byte header (no name with -n), raw DEFLATE, then CRC and size.
                let raw = gzip.subdata(in: 10..<(gzip.count - 8))
                #expect(try RawInflate.decompress(raw) == sample)
            }
        }
    }

    @Test func inflateRefusesDamageAndBombs() throws {
        #expect(throws: RawInflate.Failure.self) { try RawInflate.decompress(Data([0xFF, 0xFF, 0xFF])) }
        let zeros = Data(count: 200_000)
        let directory = TemporaryDirectory()
        let path = try directory.write(zeros, to: "zeros")
        _ = try CommandRunner.run("/usr/bin/env", ["gzip", "-9", "-n", "-f", path])
        let gzip = try Data(contentsOf: URL(fileURLWithPath: path + ".gz"))
        let raw = gzip.subdata(in: 10..<(gzip.count - 8))
        #expect(throws: RawInflate.Failure(reason: "decompresses to more than 100000 bytes")) {
            try RawInflate.decompress(raw, maximumOutput: 100_000)
        }
        for length in 0..<raw.count { _ = try? RawInflate.decompress(raw.prefix(length)) }
    }
}

@Suite struct ModelCacheTests {
    /// The model cache of each corpus store describes the version that made the store.
    @Test(.needsCorpus, arguments: corpusStores)
    func modelCacheEqualsTheXMLVersion(_ store: CorpusStore) throws {
        let cached = try CoreDataStoreReader(path: store.storePath)
        #expect(cached.schemaSource == .modelCache)
        let xml = try ModelBundle(at: store.modelPath).model(version: store.expectedVersion)
        #expect(cached.model.entities.map(\.name) == xml.entities.map(\.name).sorted())
        for entity in xml.entities {
            let decoded = try #require(cached.model.entity(named: entity.name))
            #expect(decoded.attributes.map(\.name) == entity.attributes.map(\.name).sorted(), "\(entity.name)")
            #expect(decoded.relationships.map(\.name) == entity.relationships.map(\.name).sorted(), "\(entity.name)")
            #expect(decoded.parentName == entity.parentName)
        }
    }
}
