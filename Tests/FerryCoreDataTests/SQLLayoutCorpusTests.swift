import FerryCoreData
import FerryJSON
import FerryModel
import FerryTestSupport
import FerryTestTraits
import Foundation
import GRDB
import Testing

/// Core Data's SQL mapping predicted from a model alone, held against the schema of every real
/// store in the corpus that has its model: the same tables, columns, types, order and entity numbers.
@Suite struct SQLLayoutCorpusTests {
    static let storesWithModels = corpusStores + wireStores

    /// Which side of a many-to-many between two relationships of one entity names its table is
    /// the framework's choice when the store is made (641 took the first name, 752 and later the
    /// last), and a store migrated since keeps it: a later Wire store has `Z_24TRUSTEDBYCLIENTS`
    /// where a new one would have `Z_24TRUSTEDCLIENTS`. Reading takes the name the store has.
    @Test(.needsCorpus) func aSelfReferencingJoinTableIsReadUnderTheNameTheStoreKept() throws {
        let store = try #require(wireStores.first { $0.storePath.hasSuffix("store2-60-0.wiredatabase") })
        let directory = TemporaryDirectory()
        let migrated = try writableCopy(of: store.storePath, into: directory)
        try DatabaseQueue(path: migrated).write { db in
            try db.execute(sql: "ALTER TABLE Z_18IGNOREDCLIENTS RENAME TO Z_18IGNOREDBYCLIENTS; ALTER TABLE Z_18TRUSTEDCLIENTS RENAME TO Z_18TRUSTEDBYCLIENTS")
        }
        func clients(_ path: String) throws -> [String] {
            var lines: [String] = []
            try CoreDataStoreReader(path: path, model: store.modelPath).forEachRecord(entity: "UserClient") { record in
                lines.append("\(record.id) ignores \(record.values["ignoredClients"].map { JSONWriter.string($0) } ?? "-") "
                             + "ignored by \(record.values["ignoredByClients"].map { JSONWriter.string($0) } ?? "-")")
            }
            return lines
        }
        let original = try clients(store.storePath)
        #expect(original.contains { !$0.contains("ignores []") }, "the store has clients that ignore others")
        #expect(try clients(migrated) == original)
        let reader = try CoreDataStoreReader(path: migrated, model: store.modelPath)
        let userClient = try #require(reader.model.entity(named: "UserClient"))
        guard case .joinTable(let table, _, _, _, _) = reader.mapping.layout.storage(ofRelationship: "ignoredClients", in: userClient) else {
            Issue.record("ignoredClients is not read through a join table"); return
        }
        #expect(table == "Z_18IGNOREDBYCLIENTS")
    }

    @Test(.needsCorpus, arguments: storesWithModels)
    func predictionFromTheModelEqualsTheStoresSchema(_ store: CorpusStore) throws {
        let reader = try CoreDataStoreReader(path: store.storePath, model: store.modelPath)
        #expect(reader.versionMatch?.version == store.expectedVersion)
        let layout = CoreDataSQLLayout(model: reader.model, frameworkVersion: reader.metadata.frameworkVersion.flatMap { Int($0) })
        let real = try storeTables(store.storePath)

        // Z_PRIMARYKEY: numbers and parents; a migrated store may keep an entity's old name.
        let entries = reader.schema.entities.filter { $0.number < 16000 }
        #expect(entries.count == reader.model.entities.count)
        for entry in entries {
            let entity = try #require(reader.model.entities.first { $0.name == entry.name || $0.renamingIdentifier == entry.name }, "\(entry.name)")
            #expect(layout.entityNumbers[entity.name] == entry.number, "\(entity.name)")
            #expect(layout.superNumbers[entity.name] == entry.superNumber, "\(entity.name)")
        }

        let modelTables = real.filter { CoreDataStoreSchema.TableKind($0.key) == .other }
        #expect(Set(layout.tables.map(\.name)) == Set(modelTables.keys))
        for table in layout.tables {
            let columns = table.columns.map { "\($0.name) \($0.declaredType)" }
            #expect(columns == real[table.name], "\(table.name)")
        }
    }

    @Test(.needsCorpus, arguments: storesWithModels)
    func everyStoreDumpsWithItsModelWithCountsEqualToSQLitesOwn(_ store: CorpusStore) throws {
        let reader = try CoreDataStoreReader(path: store.storePath, model: store.modelPath)
        #expect(reader.mapping.problems.isEmpty)
        var counts: [String: Int] = [:]
        try reader.forEachRecord { counts[$0.entity, default: 0] += 1 }
        let expected = try independentCounts(of: store.storePath)
        for mapping in reader.mapping.entities {
            #expect(counts[mapping.entity.name] ?? 0 == mapping.number.flatMap { expected[$0] } ?? 0, "\(mapping.entity.name)")
        }
        #expect(counts.values.reduce(0, +) == expected.filter { $0.key < 16000 }.values.reduce(0, +))
    }

    /// Every relationship of every entity is read from where Core Data put it: none is left unmapped.
    @Test(.needsCorpus, arguments: storesWithModels)
    func noStoredPropertyIsLeftUnmapped(_ store: CorpusStore) throws {
        let reader = try CoreDataStoreReader(path: store.storePath, model: store.modelPath)
        for entity in reader.mapping.entities where entity.number != nil {
            for (relationship, storage) in entity.relationships {
                if case .unmapped(let reason) = storage { Issue.record("\(entity.entity.name).\(relationship.name): \(reason)") }
            }
            for (attribute, column) in entity.attributes where column == nil && attribute.type != .composite && attribute.type != .undefined {
                Issue.record("\(entity.entity.name).\(attribute.name): no column")
            }
        }
    }

    /// Table name → "COLUMN TYPE" in the store's order, as SQLite reports them.
    private func storeTables(_ path: String) throws -> [String: [String]] {
        let directory = TemporaryDirectory()
        let queue = try DatabaseQueue(path: try writableCopy(of: path, into: directory))
        return try queue.read { db in
            var tables: [String: [String]] = [:]
            for name in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") {
                tables[name] = try Row.fetchAll(db, sql: "SELECT name, type FROM pragma_table_info(?)", arguments: [name])
                    .map { "\($0["name"] as String) \(($0["type"] as String).uppercased())" }
            }
            return tables
        }
    }
}

/// Stores without XML (Photos libraries, SwiftData): the layout of the model in their own
/// `Z_MODELCACHE` names the same tables and columns; migrations appended columns at the end,
/// so order is not compared.
@Suite struct SQLLayoutModelCacheTests {
    @Test(.needsCorpus, arguments: photosAndSwiftDataStores)
    func layoutOfTheModelCacheNamesTheStoresTablesAndColumns(path: String) throws {
        let reader = try CoreDataStoreReader(path: path)
        #expect(reader.schemaSource == .modelCache)
        let layout = CoreDataSQLLayout(model: reader.model, frameworkVersion: reader.metadata.frameworkVersion.flatMap { Int($0) })
        let real = Dictionary(uniqueKeysWithValues: reader.schema.tables.map { ($0.name, Set($0.columns.map { "\($0.name) \($0.declaredType)" })) })
        #expect(Set(layout.tables.map(\.name)) == Set(real.keys.filter { CoreDataStoreSchema.TableKind($0) == .other }))
        var suffixesInAnotherOrder: [String] = []
        for table in layout.tables {
            let predicted = Set(table.columns.map { "\($0.name) \($0.declaredType)" })
            if predicted == real[table.name] { continue }
            // Photos 15.4.1 holds two join-table suffixes in the opposite order (Formats/coredata-sql-mapping.md §5).
            let unsuffixed = { (columns: Set<String>) in Set(columns.map { $0.replacingOccurrences(of: "[0-9]+ INTEGER$", with: " INTEGER", options: .regularExpression) }) }
            #expect(table.rootEntity == nil && unsuffixed(predicted) == unsuffixed(real[table.name] ?? []), "\(table.name)")
            suffixesInAnotherOrder.append(table.name)
        }
        #expect(suffixesInAnotherOrder.count <= 2)
        #expect(reader.mapping.problems.isEmpty)
        // The store's own model cache matches the store: no "names model cache, but its schema differs".
        #expect(reader.versionMatch?.version == "model cache" && reader.notes.isEmpty, "\(reader.notes)")
    }
}
