import FerryCoreData
import FerryModel
import FerryTestSupport
import FerryTestTraits
import Foundation
import GRDB
import Testing

/// Every corpus store with its model, written again object by object through
/// ``CoreDataStoreWriter`` (attributes by name, to-ones by destination, orders, to-manys): the new
/// store's entity and join tables hold the same rows, `Z_PRIMARYKEY` the same rows, the metadata
/// the same version hashes, and its schema is the original's where no migration changed it.
@Suite struct StoreWriterCorpusTests {
    @Test(.needsCorpus, arguments: SQLLayoutCorpusTests.storesWithModels)
    func aStoreWrittenAgainHoldsTheSameRows(_ store: CorpusStore) throws {
        let reader = try CoreDataStoreReader(path: store.storePath, model: store.modelPath)
        let directory = TemporaryDirectory()
        let original = try DatabaseQueue(path: try writableCopy(of: store.storePath, into: directory))
        let framework = try #require(reader.metadata.frameworkVersion.flatMap { Int($0) })
        let written = directory.url.appendingPathComponent("written.sqlite").path
        let writer = try CoreDataStoreWriter(creating: written, model: reader.model, frameworkVersion: framework,
                                             identifier: reader.metadata.versionIdentifiers.first ?? "")
        let (uuid, highest) = try original.read { db in
            (try String.fetchOne(db, sql: "SELECT Z_UUID FROM Z_METADATA") ?? "",
             Dictionary(try Row.fetchAll(db, sql: "SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT < 16000").map { ($0[0] as String, $0[1] as Int64? ?? 0) },
                        uniquingKeysWith: max))
        }
        try original.read { db in try Self.copyObjects(db, model: reader.model, layout: writer.layout, into: writer) }
        try writer.finish(storeUUID: uuid, highestKeys: highest)

        try Self.expectSameStore(written, as: store, model: reader.model, layout: writer.layout)
        #expect(try DatabaseQueue(path: written).read { try String.fetchOne($0, sql: "SELECT Z_UUID FROM Z_METADATA") } == uuid)
    }

    /// Entity and join tables with the same rows (`Z_OPT` and `Z_FOK_` included), `Z_PRIMARYKEY`
    /// with the same rows (an entity's name from before a renaming aside), the same version hashes,
    /// WAL and incremental auto-vacuum, and, where no migration touched the original, the same
    /// statements in the same order.
    static func expectSameStore(_ written: String, as store: CorpusStore, model: DataModel, layout: CoreDataSQLLayout) throws {
        let directory = TemporaryDirectory()
        let original = try DatabaseQueue(path: try writableCopy(of: store.storePath, into: directory))
        let copy = try DatabaseQueue(path: written)
        for table in layout.tables.map(\.name) {
            let sql = "SELECT * FROM \(table) ORDER BY 1, 2"
            #expect(try copy.read { try Row.fetchAll($0, sql: sql) } == original.read { try Row.fetchAll($0, sql: sql) }, "\(store.testDescription): \(table)")
        }
        // A migrated store may keep an entity's name from before its renaming (CoreDataPlus V2's
        // ExpensiveSportCar, now LuxuryCar by its renaming identifier); a new store has the new one.
        let renamed = Dictionary(model.entities.compactMap { entity in entity.renamingIdentifier.map { ($0, entity.name) } }, uniquingKeysWith: { a, _ in a })
        let entries = { (queue: DatabaseQueue) in
            try queue.read { try Row.fetchAll($0, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT") }
                .map { "\($0[0] as Int) \(renamed[$0[1] as String] ?? $0[1]) \($0[2] as Int) \($0[3] as Int)" }
        }
        #expect(try entries(copy) == entries(original), "\(store.testDescription): Z_PRIMARYKEY")
        let plists = try [copy, original].map { queue in
            try BinaryPropertyList.read(try #require(try queue.read { try Data.fetchOne($0, sql: "SELECT Z_PLIST FROM Z_METADATA") }))
        }
        #expect(plists[0]["NSStoreModelVersionHashes"] == plists[1]["NSStoreModelVersionHashes"])
        let schema = try copy.read { try String.fetchAll($0, sql: "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid") }
        let real = try SchemaSQLCorpusTests.created(store.storePath)
        if real.untouched {
            #expect(schema.map(SchemaSQLCorpusTests.place) == real.statements.map(SchemaSQLCorpusTests.place))
        }
        // Core Data opens it, and reads it without the model through the cache Ferry wrote.
        let check = try CoreDataStoreCheck(path: written, model: store.modelPath).run()
        #expect(check.findings.isEmpty, "\(store.testDescription): \(check.findings)")
        let cached = try CoreDataStoreReader(path: written)
        #expect(cached.schemaSource == .modelCache && cached.mapping.problems.isEmpty)
        #expect(EntityVersionHash.hashes(of: cached.model) == EntityVersionHash.hashes(of: model))
        #expect(try copy.read { try Int.fetchOne($0, sql: "PRAGMA auto_vacuum") } == 2)
        #expect(try copy.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")
        try copy.close()
        try original.close()
    }

    /// Each object with its attributes and to-ones, then the orders and the to-manys that live
    /// apart from their inverse (join tables, from their first column's side; no-inverse columns).
    static func copyObjects(_ db: Database, model: DataModel, layout: CoreDataSQLLayout, into writer: CoreDataStoreWriter) throws {
        let names = Dictionary(uniqueKeysWithValues: layout.entityNumbers.map { ($0.value, $0.key) })
        var laterLinks: [() throws -> Void] = []
        for entity in model.entities where !entity.isAbstract {
            guard let table = layout.entityTables[entity.name], let number = layout.entityNumbers[entity.name] else { continue }
            let attributes = model.allAttributes(of: entity).compactMap { attribute in layout.column(ofAttribute: attribute.name, in: entity).map { (attribute.name, $0) } }
            let relationships = model.allRelationships(of: entity)
            for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table) WHERE Z_ENT = ?", arguments: [number]) {
                let key: Int64 = row["Z_PK"]
                var toOne: [String: (entity: String, primaryKey: Int64)] = [:]
                for relationship in relationships {
                    guard case .foreignKey(let column, let entityColumn) = layout.storage(ofRelationship: relationship.name, in: entity),
                          let target = row[column] as Int64? else { continue }
                    let targetEntity = entityColumn.flatMap { (row[$0] as Int?).flatMap { names[$0] } } ?? relationship.destinationEntity ?? ""
                    toOne[relationship.name] = (targetEntity, target)
                    if let order = layout.orderColumn(ofToOne: relationship.name, in: entity), let value = row[order] as Int64? {
                        laterLinks.append { try writer.setOrder(entity.name, primaryKey: key, inverse: relationship.name, order: value) }
                    }
                }
                try writer.insert(entity.name, primaryKey: key, attributes: Dictionary(uniqueKeysWithValues: attributes.map { ($0.0, CoreDataCell(row[$0.1])) }),
                                  toOne: toOne, optimisticLock: row["Z_OPT"] ?? 1)
                for relationship in relationships where relationship.isToMany {
                    switch layout.storage(ofRelationship: relationship.name, in: entity) {
                    case .joinTable(let joinTable, let source, let destination, let order, _)
                        where layout.table(named: joinTable)?.columns.first?.name == source:
                        let rows = try Row.fetchAll(db, sql: "SELECT * FROM \(joinTable) WHERE \(source) = ? ORDER BY \(destination)", arguments: [key])
                        let inverseOrder = layout.table(named: joinTable)?.columns.map(\.name).first { $0.hasPrefix("Z_FOK_") && $0 != order }
                        laterLinks.append {
                            try writer.link(entity.name, primaryKey: key, relationship.name, to: rows.map { $0[destination] },
                                            order: order.map { column in rows.map { $0[column] ?? 0 } },
                                            inverseOrder: inverseOrder.map { column in rows.map { $0[column] ?? 0 } })
                        }
                    case .inverseForeignKey(let other, let column, nil) where relationship.inverseName == nil:
                        let targets = try Int64.fetchAll(db, sql: "SELECT Z_PK FROM \(other) WHERE \(column) = ?", arguments: [key])
                        laterLinks.append { try writer.link(entity.name, primaryKey: key, relationship.name, to: targets) }
                    default: break
                    }
                }
            }
        }
        for link in laterLinks { try link() }
    }
}
