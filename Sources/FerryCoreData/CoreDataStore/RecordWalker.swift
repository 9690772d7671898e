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
    /// Values as stored, with `Z_OPT` and the orders of ordered to-manys.
    var lossless = false
    private var identifiers: RecordIdentifiers

    init(reader: CoreDataStoreReader) {
        self.reader = reader
        decoder = CoreDataValueDecoder(storePath: reader.path)
        identifiers = RecordIdentifiers(reader: reader)
    }

    private mutating func prepare(table: String, db: Database) throws {
        try identifiers.prepare(table: table, db: db)
        for (warning, count) in identifiers.takeWarnings() { decoder.warnings[warning, default: 0] += count }
    }

    /// - Parameter omitting: relationships left out of each record (a caller that reads their
    ///   destinations on its own need not hold, say, a million log ids per recipe).
    mutating func walk(_ entity: EntityMapping, omitting: (RelationshipDescription) -> Bool = { _ in false }, typed: TypedRows? = nil,
                       db: Database, body: (CoreDataRecord) throws -> Void) throws {
        guard let number = entity.number, let table = entity.table else { return }
        try prepare(table: table, db: db)
        let attributes = entity.attributes.compactMap { pair in pair.column.map { (pair.attribute, $0) } }
        var columns = ["t.Z_PK"] + attributes.map { "t." + SQLName.quoted($0.1) }
        var joins: [String] = []
        var foreignKeys: [ForeignKey] = []
        var toMany: [(name: String, storage: RelationshipStorage)] = []
        for (relationship, storage) in entity.relationships where !omitting(relationship) {
            switch storage {
            case .foreignKey(let column, let entityColumn):
                // The destination's UUID names it: read by joining its table on the key.
                let destinationTable = relationship.destinationEntity.flatMap(reader.mapping.entity(named:))?.table
                let keyIndex = columns.count
                columns.append("t." + SQLName.quoted(column))
                let entityIndex = entityColumn.map { entityColumn -> Int in
                    columns.append("t." + SQLName.quoted(entityColumn))
                    return columns.count - 1
                }
                var uuid: Int?
                if let destinationTable, let uuidColumn = identifiers.uuidColumn(ofTable: destinationTable) {
                    try prepare(table: destinationTable, db: db)
                    let alias = "d\(joins.count)"
                    joins.append("LEFT JOIN \(SQLName.quoted(destinationTable)) \(alias) ON \(alias).Z_PK = t.\(SQLName.quoted(column))")
                    columns.append("\(alias).\(SQLName.quoted(uuidColumn))")
                    uuid = columns.count - 1
                }
                foreignKeys.append((relationship.name, relationship.destinationEntity, keyIndex, entityIndex, uuid, destinationTable, column))
            case .inverseForeignKey, .joinTable:
                toMany.append((relationship.name, storage))
            case .unmapped:
                break
            }
        }
        let ownUUID = identifiers.uuidColumn(ofTable: table).map { column -> Int in
            columns.append("t." + SQLName.quoted(column))
            return columns.count - 1
        }
        let optimisticLock = lossless ? columns.count : nil
        if lossless { columns.append("t.Z_OPT") }
        // Typed rows: positions of the cells and to-ones asked for, when the entity has them all.
        let typed = typed.flatMap { typed -> (TypedRows, [Int], [Int])? in
            guard typed.entity == entity.entity.name, toMany.isEmpty else { return nil }
            let cells = typed.attributes.map { name in attributes.firstIndex { $0.0.name.lowercased() == name.lowercased() }.map { $0 + 1 } ?? -1 }
            let targets = typed.toOnes.map { name in foreignKeys.firstIndex { $0.name.lowercased() == name.lowercased() } ?? -1 }
            return cells.contains(-1) || targets.contains(-1) ? nil : (typed, cells, targets)
        }
        // Passed to the decoder by reference into this array: out of the pairs each was a copy a cell.
        let descriptions = attributes.map(\.0)
        let slots = Self.slots(attributes: attributes.map(\.0.name), foreignKeys: foreignKeys.map(\.name), toMany: toMany.map(\.name))
        let sql = "SELECT \(columns.joined(separator: ", ")) FROM \(SQLName.quoted(table)) t \(joins.joined(separator: " ")) WHERE t.Z_ENT = ? ORDER BY t.Z_PK"
        let rows = try Row.fetchCursor(db, sql: sql, arguments: [number])
        while let row = try rows.next() {
            guard let primaryKey = StoreValue.integer(row[0]) else {
                throw CoreDataReadError(.corruptStore("table \(table), a row of entity \(entity.entity.name): Z_PK \(row[0] as DatabaseValue) is not an integer"),
                                        file: reader.path)
            }
            let id = identifiers.identifier(of: primaryKey, entityNumber: number, fallback: entity.entity.name, uuid: ownUUID.map { row[$0] }, table: table)
            if let (rows, cells, targets) = typed {
                var targetIDs: [String?] = []
                for position in targets {
                    targetIDs.append(try target(of: foreignKeys[position], in: row, table: table, primaryKey: primaryKey))
                }
                if try rows.take(TypedRow(primaryKey: primaryKey, id: id, cells: cells.map { StoreCell(row[$0]) }, targets: targetIDs)) { continue }
            }
            // Members go in in key order, so that writing them sorted takes no sorting.
            var members: [(key: String, value: JSONValue)] = []
            members.reserveCapacity(slots.count)
            var orders = JSONObject()
            for slot in slots {
                switch slot.source {
                case .attribute(let index):
                    members.append((slot.name, lossless ? StoreCell(row[index + 1]).losslessJSON
                        : decoder.decode(row[index + 1] as DatabaseValue, as: descriptions[index], entity: entity.entity.name)))
                case .foreignKey(let index):
                    members.append((slot.name, try target(of: foreignKeys[index], in: row, table: table, primaryKey: primaryKey).map { .string($0) } ?? .null))
                case .toMany(let index):
                    let listed = try related(primaryKey, storage: toMany[index].storage, db: db)
                    members.append((slot.name, .array(listed.map { .string($0.id) })))
                    if lossless, Self.orderColumn(of: toMany[index].storage) != nil {
                        orders[slot.name] = .array(listed.map { $0.order.losslessJSON })
                    }
                }
            }
            var record = CoreDataRecord(entity: entity.entity.name, id: id, primaryKey: primaryKey, values: JSONObject(members))
            if let optimisticLock { record.lossless = (StoreValue.integer(row[optimisticLock]), orders) }
            try body(record)
        }
    }

    /// Where a member of a record's values comes from.
    enum Source { case attribute(Int), foreignKey(Int), toMany(Int) }

    /// The members of an entity's records in the order JSON output sorts them (UTF-8 byte
    /// order); a name given twice keeps its last source, as setting it twice would.
    static func slots(attributes: [String], foreignKeys: [String], toMany: [String]) -> [(name: String, source: Source)] {
        var byName: [String: Source] = [:]
        for (index, name) in attributes.enumerated() { byName[name] = .attribute(index) }
        for (index, name) in foreignKeys.enumerated() { byName[name] = .foreignKey(index) }
        for (index, name) in toMany.enumerated() { byName[name] = .toMany(index) }
        return byName.map { (name: $0.key, source: $0.value) }.sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
    }

    typealias ForeignKey = (name: String, destination: String?, column: Int, entityColumn: Int?, uuid: Int?, table: String?, columnName: String)

    /// The id of a to-one's object, nil when it has none.
    private func target(of key: ForeignKey, in row: Row, table: String, primaryKey: Int64) throws -> String? {
        let stored: DatabaseValue = row[key.column]
        guard let target = StoreValue.integer(stored) else {
            guard stored.isNull else {
                throw CoreDataReadError(.corruptStore("table \(table), column \(key.columnName), Z_PK \(primaryKey): \(stored) is not a row number"),
                                        file: reader.path)
            }
            return nil
        }
        let targetNumber = key.entityColumn.flatMap { StoreValue.integer(row[$0]) }.flatMap { Int(exactly: $0) }
        return identifiers.identifier(of: target, entityNumber: targetNumber, fallback: key.destination, uuid: key.uuid.map { row[$0] }, table: key.table)
    }

    private static func orderColumn(of storage: RelationshipStorage) -> String? {
        switch storage {
        case .inverseForeignKey(_, _, let order), .joinTable(_, _, _, let order, _): return order
        default: return nil
        }
    }

    /// Ids of the objects a to-many relationship holds for one source row, in order, each with
    /// its stored `Z_FOK_` value where the relationship is ordered.
    private mutating func related(_ source: Int64, storage: RelationshipStorage, db: Database) throws -> [(id: String, order: StoreCell)] {
        let sql: String
        let table: String
        switch storage {
        case .inverseForeignKey(let destination, let column, let order):
            table = destination
            let uuid = identifiers.uuidColumn(ofTable: table).map(SQLName.quoted) ?? "NULL"
            sql = "SELECT Z_PK, Z_ENT, \(uuid), \(order.map(SQLName.quoted) ?? "NULL") FROM \(SQLName.quoted(table)) WHERE \(SQLName.quoted(column)) = ? ORDER BY \(order.map(SQLName.quoted) ?? "Z_PK"), Z_PK"
        case .joinTable(let join, let sourceColumn, let destinationColumn, let order, let destinationTable):
            table = destinationTable
            let uuid = identifiers.uuidColumn(ofTable: table).map { "d." + SQLName.quoted($0) } ?? "NULL"
            sql = """
                SELECT j.\(SQLName.quoted(destinationColumn)), d.Z_ENT, \(uuid), \(order.map { "j." + SQLName.quoted($0) } ?? "NULL") FROM \(SQLName.quoted(join)) j \
                LEFT JOIN \(SQLName.quoted(destinationTable)) d ON d.Z_PK = j.\(SQLName.quoted(destinationColumn)) \
                WHERE j.\(SQLName.quoted(sourceColumn)) = ? ORDER BY \(order.map { "j." + SQLName.quoted($0) } ?? "j." + SQLName.quoted(destinationColumn))
                """
        default:
            return []
        }
        try prepare(table: table, db: db)
        return try Row.fetchAll(db.cachedStatement(sql: sql), arguments: [source]).map { row in
            guard let key = StoreValue.integer(row[0]) else {
                throw CoreDataReadError(.corruptStore("\(Self.describe(storage)), row for Z_PK \(source): \(row[0] as DatabaseValue) is not a row number"),
                                        file: reader.path)
            }
            return (identifiers.identifier(of: key, entityNumber: StoreValue.integer(row[1]).flatMap { Int(exactly: $0) }, fallback: nil,
                                           uuid: row[2], table: table), StoreCell(row[3]))
        }
    }

    private static func describe(_ storage: RelationshipStorage) -> String {
        switch storage {
        case .inverseForeignKey(let table, let column, _): return "table \(table), column Z_PK (pointed at by \(column))"
        case .joinTable(let table, _, let column, _, _): return "table \(table), column \(column)"
        default: return "a relationship"
        }
    }

}
