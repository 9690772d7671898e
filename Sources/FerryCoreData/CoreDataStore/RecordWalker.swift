import FerryJSON
import FerryModel
import Foundation
import GRDB

/// Reads the rows of one entity after another and turns them into ``CoreDataRecord``s: the
/// columns by type, to-one keys into ids, to-many relationships by querying the destination
/// or join table, in order when ordered.
struct RecordWalker {
    let reader: CoreDataStoreReader
    var decoder: CoreDataValueDecoder
    /// Root table → primary key → UUID text, for hierarchies with a unique `id`/`uuid` UUID attribute.
    private var uuids: [String: [Int64: String]] = [:]
    private var loadedTables: Set<String> = []

    init(reader: CoreDataStoreReader) {
        self.reader = reader
        decoder = CoreDataValueDecoder(storePath: reader.path)
    }

    mutating func walk(_ entity: EntityMapping, db: Database, body: (CoreDataRecord) throws -> Void) throws {
        guard let number = entity.number, let table = entity.table else { return }
        try loadIdentifiers(table: table, db: db)
        let attributes = entity.attributes.compactMap { pair in pair.column.map { (pair.attribute, $0) } }
        var columns = ["Z_PK"] + attributes.map(\.1)
        var foreignKeys: [(name: String, destination: String?, column: Int, entityColumn: Int?)] = []
        var toMany: [(name: String, storage: RelationshipStorage)] = []
        for (relationship, storage) in entity.relationships {
            switch storage {
            case .foreignKey(let column, let entityColumn):
                // The destination's UUIDs name it whatever order the entities are walked in.
                if let destination = relationship.destinationEntity.flatMap(reader.mapping.entity(named:))?.table {
                    try loadIdentifiers(table: destination, db: db)
                }
                foreignKeys.append((relationship.name, relationship.destinationEntity, columns.count, entityColumn.map { _ in columns.count + 1 }))
                columns.append(column)
                if let entityColumn { columns.append(entityColumn) }
            case .inverseForeignKey, .joinTable:
                toMany.append((relationship.name, storage))
            case .unmapped:
                break
            }
        }
        let sql = "SELECT \(columns.map(quote).joined(separator: ", ")) FROM \(quote(table)) WHERE Z_ENT = ? ORDER BY Z_PK"
        let rows = try Row.fetchCursor(db, sql: sql, arguments: [number])
        while let row = try rows.next() {
            guard let primaryKey = StoreValue.integer(row[0]) else {
                throw CoreDataReadError(.corruptStore("table \(table), a row of entity \(entity.entity.name): Z_PK \(row[0] as DatabaseValue) is not an integer"),
                                        file: reader.path)
            }
            var values = JSONObject()
            for (index, (attribute, _)) in attributes.enumerated() {
                values[attribute.name] = decoder.decode(row[index + 1] as DatabaseValue, as: attribute, entity: entity.entity.name)
            }
            for key in foreignKeys {
                let stored: DatabaseValue = row[key.column]
                guard let target = StoreValue.integer(stored) else {
                    guard stored.isNull else {
                        throw CoreDataReadError(.corruptStore("table \(table), column \(columns[key.column]), Z_PK \(primaryKey): \(stored) is not a row number"),
                                                file: reader.path)
                    }
                    values[key.name] = .null
                    continue
                }
                let targetNumber = key.entityColumn.flatMap { StoreValue.integer(row[$0]) }.flatMap { Int(exactly: $0) }
                values[key.name] = .string(identifier(of: target, entityNumber: targetNumber, fallback: key.destination))
            }
            for relationship in toMany {
                values[relationship.name] = .array(try related(primaryKey, storage: relationship.storage, db: db).map { .string($0) })
            }
            try body(CoreDataRecord(entity: entity.entity.name, id: identifier(of: primaryKey, entityNumber: number, fallback: entity.entity.name),
                                 primaryKey: primaryKey, values: values))
        }
    }

    /// Ids of the objects a to-many relationship holds for one source row.
    private mutating func related(_ source: Int64, storage: RelationshipStorage, db: Database) throws -> [String] {
        let sql: String
        switch storage {
        case .inverseForeignKey(let table, let column, let order):
            try loadIdentifiers(table: table, db: db)
            sql = "SELECT Z_PK, Z_ENT FROM \(quote(table)) WHERE \(quote(column)) = ? ORDER BY \(order.map(quote) ?? "Z_PK"), Z_PK"
        case .joinTable(let table, let sourceColumn, let destinationColumn, let order, let destinationTable):
            try loadIdentifiers(table: destinationTable, db: db)
            sql = """
                SELECT j.\(quote(destinationColumn)), d.Z_ENT FROM \(quote(table)) j \
                LEFT JOIN \(quote(destinationTable)) d ON d.Z_PK = j.\(quote(destinationColumn)) \
                WHERE j.\(quote(sourceColumn)) = ? ORDER BY \(order.map { "j." + quote($0) } ?? "j." + quote(destinationColumn))
                """
        default:
            return []
        }
        return try Row.fetchAll(db.cachedStatement(sql: sql), arguments: [source]).map { row in
            identifier(of: row[0], entityNumber: row[1], fallback: nil)
        }
    }

    private func identifier(of primaryKey: Int64, entityNumber: Int?, fallback: String?) -> String {
        let mapping = entityNumber.flatMap { reader.mapping.entity(number: $0) }
        if let table = mapping?.table ?? fallback.flatMap({ reader.mapping.entity(named: $0)?.table }),
           let uuid = uuids[table]?[primaryKey] {
            return uuid
        }
        let name = mapping?.entity.name ?? fallback ?? entityNumber.flatMap { reader.schema.entityEntry(number: $0)?.name } ?? "Object"
        return "\(name)/p\(primaryKey)"
    }

    /// Loads `Z_PK → UUID` for a table whose hierarchy has an `id` or `uuid` UUID attribute;
    /// values held by more than one row are left out (those rows get `<Entity>/p<Z_PK>`).
    private mutating func loadIdentifiers(table: String, db: Database) throws {
        guard loadedTables.insert(table).inserted else { return }
        let columns = reader.mapping.entities.filter { $0.table == table }.flatMap { entity in
            entity.attributes.filter { ["id", "uuid"].contains($0.attribute.name) && $0.attribute.type == .uuid }.compactMap(\.column)
        }
        guard let column = columns.first else { return }
        var map: [Int64: String] = [:]
        var seen: [String: Int] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT Z_PK, \(quote(column)) FROM \(quote(table)) WHERE \(quote(column)) IS NOT NULL") {
            let value: DatabaseValue = row[1]
            let text: String
            switch value.storage {
            case .blob(let data) where data.count == 16: text = UUIDText.uppercase(data)
            case .string(let string): text = string.uppercased()
            default: continue
            }
            map[row[0]] = text
            seen[text, default: 0] += 1
        }
        let duplicates = Set(seen.filter { $0.value > 1 }.keys)
        if !duplicates.isEmpty {
            map = map.filter { !duplicates.contains($0.value) }
            decoder.warnings["\(table).\(column): \(duplicates.count) UUID value(s) held by several rows; those rows are named <Entity>/p<Z_PK>", default: 0] += 1
        }
        uuids[table] = map
    }

    private func quote(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
