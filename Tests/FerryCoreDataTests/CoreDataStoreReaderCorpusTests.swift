import FerryJSON
import FerryCoreData
import FerryModel
import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

@Suite struct CoreDataStoreReaderCorpusTests {
    @Test(.needsCorpus) func corpusStoresArePresent() {
        #expect(allCorpusStorePaths.count >= 11)
    }

    @Test(.needsCorpus, arguments: allCorpusStorePaths)
    func everyStoreReadsWithCountsEqualToSQLitesOwn(path: String) throws {
        let reader = try CoreDataStoreReader(path: path)
        var counts: [String: Int] = [:]
        try reader.forEachRecord { counts[$0.entity, default: 0] += 1 }
        let expected = try independentCounts(of: path)
        for mapping in reader.mapping.entities {
            #expect(counts[mapping.entity.name] ?? 0 == mapping.number.flatMap { expected[$0] } ?? 0, "\(mapping.entity.name)")
        }
        #expect(counts.values.reduce(0, +) == expected.values.reduce(0, +))
    }

    @Test(.needsCorpus, arguments: corpusStores)
    func versionMatchingNamesTheVersionThatMadeTheStore(_ store: CorpusStore) throws {
        let reader = try CoreDataStoreReader(path: store.storePath, model: store.modelPath)
        #expect(reader.versionMatch?.version == store.expectedVersion)
        #expect(reader.versionMatch?.method != nil)
        #expect(reader.schemaSource == .model(path: store.modelPath, version: store.expectedVersion))
    }

    /// Hashes computed from the XML decide first; without them the identifiers, then the schema;
    /// when no version fits, the closest one's differences name the entities whose hash differs.
    @Test(.needsCorpus) func layersDecideInOrder() throws {
        let store = corpusStores.first { $0.expectedVersion == "SampleModel2" }!
        let reader = try CoreDataStoreReader(path: store.storePath, model: store.modelPath)
        #expect(reader.versionMatch?.method == .computedVersionHashes)
        let bundle = try ModelBundle(at: store.modelPath)
        let versions = try bundle.versions.map { CandidateVersion(name: $0.name, model: try bundle.load($0)) }
        var metadata = reader.metadata
        metadata.versionHashes["Car"] = Data(count: 32)
        let byIdentifier = VersionMatcher().match(metadata: metadata, schema: reader.schema, versions: versions)
        #expect(byIdentifier.method == .identifier && byIdentifier.version == "SampleModel2")
        metadata.versionIdentifiers = []
        let bySchema = VersionMatcher().match(metadata: metadata, schema: reader.schema, versions: versions)
        #expect(bySchema.method == .schema && bySchema.version == "SampleModel2")
        let others = versions.filter { $0.name != "SampleModel2" }
        let none = VersionMatcher().match(metadata: reader.metadata, schema: reader.schema, versions: others)
        #expect(none.version == nil)
        let closest = try #require(others.first { $0.name == none.closestVersion })
        let differing = reader.metadata.versionHashes.keys.filter { name in
            EntityVersionHash.hashes(of: closest.model)[name].map { Data($0) != reader.metadata.versionHashes[name] } ?? false
        }
        #expect(!differing.isEmpty)
        for name in differing { #expect(none.differences.contains("entity \(name): its version hash differs from the store's")) }
    }

    @Test(.needsCorpus, arguments: [
        ("SampleModel/Fixtures/SampleModel.momd", "SampleModel/Fixtures/SampleModel_V1.sqlite", "SampleModel"),
        ("SampleModel/Fixtures/SampleModel.momd", "SampleModel/Fixtures/SampleModel_V2.sqlite", "SampleModel2"),
        ("SampleModel3/Fixtures/SampleModel3.momd", "SampleModel3/Fixtures/SampleModel3_V1.sqlite", "SampleModel3"),
    ])
    func compiledModelHashesEqualTheStoresMetadata(momd: String, store: String, version: String) throws {
        let base = TestPaths.corpus.appendingPathComponent("coredata-sqlite/01__alemar11__CoreDataPlus/Tests/Resources")
        let compiled = try CompiledModel(at: base.appendingPathComponent(momd).path)
        let reader = try CoreDataStoreReader(path: base.appendingPathComponent(store).path, model: base.appendingPathComponent(momd).path)
        #expect(compiled.versionHashes[version] == reader.metadata.versionHashes)
        #expect(reader.metadata.versionHashes.count >= 1)
        #expect(reader.versionMatch?.version == version && reader.versionMatch?.method == .versionHashes)
    }

    @Test(.needsCorpus) func rowsOnlyInTheWriteAheadLogAreRead() throws {
        let store = corpusStores.first { $0.store.hasSuffix("_WAL.sqlite") }!
        // Without its -wal the main file holds no posts: they exist only in the log.
        let directory = TemporaryDirectory()
        let mainOnly = directory.url.appendingPathComponent("main-only.sqlite").path
        try FileManager.default.copyItem(atPath: store.storePath, toPath: mainOnly)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: mainOnly)
        #expect(try CoreDataStoreReader(path: mainOnly).entityCounts().map(\.rows).reduce(0, +) == 0)

        let reader = try CoreDataStoreReader(path: store.storePath, model: store.modelPath)
        #expect(reader.file.readsWriteAheadLog)
        var posts: [CoreDataRecord] = []
        try reader.forEachRecord(entity: "Post") { posts.append($0) }
        #expect(posts.count == 84)
        #expect(posts.first?.values["postID"] == "22F82B9B-304B-4A1E-B870-A86C1AA9BA7F")
        #expect(posts.first?.values["date"]?.string?.hasPrefix("2017-") == true)
        #expect(posts.first?.values["color"] == "Color/p1")
    }

    @Test(.needsCorpus) func modelCacheGivesTheRealNamesWithoutAModel() throws {
        let store = corpusStores.first { $0.expectedVersion == "SampleModel2" }!
        let reader = try CoreDataStoreReader(path: store.storePath)
        #expect(reader.schemaSource == .modelCache)
        #expect(reader.model.entities.map(\.name) == ["Car", "LuxuryCar", "Person", "SportCar"])
        #expect(reader.model.entity(named: "LuxuryCar")?.parentName == "SportCar")
        #expect(reader.model.entity(named: "Person")?.attribute(named: "firstName")?.type == .string)
        var luxury: [CoreDataRecord] = []
        try reader.forEachRecord(entity: "LuxuryCar") { luxury.append($0) }
        #expect(luxury.count == 5)
        #expect(luxury.allSatisfy { $0.values["isLimitedEdition"]?.bool != nil })
    }

    @Test(.needsCorpus) func toManyRelationshipsListTheirObjectsWithTheirOwnEntities() throws {
        let store = corpusStores.first { $0.expectedVersion == "SampleModel2" }!
        let reader = try CoreDataStoreReader(path: store.storePath, model: store.modelPath)
        var carsByOwner: [String: Set<String>] = [:]
        var owners: [String: Set<String>] = [:]
        try reader.forEachRecord { record in
            if record.entity == "Person" { carsByOwner[record.id] = Set(record.values["cars"]?.array?.compactMap(\.string) ?? []) }
            if let owner = record.values["owner"]?.string { owners[owner, default: []].insert(record.id) }
        }
        // Each person's cars are exactly the cars that name that person as owner, sub-entities included.
        #expect(!carsByOwner.isEmpty)
        for (person, cars) in carsByOwner { #expect(cars == owners[person] ?? [], "\(person)") }
        #expect(carsByOwner.values.contains { $0.contains { $0.hasPrefix("LuxuryCar/") || $0.hasPrefix("SportCar/") } })
    }

    @Test(.needsCorpus, arguments: allCorpusStorePaths)
    func storesAndSidecarsAreByteIdenticalAfterReading(path: String) throws {
        let directory = TemporaryDirectory()
        let copy = try writableCopy(of: path, into: directory)
        let before = try fingerprint(of: directory.path)
        let reader = try CoreDataStoreReader(path: copy)
        _ = CoreDataStoreReport(reader)
        try reader.forEachRecord { _ in }
        #expect(try fingerprint(of: directory.path) == before)
    }
}
