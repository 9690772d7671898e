import FerryCanonical
import FerryJSON
import FerryCoreData
import FerryModel

/// Molten's Core Data store, every model version: plans (`ProjectPlan`; `Project` from
/// version 9), project logs (`ProjectLog`; `Logbook` from version 9) with their glass items,
/// steps, reference URLs, tags, techniques and images, whether kept in Transformable blobs or
/// in child entities; and the catalog rows (`GlassItem` and its siblings, `CatalogItem`).
/// Inventory, shopping and purchase records have no canonical home and are reported.
struct MoltenStoreReader {
    let context: ConversionContext
    let index: CoreDataRecordIndex
    let time: String

    static let plans: Set<String> = ["ProjectPlan", "Project"]
    static let logs: Set<String> = ["ProjectLog", "Logbook"]
    static let catalog: Set<String> = ["GlassItem", "ToolItem", "UserItem", "CatalogItem", "CatalogItemUser", "CatalogItemOverride"]
    /// Plans and logs are read in their turn and let go, their children read with them.
    static let streamedEntities = plans.union(logs)

    /// The entities a plan or a log holds through to-manys, and theirs in turn (steps, images,
    /// glass items, reference URLs, tags, techniques): read into their owner's record.
    static func children(in model: DataModel) -> Set<String> {
        var found: Set<String> = []
        var owners = Array(streamedEntities)
        while let name = owners.popLast() {
            guard let entity = model.entity(named: name) else { continue }
            for relationship in model.allRelationships(of: entity) where relationship.isToMany {
                guard let destination = relationship.destinationEntity, !streamedEntities.contains(destination), !catalog.contains(destination),
                      found.insert(destination).inserted else { continue }
                owners.append(destination)
            }
        }
        return found
    }

    func convert() throws {
        try index.require(.molten, anyOf: Self.plans.union(Self.logs).union(Self.catalog))
        let normalizer = MoltenNormalizer(context: context)
        for record in index.records(of: Self.catalog) {
            try context.record {
                index.take(record)
                let fields = index.fields(record, dates: context.dates)
                let item = try normalizer.catalogItem(fields, entity: record.entity, file: index.fileName)
                try context.claim(item.naturalKey, table: "catalog_item", at: fields.location)
                context.batch.catalog.append(item)
            }
        }
        try eachOwner(of: Self.plans, claiming: "recipe") { fields, id, source, record in
            context.batch.recipes.append(try normalizer.plan(fields, id: id, source: source, resolver: index, ownerKey: record.id, time: time))
        }
        try eachOwner(of: Self.logs, claiming: "log") { fields, id, source, record in
            context.batch.logs.append(try normalizer.log(fields, id: id, source: source, resolver: index, ownerKey: record.id, time: time))
        }
    }

    /// Each record of the entities that own children (plans, logs), claimed in `table` under
    /// its canonical id, with its fields less the legacy id.
    private func eachOwner(of entities: Set<String>, claiming table: String,
                           _ body: (FieldReader, String, SourceRef, CoreDataRecord) throws -> Void) throws {
        try index.forEachRecord(of: entities) { record in
            try context.record {
                var (id, fields) = try context.take(record, from: index, app: .molten, claiming: table)
                fields.skip("id")
                try body(fields, id, index.source(record, app: .molten), record)
            }
            try context.flushIfNeeded()
        }
    }
}
