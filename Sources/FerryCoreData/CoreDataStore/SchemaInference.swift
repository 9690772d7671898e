import FerryModel
import Foundation
import GRDB

/// Builds a model from a store alone, for stores without a model file and without a readable
/// model cache: entities and inheritance from `Z_PRIMARYKEY`, attributes from `Z<NAME>`
/// columns and their declared types, to-one relationships from indexed integer columns, and
/// many-to-many relationships from `Z_<n><NAME>` join tables.
///
/// Column names are upper case, so the property names it gives are lower case (`ZFIRSTNAME`
/// gives `firstname`); reports say that the schema was inferred.
enum SchemaInference {
    static func model(of schema: CoreDataStoreSchema, db: Database, file: String) throws -> DataModel {
        var entities: [String: EntityDescription] = [:]
        let entries = schema.entities
        for entry in entries {
            let parent = entry.superNumber == 0 ? nil : schema.entityEntry(number: entry.superNumber)?.name
            entities[entry.name] = EntityDescription(name: entry.name, parentName: parent)
        }
        let roots = entries.filter { $0.superNumber == 0 }
        for root in roots {
            guard let table = schema.table(named: "Z" + root.name.uppercased()) else { continue }
            var attributes: [AttributeDescription] = []
            var relationships: [RelationshipDescription] = []
            for column in table.columns where isModelColumn(column.name.uppercased()) && column.name.hasPrefix("Z") {
                let name = String(column.name.dropFirst()).lowercased()
                let indexed = schema.indexNames.contains("\(table.name)_\(column.name)_INDEX")
                if column.declaredType == "INTEGER", indexed, let destination = destination(named: name, among: entries) {
                    relationships.append(RelationshipDescription(name: name, destination: destination))
                } else if column.declaredType == "INTEGER", indexed {
                    // A foreign key to an entity its name does not tell: keep the raw key.
                    var attribute = AttributeDescription(name: name, type: .integer64)
                    attribute.userInfo["ferry.inferred"] = "foreign key of unknown destination"
                    attributes.append(attribute)
                } else {
                    var attribute = AttributeDescription(name: name, type: type(declared: column.declaredType))
                    if attribute.type == .binary {
                        attribute.userInfo["ferry.inferred"] = "blob"
                        if try holdsOnlyUUIDs(table: table.name, column: column.name, db: db) { attribute.type = .uuid }
                    }
                    attributes.append(attribute)
                }
            }
            // Properties of a hierarchy share its root table; without a model they belong to the root.
            entities[root.name]?.attributes = attributes
            entities[root.name]?.relationships = relationships
        }
        for table in schema.tables where table.name.uppercased().hasPrefix("Z_") && !CoreDataStoreSchema.bookkeepingTables.contains(table.name.uppercased()) {
            addManyToMany(table, schema: schema, entities: &entities)
        }
        let ordered = entries.compactMap { entities[$0.name] }
        return DataModel(file: file, versionName: nil, entities: ordered, attributes: ["inferredFrom": "store tables"])
    }

    /// A blob column whose every value is 16 bytes holds UUIDs (`id: UUID` in SwiftData).
    static func holdsOnlyUUIDs(table: String, column: String, db: Database) throws -> Bool {
        let quotedTable = SQLName.quoted(table)
        let quotedColumn = SQLName.quoted(column)
        let row = try Row.fetchOne(db, sql: """
            SELECT count(*), sum(typeof(\(quotedColumn)) = 'blob' AND length(\(quotedColumn)) = 16)
            FROM \(quotedTable) WHERE \(quotedColumn) IS NOT NULL
            """)
        let total: Int = row?[0] ?? 0
        let uuids: Int = row?[1] ?? 0
        return total > 0 && total == uuids
    }

    static func type(declared: String) -> AttributeType {
        switch declared {
        case "VARCHAR", "TEXT": return .string
        case "INTEGER": return .integer64
        case "TIMESTAMP": return .date
        case "FLOAT", "REAL": return .double
        case "DECIMAL", "NUMERIC": return .decimal
        case "BLOB": return .binary
        default: return .undefined
        }
    }

    /// An indexed integer column named after an entity points to it (`ZAUTHOR` → Author).
    static func destination(named name: String, among entries: [CoreDataStoreSchema.EntityEntry]) -> String? {
        entries.first { $0.name.lowercased() == name }?.name
    }

    /// `Z_1BOOKS (Z_1AUTHORS, Z_2BOOKS)`: entity 1 has `books` to entity 2, entity 2 has `authors` to entity 1.
    static func addManyToMany(_ table: CoreDataStoreSchema.Table, schema: CoreDataStoreSchema, entities: inout [String: EntityDescription]) {
        let keys = table.columns.map(\.name).filter { !$0.uppercased().hasPrefix("Z_FOK_") }
        let parsed = keys.compactMap { key -> (number: Int, name: String)? in
            guard let match = key.firstMatch(of: /^Z_([0-9]+)([A-Za-z_][A-Za-z0-9_]*)$/), let number = Int(match.1) else { return nil }
            return (number, String(match.2).lowercased())
        }
        guard parsed.count == 2, let first = schema.entityEntry(number: parsed[0].number),
              let second = schema.entityEntry(number: parsed[1].number) else { return }
        var forward = RelationshipDescription(name: parsed[1].name, destination: second.name)
        forward.isToMany = true
        forward.inverseName = parsed[0].name
        var backward = RelationshipDescription(name: parsed[0].name, destination: first.name)
        backward.isToMany = true
        backward.inverseName = parsed[1].name
        entities[first.name]?.relationships.append(forward)
        if first.name != second.name || parsed[0].name != parsed[1].name {
            entities[second.name]?.relationships.append(backward)
        }
    }

    /// A column holding a property, not Core Data's bookkeeping (`Z_PK`, `Z_FOK_…`, `Z<n>_…`).
    private static func isModelColumn(_ name: String) -> Bool {
        !["Z_PK", "Z_ENT", "Z_OPT"].contains(name) && !name.hasPrefix("Z_FOK_") && name.range(of: "^Z[0-9]+[A-Z_]", options: .regularExpression) == nil
    }
}
