import FerryModel
import Foundation

/// How a relationship is stored in Core Data's SQLite layout.
public enum RelationshipStorage: Sendable, Hashable {
    /// A to-one: a column of the source row holding the destination's `Z_PK`, and, when the
    /// destination has sub-entities, a `Z<n>_<NAME>` column holding its `Z_ENT`.
    case foreignKey(column: String, entityColumn: String?)
    /// A to-many whose destination rows point back: through the inverse to-one's column
    /// (ordered by `Z_FOK_<INVERSE>` when the to-many is ordered), or, for a to-many without
    /// an inverse, through a `Z<n><NAME>` column Core Data adds to the destination's table.
    case inverseForeignKey(table: String, column: String, orderColumn: String?)
    /// A many-to-many: a `Z_<n><NAME>` join table; `destinationTable` holds the objects listed.
    case joinTable(table: String, sourceColumn: String, destinationColumn: String, orderColumn: String?, destinationTable: String)
    case unmapped(reason: String)
}

/// What Core Data makes of a model in SQLite, predicted from the model alone: entity numbers,
/// one table per entity hierarchy with its columns in Core Data's order, join tables, and where
/// each property lives. The rules, and the evidence for each, are in
/// `Formats/coredata-sql-mapping.md`; the same layout reads stores and is what writing them follows.
public struct CoreDataSQLLayout: Sendable {
    /// A column as a store declares it: `INTEGER`, `TIMESTAMP`, `FLOAT`, `DECIMAL`, `VARCHAR` or `BLOB`.
    public typealias Column = CoreDataStoreSchema.Column

    public struct Table: Sendable {
        public var name: String
        public var columns: [Column]
        /// The root entity for an entity table, nil for a join table.
        public var rootEntity: String?
    }

    /// `Z_ENT` numbers: pre-order over the hierarchies, names compared case-insensitively.
    public private(set) var entityNumbers: [String: Int] = [:]
    /// Parent's number, 0 for roots, as `Z_PRIMARYKEY.Z_SUPER` holds it.
    public private(set) var superNumbers: [String: Int] = [:]
    /// Entity tables first (root entities in number order), then join tables in the order they were named.
    public private(set) var tables: [Table] = []
    /// Root table of each entity.
    public private(set) var entityTables: [String: String] = [:]
    /// Column of each stored attribute, by declaring entity then attribute name.
    private var attributeColumns: [String: [String: String]] = [:]
    /// Storage of each stored relationship, by declaring entity then relationship name.
    private var relationshipStorage: [String: [String: RelationshipStorage]] = [:]
    /// `Z_FOK_` column of each to-one whose inverse is an ordered to-many, by declaring entity then name.
    private var orderColumns: [String: [String: String]] = [:]
    private let model: DataModel

    /// - Parameters:
    ///   - numbers: the store's own `Z_ENT` numbers, when reading a store: names that carry a
    ///     number (`Z_3SHOWS`, `Z4_MESSAGE`) follow the numbers the store holds. Nil predicts them.
    ///   - frameworkVersion: the store's `NSPersistenceFrameworkVersion`; before 700 a
    ///     many-to-many between two relationships of one entity was named after the other side.
    ///   - tablesInStore: the store's table names, when reading one: a many-to-many between two
    ///     relationships of one entity takes the name the store has, which a store keeps through
    ///     migrations from the framework that made it (Wire's `Z_24TRUSTEDBYCLIENTS` at 1000 and more).
    public init(model: DataModel, numbers: [String: Int]? = nil, frameworkVersion: Int? = nil, tablesInStore: Set<String>? = nil) {
        self.model = model
        let order = Self.numberingOrder(model)
        for (index, entity) in order.enumerated() { entityNumbers[entity.name] = numbers?[entity.name] ?? index + 1 }
        for entity in order { superNumbers[entity.name] = entity.parentName.flatMap { entityNumbers[$0] } ?? 0 }
        var noInverse: [String: [(source: EntityDescription, relationship: RelationshipDescription)]] = [:]
        for entity in order {
            for relationship in entity.relationships.sorted(by: { $0.name < $1.name }) where Self.isStored(relationship) && relationship.isToMany {
                guard inverse(of: relationship) == nil, let destination = relationship.destinationEntity.flatMap(model.entity(named:)) else { continue }
                noInverse[root(of: destination).name, default: []].append((entity, relationship))
            }
        }
        for rootEntity in order where root(of: rootEntity).name == rootEntity.name {
            layOutEntityTable(rootEntity, members: order.filter { root(of: $0).name == rootEntity.name },
                              pointingIn: noInverse[rootEntity.name] ?? [])
        }
        layOutJoinTables(frameworkVersion: frameworkVersion, tablesInStore: tablesInStore.map { Set($0.map { $0.uppercased() }) })
        layOutToManyThroughInverses(order)
    }

    /// The column of an attribute of `entity` (inherited ones included); nil for attributes
    /// Core Data does not store (transient, untyped, composite).
    public func column(ofAttribute name: String, in entity: EntityDescription) -> String? {
        model.declaringEntity(of: name, below: entity).flatMap { attributeColumns[$0]?[name] }
    }

    public func storage(ofRelationship name: String, in entity: EntityDescription) -> RelationshipStorage {
        guard let declaring = model.declaringEntity(of: name, below: entity) else {
            return .unmapped(reason: "not a relationship of \(entity.name)")
        }
        return relationshipStorage[declaring]?[name] ?? .unmapped(reason: "transient, or its destination is not in the model")
    }

    /// The `Z_FOK_` column ordering a to-one's object among its ordered inverse's objects.
    public func orderColumn(ofToOne name: String, in entity: EntityDescription) -> String? {
        model.declaringEntity(of: name, below: entity).flatMap { orderColumns[$0]?[name] }
    }

    public func table(named name: String) -> Table? {
        tables.first { $0.name == name }
    }

    // MARK: Entity numbers and hierarchies

    static func numberingOrder(_ model: DataModel) -> [EntityDescription] {
        let byName = { (a: EntityDescription, b: EntityDescription) in
            let (x, y) = (a.name.lowercased(), b.name.lowercased())
            return x == y ? a.name < b.name : x < y
        }
        var children: [String: [EntityDescription]] = [:]
        var roots: [EntityDescription] = []
        for entity in model.entities {
            if let parent = entity.parentName, model.entity(named: parent) != nil, entity.superentityNames.first == parent {
                children[parent, default: []].append(entity)
            } else {
                roots.append(entity)
            }
        }
        var order: [EntityDescription] = []
        var seen: Set<String> = []
        func visit(_ entity: EntityDescription) {
            guard seen.insert(entity.name).inserted else { return }
            order.append(entity)
            for child in (children[entity.name] ?? []).sorted(by: byName) { visit(child) }
        }
        for entity in roots.sorted(by: byName) { visit(entity) }
        // An entity in a parent cycle reaches no root; it keeps a table of its own.
        for entity in model.entities.sorted(by: byName) where !seen.contains(entity.name) { visit(entity) }
        return order
    }

    private func root(of entity: EntityDescription) -> EntityDescription {
        model.entity(named: entity.rootEntityName) ?? entity
    }

    static func isStored(_ attribute: AttributeDescription) -> Bool {
        !attribute.isTransient && attribute.type != .undefined && attribute.type != .composite
    }

    static func isStored(_ relationship: RelationshipDescription) -> Bool {
        !relationship.isTransient
    }

    /// The inverse relationship and the entity declaring it.
    private func inverse(of relationship: RelationshipDescription) -> (entity: String, relationship: RelationshipDescription)? {
        guard let name = relationship.inverseName,
              let destination = (relationship.inverseEntity ?? relationship.destinationEntity).flatMap(model.entity(named:)),
              let declaring = model.declaringEntity(of: name, below: destination),
              let inverse = model.entity(named: declaring)?.relationship(named: name), Self.isStored(inverse) else { return nil }
        return (declaring, inverse)
    }

    // MARK: Entity tables

    /// The sort key of a column: type group first, then the declaring entity's place in the
    /// hierarchy, then a kind within the group, then names.
    private struct ColumnKey: Comparable {
        var group: Int, entity: Int, kind: Int, name: String, entityColumn: Int

        static func < (a: Self, b: Self) -> Bool {
            (a.group, a.entity, a.kind, a.name, a.entityColumn) < (b.group, b.entity, b.kind, b.name, b.entityColumn)
        }
    }

    private mutating func layOutEntityTable(_ rootEntity: EntityDescription, members: [EntityDescription],
                                            pointingIn noInverse: [(source: EntityDescription, relationship: RelationshipDescription)]) {
        let tableName = "Z" + rootEntity.name.uppercased()
        var names = UniqueNames(taken: ["Z_PK", "Z_ENT", "Z_OPT"])
        var columns: [(key: ColumnKey, column: Column)] = []
        for (index, entity) in members.enumerated() {
            entityTables[entity.name] = tableName
            var orderPlaces: [String: Int]?
            // Attributes are named before relationships, each in name order: the earlier entity keeps the bare name.
            for attribute in entity.attributes.sorted(by: { $0.name < $1.name }) where Self.isStored(attribute) {
                let name = names.claim("Z" + attribute.name.uppercased())
                attributeColumns[entity.name, default: [:]][attribute.name] = name
                let (group, type) = Self.placement(of: attribute.type)
                columns.append((ColumnKey(group: group, entity: index, kind: 0, name: attribute.name, entityColumn: 0),
                                Column(name: name, declaredType: type)))
            }
            for relationship in entity.relationships.sorted(by: { $0.name < $1.name }) where Self.isStored(relationship) && !relationship.isToMany {
                let upper = relationship.name.uppercased()
                let name = names.claim("Z" + upper)
                let key = ColumnKey(group: 0, entity: index, kind: 1, name: relationship.name, entityColumn: 0)
                columns.append((key, Column(name: name, declaredType: "INTEGER")))
                var entityColumn: String?
                if let destination = relationship.destinationEntity.flatMap(model.entity(named:)), !destination.subentityNames.isEmpty,
                   let number = entityNumbers[destination.name] {
                    let claimed = names.claim("Z\(number)_\(upper)")
                    var entityKey = key
                    entityKey.entityColumn = 1
                    columns.append((entityKey, Column(name: claimed, declaredType: "INTEGER")))
                    entityColumn = claimed
                }
                relationshipStorage[entity.name, default: [:]][relationship.name] = .foreignKey(column: name, entityColumn: entityColumn)
                if inverse(of: relationship).map({ $0.relationship.isToMany && $0.relationship.isOrdered }) == true {
                    // Several ordering columns of one entity come in the order of Core Data's own
                    // table of the entity's properties (``ForeignOrderKeyOrder``).
                    let places = orderPlaces ?? ForeignOrderKeyOrder.places(in: entity, of: model)
                    orderPlaces = places
                    let order = names.claim("Z_FOK_" + upper)
                    orderColumns[entity.name, default: [:]][relationship.name] = order
                    columns.append((ColumnKey(group: 1, entity: index, kind: places[relationship.name] ?? 0, name: relationship.name, entityColumn: 0),
                                    Column(name: order, declaredType: "INTEGER")))
                }
            }
        }
        for (source, relationship) in noInverse {
            guard let destination = relationship.destinationEntity, let index = members.firstIndex(where: { $0.name == destination }),
                  let number = entityNumbers[source.name] else { continue }
            let name = names.claim("Z\(number)\(relationship.name.uppercased())")
            columns.append((ColumnKey(group: 0, entity: index, kind: 2, name: relationship.name, entityColumn: 0),
                            Column(name: name, declaredType: "INTEGER")))
            relationshipStorage[source.name, default: [:]][relationship.name] = .inverseForeignKey(table: tableName, column: name, orderColumn: nil)
        }
        let fixed = ["Z_PK", "Z_ENT", "Z_OPT"].map { Column(name: $0, declaredType: "INTEGER") }
        tables.append(Table(name: tableName, columns: fixed + columns.sorted { $0.key < $1.key }.map(\.column), rootEntity: rootEntity.name))
    }

    /// Group in the column order and SQL type of each attribute type.
    public static func placement(of type: AttributeType) -> (group: Int, declaredType: String) {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: return (0, "INTEGER")
        case .date: return (2, "TIMESTAMP")
        case .double, .float: return (2, "FLOAT")
        case .decimal: return (2, "DECIMAL")
        case .string, .uri, .objectID: return (3, "VARCHAR")
        case .transformable: return (4, "BLOB")
        case .binary, .uuid, .undefined, .composite: return (5, "BLOB")
        }
    }

    /// A to-many whose inverse is a to-one is read through the inverse's column.
    private mutating func layOutToManyThroughInverses(_ entities: [EntityDescription]) {
        for entity in entities {
            for relationship in entity.relationships where Self.isStored(relationship) && relationship.isToMany {
                guard let (inverseEntity, inverse) = inverse(of: relationship), !inverse.isToMany,
                      case .foreignKey(let column, _)? = relationshipStorage[inverseEntity]?[inverse.name],
                      let table = entityTables[inverseEntity] else { continue }
                let order = relationship.isOrdered ? orderColumns[inverseEntity]?[inverse.name] : nil
                relationshipStorage[entity.name, default: [:]][relationship.name] = .inverseForeignKey(table: table, column: column, orderColumn: order)
            }
        }
    }

    // MARK: Join tables

    /// Entities are visited by name, each with its inherited relationships too, by name; the
    /// first relationship of a pair met names the table. Join-table column names share one
    /// namespace across all join tables.
    private mutating func layOutJoinTables(frameworkVersion: Int?, tablesInStore: Set<String>?) {
        var names = UniqueNames(taken: [])
        var done: Set<[String]> = []
        for carrier in model.entities.sorted(by: { $0.name < $1.name }) {
            let declared = ([carrier.name] + carrier.superentityNames).flatMap { name in
                (model.entity(named: name)?.relationships ?? []).map { (entity: name, relationship: $0) }
            }
            for (entity, relationship) in declared.sorted(by: { $0.relationship.name < $1.relationship.name })
            where Self.isStored(relationship) && relationship.isToMany {
                guard let (inverseEntity, inverse) = inverse(of: relationship), inverse.isToMany else { continue }
                let pair = ["\(entity).\(relationship.name)", "\(inverseEntity).\(inverse.name)"].sorted()
                guard done.insert(pair).inserted else { continue }
                var (owner, other) = (relationship, inverse)
                if entity == inverseEntity && relationship.name != inverse.name {
                    // Both sides in one entity: which names the table changed between frameworks (Wire UserClient).
                    let (first, last) = relationship.name < inverse.name ? (relationship, inverse) : (inverse, relationship)
                    (owner, other) = (frameworkVersion ?? 1000) >= 700 ? (last, first) : (first, last)
                    if let tablesInStore, let number = entityNumbers[entity],
                       !tablesInStore.contains("Z_\(number)\(owner.name.uppercased())"),
                       tablesInStore.contains("Z_\(number)\(other.name.uppercased())") {
                        (owner, other) = (other, owner)
                    }
                }
                guard let ownerNumber = entityNumbers[entity], let destination = owner.destinationEntity,
                      let destinationNumber = entityNumbers[destination], let destinationTable = entityTables[destination],
                      let ownerTable = entityTables[entity] else { continue }
                let table = "Z_\(ownerNumber)\(owner.name.uppercased())"
                if owner.name == other.name && entity == inverseEntity {
                    let column = names.claim(table)
                    tables.append(Table(name: table, columns: [Column(name: column, declaredType: "INTEGER"), Column(name: "REFLEXIVE", declaredType: "INTEGER")], rootEntity: nil))
                    relationshipStorage[entity, default: [:]][owner.name] = .joinTable(table: table, sourceColumn: column, destinationColumn: "REFLEXIVE",
                                                                                     orderColumn: nil, destinationTable: ownerTable)
                    continue
                }
                let ownerKeys = names.claim("Z_\(ownerNumber)\(other.name.uppercased())")
                let destinationKeys = names.claim("Z_\(destinationNumber)\(owner.name.uppercased())")
                var columns = [Column(name: ownerKeys, declaredType: "INTEGER"), Column(name: destinationKeys, declaredType: "INTEGER")]
                let orderOfOwnerKeys = other.isOrdered ? "Z_FOK_" + ownerKeys.dropFirst(2) : nil
                let orderOfDestinationKeys = owner.isOrdered ? "Z_FOK_" + destinationKeys.dropFirst(2) : nil
                columns += [orderOfOwnerKeys, orderOfDestinationKeys].compactMap { $0 }.map { Column(name: $0, declaredType: "INTEGER") }
                tables.append(Table(name: table, columns: columns, rootEntity: nil))
                relationshipStorage[entity, default: [:]][owner.name] = .joinTable(
                    table: table, sourceColumn: ownerKeys, destinationColumn: destinationKeys, orderColumn: orderOfDestinationKeys, destinationTable: destinationTable)
                relationshipStorage[inverseEntity, default: [:]][other.name] = .joinTable(
                    table: table, sourceColumn: destinationKeys, destinationColumn: ownerKeys, orderColumn: orderOfOwnerKeys, destinationTable: ownerTable)
            }
        }
    }
}

/// Core Data keeps names unique by appending 1, 2, … to the later claimant.
struct UniqueNames {
    var taken: Set<String>

    mutating func claim(_ name: String) -> String {
        if taken.insert(name).inserted { return name }
        var suffix = 1
        while !taken.insert("\(name)\(suffix)").inserted { suffix += 1 }
        return "\(name)\(suffix)"
    }
}
