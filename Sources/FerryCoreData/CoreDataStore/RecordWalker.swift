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
    /// Entities whose rows are read with their owner and written into its record in place of
    /// their ids (``CoreDataRecord/inlined`` counts them), so that nobody holds them by id.
    var inlined: Set<String> = []
    private var identifiers: RecordIdentifiers
    private var plans: [String: Plan] = [:]
    /// Tables whose rows of no known entity were looked for.
    private var strayRowsChecked: Set<String> = []

    init(reader: CoreDataStoreReader) {
        self.reader = reader
        decoder = CoreDataValueDecoder(storePath: reader.path)
        identifiers = RecordIdentifiers(reader: reader)
    }

    private mutating func prepare(table: String, db: Database) throws {
        try identifiers.prepare(table: table, db: db)
        for (warning, count) in identifiers.takeWarnings() { decoder.warnings[warning, default: 0] += count }
    }

    /// How one entity's rows are read: the columns selected, the to-ones by join, the to-manys,
    /// and the members of its records in output order. Made once per entity and walk.
    struct Plan {
        var number: Int
        var table: String
        var attributes: [(AttributeDescription, String)]
        /// The attributes alone, passed to the decoder by reference (from the pairs, each was a copy a cell).
        var descriptions: [AttributeDescription]
        var foreignKeys: [ForeignKey]
        /// To-manys; `inline` is the destination's plan when its rows go into the record itself.
        var toMany: [(name: String, storage: RelationshipStorage, inline: String?)]
        var ownUUID: Int?
        var optimisticLock: Int?
        /// Where `Z_ENT` is selected (lossless), to keep a value that is not the entity's number.
        var storedEntity: Int?
        /// The entity is the only one stored in its table: Core Data reads every row of the table
        /// as one of it (its SQL has no `Z_ENT` test then), whatever `Z_ENT` holds.
        var holdsTableAlone: Bool
        var slots: [(name: String, source: Source)]
        /// `SELECT … FROM table t LEFT JOIN …`, to which a walk adds its WHERE and ORDER BY.
        var select: String
    }

    private mutating func plan(_ entity: EntityMapping, omitting: (RelationshipDescription) -> Bool, db: Database) throws -> Plan? {
        guard let number = entity.number, let table = entity.table else { return nil }
        try prepare(table: table, db: db)
        let attributes = entity.attributes.compactMap { pair in pair.column.map { (pair.attribute, $0) } }
        var columns = ["t.Z_PK"] + attributes.map { "t." + SQLName.quoted($0.1) }
        var joins: [String] = []
        var foreignKeys: [ForeignKey] = []
        var toMany: [(name: String, storage: RelationshipStorage, inline: String?)] = []
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
            case .inverseForeignKey:
                toMany.append((relationship.name, storage, inlineDestination(of: relationship, from: entity)))
            case .joinTable:
                toMany.append((relationship.name, storage, nil))
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
        let storedEntity = lossless ? columns.count : nil
        if lossless { columns.append("t.Z_ENT") }
        let alone = reader.mapping.holdsTableAlone(entity)
        let slots = Self.slots(attributes: attributes.map(\.0.name), foreignKeys: foreignKeys.map(\.name), toMany: toMany.map(\.name))
        return Plan(number: number, table: table, attributes: attributes, descriptions: attributes.map(\.0), foreignKeys: foreignKeys,
                    toMany: toMany, ownUUID: ownUUID, optimisticLock: optimisticLock, storedEntity: storedEntity,
                    holdsTableAlone: alone, slots: slots,
                    select: "SELECT \(columns.joined(separator: ", ")) FROM \(SQLName.quoted(table)) t \(joins.joined(separator: " "))")
    }

    /// The destination of a to-many whose rows go into the owner's record: one of `inlined`,
    /// with no sub-entities (its rows are all of it), not the owner's own entity (no trees).
    private func inlineDestination(of relationship: RelationshipDescription, from owner: EntityMapping) -> String? {
        guard let name = relationship.destinationEntity, inlined.contains(name), name != owner.entity.name,
              let destination = reader.mapping.entity(named: name), destination.entity.subentityNames.isEmpty,
              destination.number != nil, destination.table != nil else { return nil }
        return name
    }

    /// - Parameter omitting: relationships left out of each record (a caller that reads their
    ///   destinations on its own need not hold, say, a million log ids per recipe).
    mutating func walk(_ entity: EntityMapping, omitting: (RelationshipDescription) -> Bool = { _ in false }, typed: TypedRows? = nil,
                       db: Database, body: (CoreDataRecord) throws -> Void) throws {
        guard let plan = try plan(entity, omitting: omitting, db: db) else { return }
        let (number, table, attributes, foreignKeys) = (plan.number, plan.table, plan.attributes, plan.foreignKeys)
        // Typed rows: positions of the cells and to-ones asked for, when the entity has them all.
        let typed = typed.flatMap { typed -> (TypedRows, [Int], [Int])? in
            guard typed.entity == entity.entity.name, plan.toMany.isEmpty else { return nil }
            let cells = typed.attributes.map { name in attributes.firstIndex { $0.0.name.lowercased() == name.lowercased() }.map { $0 + 1 } ?? -1 }
            let targets = typed.toOnes.map { name in foreignKeys.firstIndex { $0.name.lowercased() == name.lowercased() } ?? -1 }
            return cells.contains(-1) || targets.contains(-1) ? nil : (typed, cells, targets)
        }
        try checkStrayRows(of: plan, entity: entity.entity.name, db: db)
        let statement = try db.makeStatement(sql: plan.select + (plan.holdsTableAlone ? " ORDER BY t.Z_PK" : " WHERE t.Z_ENT = ? ORDER BY t.Z_PK"))
        let rows = try Row.fetchCursor(statement, arguments: plan.holdsTableAlone ? [] : [number])
        while let current = try rows.next() {
            let row = RowCells(row: current, statement: statement.sqliteStatement)
            let (primaryKey, id) = try identity(of: row, entity: entity.entity.name, plan: plan)
            if let (rows, cells, targets) = typed {
                var targetIDs: [String?] = []
                for position in targets {
                    targetIDs.append(try target(of: foreignKeys[position], in: row, table: table, primaryKey: primaryKey))
                }
                if try rows.take(TypedRow(primaryKey: primaryKey, id: id, cells: cells.map { CoreDataCell(row[$0]) }, targets: targetIDs)) { continue }
            }
            try body(try record(row, of: entity.entity.name, plan: plan, primaryKey: primaryKey, id: id, depth: 0, db: db))
        }
    }

    /// One row as a record: its members in output order, to-manys as ids, or, for destinations
    /// in `inlined`, as the rows themselves (read with their owner, in the to-many's order).
    private mutating func record(_ row: RowCells, of entity: String, plan: Plan, primaryKey: Int64, id: String, depth: Int, db: Database) throws -> CoreDataRecord {
        var members: [(key: String, value: JSONValue)] = []
        members.reserveCapacity(plan.slots.count)
        var orders = JSONObject()
        var inlinedCounts: [String: Int] = [:]
        for slot in plan.slots {
            switch slot.source {
            case .attribute(let index):
                members.append((slot.name, lossless ? CoreDataCell(row[index + 1]).losslessJSON
                    : decoder.decode(row[index + 1] as DatabaseValue, as: plan.descriptions[index], entity: entity)))
            case .foreignKey(let index):
                members.append((slot.name, try target(of: plan.foreignKeys[index], in: row, table: plan.table, primaryKey: primaryKey).map { .string($0) } ?? .null))
            case .toMany(let index):
                let relationship = plan.toMany[index]
                if let inline = relationship.inline, depth < 4, !lossless {
                    let children = try inlineRecords(of: primaryKey, through: relationship.storage, destination: inline, depth: depth + 1, db: db)
                    members.append((slot.name, .array(children.map { .object($0.values) })))
                    inlinedCounts[inline, default: 0] += children.count
                    for child in children { inlinedCounts.merge(child.inlined, uniquingKeysWith: +) }
                    continue
                }
                let listed = try related(primaryKey, storage: relationship.storage, db: db)
                members.append((slot.name, .array(listed.map { .string($0.id) })))
                if lossless, Self.orderColumn(of: relationship.storage) != nil {
                    orders[slot.name] = .array(listed.map { $0.order.losslessJSON })
                }
            }
        }
        var record = CoreDataRecord(entity: entity, id: id, primaryKey: primaryKey, values: JSONObject(members))
        record.inlined = inlinedCounts
        if let optimisticLock = plan.optimisticLock {
            let stored = plan.storedEntity.map { CoreDataCell(row[$0]) }
            record.lossless = (CoreDataStoreValue.integer(row[optimisticLock]), orders,
                               stored == .integer(Int64(plan.number)) ? nil : stored)
        }
        return record
    }

    /// The rows of `destination` a to-many of `owner` holds, as records without their nulls.
    private mutating func inlineRecords(of owner: Int64, through storage: RelationshipStorage, destination: String, depth: Int,
                                        db: Database) throws -> [CoreDataRecord] {
        guard case .inverseForeignKey(_, let column, let order) = storage, let mapping = reader.mapping.entity(named: destination) else { return [] }
        if plans[destination] == nil { plans[destination] = try plan(mapping, omitting: { _ in false }, db: db) }
        guard let plan = plans[destination] else { return [] }
        let ordering = (order.map { "t." + SQLName.quoted($0) + ", " } ?? "") + "t.Z_PK"
        // Read whole before any is turned into a record: a child's own children reuse statements.
        let rows = plan.holdsTableAlone
            ? try Row.fetchAll(db.cachedStatement(sql: plan.select + " WHERE t.\(SQLName.quoted(column)) = ? ORDER BY \(ordering)"), arguments: [owner])
            : try Row.fetchAll(db.cachedStatement(sql: plan.select + " WHERE t.\(SQLName.quoted(column)) = ? AND t.Z_ENT = ? ORDER BY \(ordering)"),
                               arguments: [owner, plan.number])
        return try rows.map { whole in
            let row = RowCells(row: whole, statement: nil)
            let (primaryKey, id) = try identity(of: row, entity: destination, plan: plan)
            var record = try record(row, of: destination, plan: plan, primaryKey: primaryKey, id: id, depth: depth, db: db)
            record.values = JSONObject(record.values.members.filter { !$0.value.isNull })
            return record
        }
    }

    /// A row's `Z_PK` and the id its record goes by.
    private mutating func identity(of row: RowCells, entity: String, plan: Plan) throws -> (primaryKey: Int64, id: String) {
        guard let primaryKey = CoreDataStoreValue.integer(row[0]) else {
            throw CoreDataReadError(.corruptStore("table \(plan.table), a row of entity \(entity): Z_PK \(row[0] as DatabaseValue) is not an integer"),
                                    file: reader.path)
        }
        return (primaryKey, identifiers.identifier(of: primaryKey, entityNumber: plan.number, fallback: entity, uuid: plan.ownUUID.map { row[$0] },
                                                   table: plan.table))
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
    private func target(of key: ForeignKey, in row: RowCells, table: String, primaryKey: Int64) throws -> String? {
        let stored: DatabaseValue = row[key.column]
        guard let target = CoreDataStoreValue.integer(stored) else {
            guard stored.isNull else {
                throw CoreDataReadError(.corruptStore("table \(table), column \(key.columnName), Z_PK \(primaryKey): \(stored) is not a row number"),
                                        file: reader.path)
            }
            return nil
        }
        let targetNumber = key.entityColumn.flatMap { CoreDataStoreValue.integer(row[$0]) }.flatMap { Int(exactly: $0) }
        return identifiers.identifier(of: target, entityNumber: targetNumber, fallback: key.destination, uuid: key.uuid.map { row[$0] }, table: key.table)
    }

    /// Rows of a table whose `Z_ENT` names none of the entities stored there (a store another
    /// tool or an old model version wrote): said, never skipped unseen. In a table of one entity
    /// they are read as that entity, as Core Data reads them, and a lossless dump keeps their
    /// `Z_ENT`; in a table of a hierarchy no entity can be told, so they are not read, and a
    /// lossless dump, which promises every row, refuses.
    private mutating func checkStrayRows(of plan: Plan, entity: String, db: Database) throws {
        guard strayRowsChecked.insert(plan.table).inserted else { return }
        let numbers = reader.mapping.entities(storedIn: plan.table).compactMap(\.number)
        guard let stray = try StrayRows.find(in: plan.table, numbers: numbers, db: db) else { return }
        let what = stray.description
        if plan.holdsTableAlone {
            decoder.warnings["\(what); read as \(entity), as Core Data reads them\(lossless ? ", their Z_ENT kept" : "")", default: 0] += 1
        } else if lossless {
            throw CoreDataReadError(.corruptStore("\(what); a lossless dump cannot say which entity they are"), file: reader.path)
        } else {
            decoder.warnings["\(what); not dumped: no entity of the model can be told for them", default: 0] += 1
        }
    }

    private static func orderColumn(of storage: RelationshipStorage) -> String? {
        switch storage {
        case .inverseForeignKey(_, _, let order), .joinTable(_, _, _, let order, _): return order
        default: return nil
        }
    }

    /// Ids of the objects a to-many relationship holds for one source row, in order, each with
    /// its stored `Z_FOK_` value where the relationship is ordered.
    private mutating func related(_ source: Int64, storage: RelationshipStorage, db: Database) throws -> [(id: String, order: CoreDataCell)] {
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
            guard let key = CoreDataStoreValue.integer(row[0]) else {
                throw CoreDataReadError(.corruptStore("\(Self.describe(storage)), row for Z_PK \(source): \(row[0] as DatabaseValue) is not a row number"),
                                        file: reader.path)
            }
            return (identifiers.identifier(of: key, entityNumber: CoreDataStoreValue.integer(row[1]).flatMap { Int(exactly: $0) }, fallback: nil,
                                           uuid: row[2], table: table), CoreDataCell(row[3]))
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

/// A row's cells by position: read from its statement while it is the statement's current row
/// (a walk's cursor), else from the row (rows fetched whole). GRDB's subscript decodes through
/// generics that look up type metadata at every call: a walk reads a dozen cells a row, a
/// tenth of reading a million-row table.
private struct RowCells {
    let row: Row
    let statement: SQLiteStatement?

    subscript(_ index: Int) -> DatabaseValue {
        if let statement { return DatabaseValue(sqliteStatement: statement, index: CInt(index)) }
        return row[index]
    }
}
