import FerryModel
import Foundation
import GRDB

/// Writes an SQLite file laid out as Core Data lays out a store for a model: `Z<ROOT>` tables
/// with `Z_PK`, `Z_ENT`, `Z_OPT` and a `Z<NAME>` column per attribute and to-one relationship,
/// `Z_FOK_` order columns, `Z_<n><NAME>` join tables, `Z_PRIMARYKEY` and `Z_METADATA` with a
/// binary plist. Entity numbers follow Core Data: roots in name order, each followed by its
/// sub-entities, depth first. No `Z_MODELCACHE` is written, as if it had been lost.
///
/// For example:
/// ```swift
/// let builder = try CoreDataStoreBuilder(path: path, model: model, identifiers: ["5"])
/// let plan = try builder.insert("ProjectPlan", ["title": "Fish", "tags": archivedTags])
/// try builder.finish()
/// ```
public final class CoreDataStoreBuilder {
    public let queue: DatabaseQueue
    public let model: DataModel
    public private(set) var numbers: [String: Int] = [:]
    private var maximumKeys: [String: Int64] = [:]
    private let identifiers: [String]

    public init(path: String, model: DataModel, identifiers: [String] = [], walMode: Bool = false) throws {
        self.model = model
        self.identifiers = identifiers
        queue = try DatabaseQueue(path: path)
        var next = 1
        func number(_ entity: EntityDescription) {
            numbers[entity.name] = next
            next += 1
            for child in entity.subentityNames.sorted() { if let sub = model.entity(named: child) { number(sub) } }
        }
        for root in model.entities.filter({ $0.parentName == nil }).sorted(by: { $0.name < $1.name }) { number(root) }
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)")
            try db.execute(sql: "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
            try db.execute(sql: "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)")
            for root in model.entities where root.parentName == nil {
                try db.execute(sql: "CREATE TABLE \(Self.table(root)) (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER\(columnList(root)))")
            }
            // Core Data indexes every to-one relationship's column.
            for root in model.entities where root.parentName == nil {
                let columns = model.hierarchy(below: root).flatMap { $0.relationships.filter { !$0.isToMany }.map { "Z" + $0.name.uppercased() } }
                for column in Set(columns).sorted() {
                    try db.execute(sql: "CREATE INDEX \(Self.table(root))_\(column)_INDEX ON \(Self.table(root)) (\(column))")
                }
            }
            for (table, columns) in joinTables() {
                try db.execute(sql: "CREATE TABLE \(table) (\(columns.map { "\($0) INTEGER" }.joined(separator: ", ")))")
            }
        }
        if walMode { try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = WAL") } }
    }

    static func table(_ root: EntityDescription) -> String { "Z" + root.name.uppercased() }

    private func columnList(_ root: EntityDescription) -> String {
        var columns: [String] = []
        for entity in model.hierarchy(below: root) {
            for attribute in entity.attributes where attribute.isStored {
                columns.append("Z\(attribute.name.uppercased()) \(Self.declaredType(attribute.type))")
            }
            for relationship in entity.relationships where !relationship.isToMany {
                columns.append("Z\(relationship.name.uppercased()) INTEGER")
            }
        }
        // Order keys of ordered to-many relationships whose inverse is a to-one on this hierarchy.
        for entity in model.entities {
            for relationship in entity.relationships where relationship.isToMany && relationship.isOrdered {
                if let inverse = inverse(of: relationship), !inverse.isToMany,
                   let destination = relationship.destinationEntity.flatMap(model.entity(named:)), destination.rootEntityName == root.name {
                    columns.append("Z_FOK_\(inverse.name.uppercased()) INTEGER")
                }
            }
        }
        return columns.isEmpty ? "" : ", " + Array(Set(columns)).sorted().joined(separator: ", ")
    }

    private func inverse(of relationship: RelationshipDescription) -> RelationshipDescription? {
        guard let destination = relationship.destinationEntity.flatMap(model.entity(named:)), let name = relationship.inverseName else { return nil }
        return model.allRelationships(of: destination).first { $0.name == name }
    }

    /// One join table per many-to-many pair, named after the side whose entity and name sort first.
    private func joinTables() -> [(String, [String])] {
        var tables: [String: [String]] = [:]
        for entity in model.entities {
            for relationship in entity.relationships where relationship.isToMany {
                guard let inverse = inverse(of: relationship), inverse.isToMany,
                      let destination = relationship.destinationEntity, let e = numbers[entity.name], let d = numbers[destination] else { continue }
                let (ownerNumber, ownerName, otherNumber, otherName) = (entity.name, relationship.name) <= (destination, inverse.name)
                    ? (e, relationship.name, d, inverse.name) : (d, inverse.name, e, relationship.name)
                let table = "Z_\(ownerNumber)\(ownerName.uppercased())"
                var columns = ["Z_\(ownerNumber)\(otherName.uppercased())", "Z_\(otherNumber)\(ownerName.uppercased())"]
                if relationship.isOrdered || inverse.isOrdered { columns.append("Z_FOK_\(otherNumber)\(ownerName.uppercased())") }
                tables[table] = columns
            }
        }
        return tables.sorted { $0.key < $1.key }
    }

    static func declaredType(_ type: AttributeType) -> String {
        switch type {
        case .string, .uri: return "VARCHAR"
        case .integer16, .integer32, .integer64, .boolean: return "INTEGER"
        case .date: return "TIMESTAMP"
        case .double, .float: return "FLOAT"
        case .decimal: return "DECIMAL"
        default: return "BLOB"
        }
    }

    /// Inserts an object; `values` are keyed by property name (to-one relationships take the
    /// destination's primary key). Returns the new `Z_PK`.
    @discardableResult
    public func insert(_ entityName: String, _ values: [String: (any DatabaseValueConvertible)?]) throws -> Int64 {
        guard let entity = model.entity(named: entityName), let number = numbers[entityName],
              let root = model.entity(named: entity.rootEntityName) else { throw BuilderError("no entity \(entityName)") }
        let table = Self.table(root)
        let key = (maximumKeys[table] ?? 0) + 1
        maximumKeys[table] = key
        let names = ["Z_PK", "Z_ENT", "Z_OPT"] + values.keys.sorted().map { "Z" + $0.uppercased() }
        let arguments: [(any DatabaseValueConvertible)?] = [key, number, 1] + values.keys.sorted().map { values[$0]! }
        try queue.write { db in
            try db.execute(sql: "INSERT INTO \(table) (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))",
                           arguments: StatementArguments(arguments))
        }
        return key
    }

    /// Sets the order key of a destination row in an ordered to-many relationship.
    public func setOrder(_ entityName: String, primaryKey: Int64, inverse: String, position: Int) throws {
        guard let entity = model.entity(named: entityName), let root = model.entity(named: entity.rootEntityName) else { return }
        try queue.write { db in
            try db.execute(sql: "UPDATE \(Self.table(root)) SET Z_FOK_\(inverse.uppercased()) = ? WHERE Z_PK = ?", arguments: [position, primaryKey])
        }
    }

    /// Links objects through a many-to-many relationship's join table.
    public func link(_ entityName: String, _ primaryKey: Int64, _ relationshipName: String, to destinations: [Int64]) throws {
        guard let entity = model.entity(named: entityName), let relationship = model.allRelationships(of: entity).first(where: { $0.name == relationshipName }),
              let inverse = inverse(of: relationship), let destination = relationship.destinationEntity,
              let e = numbers[model.declaringEntity(of: relationshipName, below: entity) ?? entityName], let d = numbers[destination] else {
            throw BuilderError("no many-to-many \(entityName).\(relationshipName)")
        }
        let ownerIsSource = (entityName, relationshipName) <= (destination, inverse.name)
        let table = ownerIsSource ? "Z_\(e)\(relationshipName.uppercased())" : "Z_\(d)\(inverse.name.uppercased())"
        let sourceColumn = "Z_\(e)\(inverse.name.uppercased())", destinationColumn = "Z_\(d)\(relationshipName.uppercased())"
        try queue.write { db in
            for (position, target) in destinations.enumerated() {
                let hasOrder = try db.columns(in: table).contains { $0.name.hasPrefix("Z_FOK_") }
                if hasOrder {
                    let order = try db.columns(in: table).first { $0.name.hasPrefix("Z_FOK_") }!.name
                    try db.execute(sql: "INSERT INTO \(table) (\(sourceColumn), \(destinationColumn), \(order)) VALUES (?, ?, ?)",
                                   arguments: [primaryKey, target, position + 1])
                } else {
                    try db.execute(sql: "INSERT INTO \(table) (\(sourceColumn), \(destinationColumn)) VALUES (?, ?)", arguments: [primaryKey, target])
                }
            }
        }
    }

    /// Writes `Z_PRIMARYKEY` and `Z_METADATA`.
    public func finish(storeUUID: String = "7E1F0000-0000-4000-8000-000000000001") throws {
        var hashes: [String: Data] = [:]
        for entity in model.entities { hashes[entity.name] = Data(repeating: UInt8(truncatingIfNeeded: entity.name.count), count: 32) }
        let plist: [String: Any] = [
            "NSStoreType": "SQLite", "NSStoreModelVersionIdentifiers": identifiers.isEmpty ? [""] : identifiers,
            "NSStoreModelVersionHashes": hashes, "NSPersistenceFrameworkVersion": 1344, "NSStoreModelVersionHashesVersion": 3,
            "NSStoreUUID": storeUUID,
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        try queue.write { db in
            for entity in model.entities {
                guard let number = numbers[entity.name], let root = model.entity(named: entity.rootEntityName) else { continue }
                let superNumber = entity.parentName.flatMap { numbers[$0] } ?? 0
                try db.execute(sql: "INSERT INTO Z_PRIMARYKEY VALUES (?, ?, ?, ?)",
                               arguments: [number, entity.name, superNumber, entity.parentName == nil ? (maximumKeys[Self.table(root)] ?? 0) : 0])
            }
            try db.execute(sql: "INSERT INTO Z_METADATA VALUES (1, ?, ?)", arguments: [storeUUID, data])
        }
    }

    /// Core Data's date storage: seconds since 2001-01-01 UTC.
    public static func date(_ iso8601: String) -> Double {
        ISO8601DateFormatter().date(from: iso8601)!.timeIntervalSinceReferenceDate
    }

    /// A UUID as Core Data stores it: 16 bytes.
    public static func uuid(_ text: String) -> Data {
        withUnsafeBytes(of: UUID(uuidString: text)!.uuid) { Data($0) }
    }
}

public struct BuilderError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
