import FerryModel
import Foundation

/// One model entity placed in a store: its `Z_ENT` number, its table, and a column or storage
/// for each of its properties, inherited ones included.
public struct EntityMapping: Sendable {
    public var entity: EntityDescription
    public var number: Int?
    public var table: String?
    public var attributes: [(attribute: AttributeDescription, column: String?)]
    public var relationships: [(relationship: RelationshipDescription, storage: RelationshipStorage)]
}

/// A model laid over a store's tables: Core Data's own SQL mapping of the model
/// (``CoreDataSQLLayout``), with the store's `Z_ENT` numbers, checked name by name against the
/// tables the store has.
public struct CoreDataStoreMapping: Sendable {
    public var model: DataModel
    public var layout: CoreDataSQLLayout
    public var entities: [EntityMapping]
    /// What the model expects and the store lacks, as one line each.
    public var problems: [String]
    /// What the store holds that the model does not explain, as one line each.
    public var unexplained: [String]

    public func entity(named name: String) -> EntityMapping? {
        entities.first { $0.entity.name == name }
    }

    public func entity(number: Int) -> EntityMapping? {
        entities.first { $0.number == number }
    }

    /// The entities stored in `table`: one, or a hierarchy.
    public func entities(storedIn table: String) -> [EntityMapping] {
        entities.filter { $0.table == table }
    }

    /// Whether `entity` is its table's one entity: Core Data's SQL then has no `Z_ENT` test, and
    /// reads every row of the table as it, whatever `Z_ENT` holds.
    public func holdsTableAlone(_ entity: EntityMapping) -> Bool {
        entity.table.map { entities(storedIn: $0).count == 1 } ?? false
    }

    public init(model: DataModel, schema: CoreDataStoreSchema, frameworkVersion: Int? = nil) {
        self.model = model
        let numbers = Self.entityNumbers(of: model, in: schema)
        layout = CoreDataSQLLayout(model: model, numbers: numbers, frameworkVersion: frameworkVersion, tablesInStore: Set(schema.tables.map(\.name)))
        var problems: [String] = []
        let resolver = StoreNames(schema: schema)
        entities = model.entities.map { [layout] entity in
            let root = model.entity(named: entity.rootEntityName) ?? entity
            let predicted = layout.entityTables[entity.name] ?? "Z" + root.name.uppercased()
            let table = resolver.table(predicted, renamedFrom: root.renamingIdentifier)
            if table == nil && numbers[entity.name] != nil {
                problems.append("entity \(entity.name): no table \(predicted)")
            }
            let attributes = model.allAttributes(of: entity).filter(CoreDataSQLLayout.isStored).map { attribute -> (AttributeDescription, String?) in
                guard let table, let predicted = layout.column(ofAttribute: attribute.name, in: entity) else { return (attribute, nil) }
                let column = resolver.column(predicted, renamedFrom: attribute.renamingIdentifier, in: table)
                if column == nil {
                    problems.append("entity \(entity.name): no column \(predicted) in \(table.name) for attribute \(attribute.name)")
                }
                return (attribute, column)
            }
            let relationships = model.allRelationships(of: entity).filter(CoreDataSQLLayout.isStored).map { relationship in
                let storage = table.map { resolver.resolve(layout.storage(ofRelationship: relationship.name, in: entity),
                                                           renamedFrom: relationship.renamingIdentifier, sourceTable: $0) }
                    ?? .unmapped(reason: "no table")
                if case .unmapped(let reason) = storage, table != nil {
                    problems.append("entity \(entity.name): relationship \(relationship.name): \(reason)")
                }
                return (relationship, storage)
            }
            return EntityMapping(entity: entity, number: numbers[entity.name], table: table?.name,
                                 attributes: attributes, relationships: relationships)
        }
        self.problems = problems
        let made = Set(layout.tables.map { $0.name.uppercased() })
        unexplained = schema.tables.map(\.name).filter { name in
            !made.contains(name.uppercased()) && CoreDataStoreSchema.TableKind(name) == .other
        }.map { "table \($0) is not part of this model; Core Data ignores it, and so does Ferry" }
    }

    /// `Z_ENT` numbers by model entity name. `Z_PRIMARYKEY` may keep an entity's name from
    /// before a rename (CoreDataPlus's migrated store still says ExpensiveSportCar), so the
    /// renaming identifier is tried too.
    static func entityNumbers(of model: DataModel, in schema: CoreDataStoreSchema) -> [String: Int] {
        var numbers: [String: Int] = [:]
        for entity in model.entities {
            if let entry = schema.entityEntry(named: entity.name) ?? entity.renamingIdentifier.flatMap(schema.entityEntry(named:)) {
                numbers[entity.name] = entry.number
            }
        }
        return numbers
    }
}

/// Finds the layout's names in a store: exactly (SQLite names ignore case), else under a
/// property's or entity's renaming identifier, which an in-place migration may have kept.
private struct StoreNames {
    let schema: CoreDataStoreSchema

    func table(_ name: String, renamedFrom old: String?) -> CoreDataStoreSchema.Table? {
        schema.table(named: name) ?? old.flatMap { schema.table(named: "Z" + $0.uppercased()) }
    }

    func column(_ name: String, renamedFrom old: String?, in table: CoreDataStoreSchema.Table) -> String? {
        table.column(named: name)?.name ?? old.flatMap { table.column(named: "Z" + $0.uppercased())?.name }
    }

    func resolve(_ storage: RelationshipStorage, renamedFrom old: String?, sourceTable: CoreDataStoreSchema.Table) -> RelationshipStorage {
        switch storage {
        case .foreignKey(let column, let entityColumn):
            guard let found = self.column(column, renamedFrom: old, in: sourceTable) else {
                return .unmapped(reason: "no column \(column) in \(sourceTable.name)")
            }
            return .foreignKey(column: found, entityColumn: entityColumn.flatMap { sourceTable.column(named: $0)?.name })
        case .inverseForeignKey(let tableName, let column, let order):
            guard let table = schema.table(named: tableName) else { return .unmapped(reason: "no table \(tableName)") }
            guard let found = table.column(named: column)?.name else { return .unmapped(reason: "no column \(column) in \(table.name)") }
            return .inverseForeignKey(table: table.name, column: found, orderColumn: order.flatMap { table.column(named: $0)?.name })
        case .joinTable(let tableName, let source, let destination, let order, let destinationTable):
            guard let table = schema.table(named: tableName) else { return .unmapped(reason: "no join table \(tableName)") }
            guard let destinationTable = schema.table(named: destinationTable) else { return .unmapped(reason: "no table \(destinationTable)") }
            let keys = table.columns.map(\.name).filter { !$0.uppercased().hasPrefix("Z_FOK_") }
            // A store migrated in place may hold suffixes handed out in an older order (Photos'
            // Z_3REPRESENTATIVEASSETS): a two-key table is unambiguous once the suffix is set aside.
            func key(_ name: String) -> String? {
                keys.first { $0.caseInsensitiveCompare(name) == .orderedSame }
                    ?? keys.filter { SQLName.unsuffixed($0).caseInsensitiveCompare(SQLName.unsuffixed(name)) == .orderedSame }.onlyElement
            }
            guard let sourceColumn = key(source), let destinationColumn = key(destination), sourceColumn != destinationColumn else {
                return .unmapped(reason: "join table \(table.name) has no columns \(source) and \(destination) (it has \(keys.joined(separator: ", ")))")
            }
            let orderColumn = order.flatMap { _ in table.column(named: "Z_FOK_" + destinationColumn.dropFirst(2))?.name }
            return .joinTable(table: table.name, sourceColumn: sourceColumn, destinationColumn: destinationColumn,
                              orderColumn: orderColumn, destinationTable: destinationTable.name)
        case .unmapped:
            return storage
        }
    }
}

private extension Array {
    var onlyElement: Element? { count == 1 ? first : nil }
}
