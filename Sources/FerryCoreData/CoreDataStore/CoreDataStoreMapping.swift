import FerryModel
import Foundation

/// How a relationship is stored in Core Data's SQLite layout.
public enum RelationshipStorage: Sendable, Hashable {
    /// A to-one: a column of the source row holding the destination's `Z_PK`, and, when the
    /// destination has sub-entities, a `Z<n><NAME>` column holding its `Z_ENT`.
    case foreignKey(column: String, entityColumn: String?)
    /// A to-many whose inverse is a to-one: the destination rows point back; `Z_FOK_<INVERSE>` orders them.
    case inverseForeignKey(table: String, column: String, orderColumn: String?)
    /// A many-to-many: a `Z_<n><NAME>` join table.
    case joinTable(table: String, sourceColumn: String, destinationColumn: String, orderColumn: String?)
    case unmapped(reason: String)
}

/// One model entity placed in a store: its `Z_ENT` number, its table, and a column or storage
/// for each of its properties, inherited ones included.
public struct EntityMapping: Sendable {
    public var entity: EntityDescription
    public var number: Int?
    public var table: String?
    public var attributes: [(attribute: AttributeDescription, column: String?)]
    public var relationships: [(relationship: RelationshipDescription, storage: RelationshipStorage)]
}

/// A model laid over a store's tables, as Core Data lays it: `Z<ROOT>` per entity hierarchy,
/// `Z<NAME>` per attribute and to-one relationship, `Z_<n><NAME>` join tables.
public struct CoreDataStoreMapping: Sendable {
    public var model: DataModel
    public var entities: [EntityMapping]
    /// What the model expects and the store lacks, as one line each.
    public var problems: [String]

    public func entity(named name: String) -> EntityMapping? {
        entities.first { $0.entity.name == name }
    }

    public func entity(number: Int) -> EntityMapping? {
        entities.first { $0.number == number }
    }

    public init(model: DataModel, schema: CoreDataStoreSchema) {
        self.model = model
        var problems: [String] = []
        let numbers = CoreDataStoreLayout.entityNumbers(of: model, in: schema)
        entities = model.entities.map { entity in
            let root = model.entity(named: entity.rootEntityName) ?? entity
            let table = CoreDataStoreLayout.tableCandidates(root).lazy.compactMap { schema.table(named: $0) }.first
            if table == nil && numbers[entity.name] != nil {
                problems.append("entity \(entity.name): no table \(CoreDataStoreLayout.tableName(root))")
            }
            let attributes = model.allAttributes(of: entity).filter(\.isStored).map { attribute -> (AttributeDescription, String?) in
                let column = table.flatMap { table in CoreDataStoreLayout.columnCandidates(attribute.name, attribute.renamingIdentifier).lazy
                    .compactMap { table.column(named: $0)?.name }.first }
                if column == nil, let table {
                    problems.append("entity \(entity.name): no column \(CoreDataStoreLayout.columnName(attribute.name)) in \(table.name) for attribute \(attribute.name)")
                }
                return (attribute, column)
            }
            let relationships = model.allRelationships(of: entity).filter { !$0.isTransient }.map { relationship in
                (relationship, CoreDataStoreLayout.storage(of: relationship, in: entity, model: model, schema: schema, numbers: numbers, table: table))
            }
            for (relationship, storage) in relationships {
                if case .unmapped(let reason) = storage, table != nil {
                    problems.append("entity \(entity.name): relationship \(relationship.name): \(reason)")
                }
            }
            return EntityMapping(entity: entity, number: numbers[entity.name], table: table?.name,
                                 attributes: attributes, relationships: relationships)
        }
        self.problems = problems
    }
}

/// Core Data's naming rules for SQLite stores.
enum CoreDataStoreLayout {
    static func tableName(_ entity: EntityDescription) -> String { "Z" + entity.name.uppercased() }
    static func columnName(_ property: String) -> String { "Z" + property.uppercased() }

    static func tableCandidates(_ root: EntityDescription) -> [String] {
        [tableName(root)] + (root.renamingIdentifier.map { ["Z" + $0.uppercased()] } ?? [])
    }

    static func columnCandidates(_ name: String, _ renamingIdentifier: String?) -> [String] {
        [columnName(name)] + (renamingIdentifier.map { [columnName($0)] } ?? [])
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

    static func storage(of relationship: RelationshipDescription, in entity: EntityDescription, model: DataModel,
                        schema: CoreDataStoreSchema, numbers: [String: Int], table: CoreDataStoreSchema.Table?) -> RelationshipStorage {
        guard let destinationName = relationship.destinationEntity, let destination = model.entity(named: destinationName) else {
            return .unmapped(reason: "destination entity is not in the model")
        }
        let inverse = relationship.inverseName.flatMap { name in model.allRelationships(of: destination).first { $0.name == name } }
        if !relationship.isToMany {
            guard let table, let column = columnCandidates(relationship.name, relationship.renamingIdentifier)
                .lazy.compactMap({ table.column(named: $0)?.name }).first else {
                return .unmapped(reason: "no column \(columnName(relationship.name))")
            }
            let entityColumn = table.columns.first { $0.name.range(of: "^Z[0-9]+\(NSRegularExpression.escapedPattern(for: relationship.name.uppercased()))$", options: .regularExpression) != nil }?.name
            return .foreignKey(column: column, entityColumn: entityColumn)
        }
        if let inverse, !inverse.isToMany {
            let destinationRoot = model.entity(named: destination.rootEntityName) ?? destination
            guard let destinationTable = tableCandidates(destinationRoot).lazy.compactMap({ schema.table(named: $0) }).first,
                  let column = destinationTable.column(named: columnName(inverse.name))?.name else {
                return .unmapped(reason: "no column \(columnName(inverse.name)) in \(tableName(destinationRoot))")
            }
            let order = destinationTable.column(named: "Z_FOK_" + inverse.name.uppercased())?.name
            return .inverseForeignKey(table: destinationTable.name, column: column, orderColumn: order)
        }
        return joinTable(for: relationship, of: entity, destination: destination, inverse: inverse, model: model,
                         schema: schema, numbers: numbers)
    }

    /// Join tables are named after either side: `Z_<declaring entity's number><RELATIONSHIP>`.
    /// The column holding an entity's key is named after that entity's number and the
    /// relationship pointing to it.
    static func joinTable(for relationship: RelationshipDescription, of entity: EntityDescription, destination: EntityDescription,
                          inverse: RelationshipDescription?, model: DataModel, schema: CoreDataStoreSchema,
                          numbers: [String: Int]) -> RelationshipStorage {
        let declaring = model.declaringEntity(of: relationship.name, below: entity) ?? entity.name
        let inverseName = inverse?.name ?? relationship.name
        let inverseDeclaring = inverse.flatMap { model.declaringEntity(of: $0.name, below: destination) } ?? destination.name
        guard let sourceNumber = numbers[declaring] else { return .unmapped(reason: "entity \(declaring) is not in Z_PRIMARYKEY") }
        let destinationNumber = numbers[inverseDeclaring] ?? numbers[destination.name]
        var candidates = ["Z_\(sourceNumber)\(relationship.name.uppercased())"]
        if let destinationNumber { candidates.append("Z_\(destinationNumber)\(inverseName.uppercased())") }
        guard let table = candidates.lazy.compactMap({ schema.table(named: $0) }).first else {
            return .unmapped(reason: "no join table \(candidates.joined(separator: " or "))")
        }
        let keyColumns = table.columns.map(\.name).filter { !$0.hasPrefix("Z_FOK_") }
        let sourceColumn = keyColumns.first { $0.caseInsensitiveCompare("Z_\(sourceNumber)\(inverseName.uppercased())") == .orderedSame }
        var destinationColumn = destinationNumber.flatMap { number in
            keyColumns.first { $0.caseInsensitiveCompare("Z_\(number)\(relationship.name.uppercased())") == .orderedSame }
        }
        if sourceColumn == destinationColumn { destinationColumn = keyColumns.first { $0 != sourceColumn } }
        guard let source = sourceColumn ?? keyColumns.first(where: { $0 != destinationColumn }),
              let target = destinationColumn ?? keyColumns.first(where: { $0 != source }) else {
            return .unmapped(reason: "join table \(table.name) has no key columns")
        }
        let order = table.columns.first { $0.name.hasPrefix("Z_FOK_") && $0.name.hasSuffix(String(target.dropFirst(2))) }?.name
        return .joinTable(table: table.name, sourceColumn: source, destinationColumn: target, orderColumn: relationship.isOrdered ? order : nil)
    }
}
