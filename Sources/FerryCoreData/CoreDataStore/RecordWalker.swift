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
    private var identifiers: RecordIdentifiers

    init(reader: CoreDataStoreReader) {
        self.reader = reader
        decoder = CoreDataValueDecoder(storePath: reader.path)
        identifiers = RecordIdentifiers(reader: reader)
    }

    private mutating func loadIdentifiers(table: String, db: Database) throws {
        try identifiers.load(table: table, db: db)
        for (warning, count) in identifiers.takeWarnings() { decoder.warnings[warning, default: 0] += count }
    }

    private func identifier(of primaryKey: Int64, entityNumber: Int?, fallback: String?) -> String {
        identifiers.identifier(of: primaryKey, entityNumber: entityNumber, fallback: fallback)
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
            guard let key = StoreValue.integer(row[0]) else {
                throw CoreDataReadError(.corruptStore("\(Self.describe(storage)), row for Z_PK \(source): \(row[0] as DatabaseValue) is not a row number"),
                                        file: reader.path)
            }
            return identifier(of: key, entityNumber: StoreValue.integer(row[1]).flatMap { Int(exactly: $0) }, fallback: nil)
        }
    }

    private static func describe(_ storage: RelationshipStorage) -> String {
        switch storage {
        case .inverseForeignKey(let table, let column, _): return "table \(table), column Z_PK (pointed at by \(column))"
        case .joinTable(let table, _, let column, _, _): return "table \(table), column \(column)"
        default: return "a relationship"
        }
    }

    private func quote(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
