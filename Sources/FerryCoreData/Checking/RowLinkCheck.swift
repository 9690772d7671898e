import FerryModel
import GRDB

/// The rows relationships point at: every to-one key and join-table row names an existing row
/// (of the entity its `Z<n>_` column says), and ordered to-manys have an order for every member.
enum RowLinkCheck {
    static func check(reader: CoreDataStoreReader, db: Database, _ findings: inout Findings) throws {
        var joinTablesDone: Set<String> = []
        for mapping in reader.mapping.entities {
            guard let table = mapping.table else { continue }
            for (relationship, storage) in mapping.relationships
            where reader.model.declaringEntity(of: relationship.name, below: mapping.entity) == mapping.entity.name {
                let name = "\(mapping.entity.name).\(relationship.name)"
                // The store's own table: a renamed root may keep its old one.
                let destination = relationship.destinationEntity.flatMap { reader.mapping.entity(named: $0)?.table }
                switch storage {
                case .foreignKey(let column, let entityColumn):
                    guard let destination else { continue }
                    try dangling(db, in: table, column: column, target: destination, relationship: name, &findings)
                    if let entityColumn {
                        let (count, first) = try counted(db, """
                            SELECT count(*), min(t.Z_PK) FROM \(q(table)) t JOIN \(q(destination)) d ON d.Z_PK = t.\(q(column))
                            WHERE t.\(q(entityColumn)) IS NOT d.Z_ENT
                            """)
                        if count > 0 {
                            findings.error("links.entity", "\(name): \(count) row(s) of \(table) whose \(entityColumn) is not the Z_ENT of the row \(column) points at (first Z_PK \(first)): Core Data would fetch it as the wrong entity")
                        }
                    }
                case .inverseForeignKey(let other, let column, let order):
                    // A to-many without an inverse keeps its key in the destination's table.
                    if relationship.inverseName == nil { try dangling(db, in: other, column: column, target: table, relationship: name, &findings) }
                    if let order { try unordered(db, in: other, key: column, order: order, relationship: name, &findings) }
                case .joinTable(let join, let sourceColumn, let destinationColumn, let order, let destinationTable):
                    if let order { try unordered(db, in: join, key: sourceColumn, order: order, relationship: name, &findings) }
                    guard joinTablesDone.insert(join).inserted else { continue }
                    try dangling(db, in: join, column: sourceColumn, target: table, relationship: name, &findings)
                    try dangling(db, in: join, column: destinationColumn, target: destinationTable, relationship: name, &findings)
                case .unmapped:
                    continue
                }
            }
        }
    }

    private static func dangling(_ db: Database, in table: String, column: String, target: String, relationship: String,
                                 _ findings: inout Findings) throws {
        // A join table has no Z_PK (nor, made WITHOUT ROWID, a rowid): it is named by the key it lacks.
        let isJoin = table.hasPrefix("Z_")
        let (count, first) = try counted(db, """
            SELECT count(*), min(t.\(isJoin ? q(column) : "Z_PK")) FROM \(q(table)) t
            WHERE t.\(q(column)) IS NOT NULL AND NOT EXISTS (SELECT 1 FROM \(q(target)) d WHERE d.Z_PK = t.\(q(column)))
            """)
        let key = isJoin ? "missing key" : "Z_PK"
        if count > 0 {
            // Core Data opens such a store; only touching these objects' relationship throws
            // ("could not fulfill a fault"). Real stores have them (Photos' merge candidates).
            findings.warning("links.missing", "\(relationship): \(count) row(s) of \(table) whose \(column) points at no row of \(target) (first \(key) \(first)): Core Data opens the store, but following these links throws \"could not fulfill a fault\"")
        }
    }

    private static func unordered(_ db: Database, in table: String, key: String, order: String, relationship: String,
                                  _ findings: inout Findings) throws {
        let (missing, _) = try counted(db, "SELECT count(*), 0 FROM \(q(table)) WHERE \(q(key)) IS NOT NULL AND \(q(order)) IS NULL")
        if missing > 0 {
            findings.warning("order.missing", "\(relationship) is ordered, but \(missing) row(s) of \(table) have no \(order): Core Data puts them in no defined place")
        }
        let (ties, _) = try counted(db, """
            SELECT count(*), 0 FROM (SELECT 1 FROM \(q(table)) WHERE \(q(key)) IS NOT NULL AND \(q(order)) IS NOT NULL
            GROUP BY \(q(key)), \(q(order)) HAVING count(*) > 1)
            """)
        if ties > 0 {
            findings.warning("order.ties", "\(relationship) is ordered, but \(ties) place(s) in \(table).\(order) are shared by several objects of one owner: their order is undefined")
        }
    }

    private static func counted(_ db: Database, _ sql: String) throws -> (Int64, Int64) {
        guard let row = try Row.fetchOne(db, sql: sql) else { return (0, 0) }
        return (CoreDataStoreValue.integer(row[0]) ?? 0, CoreDataStoreValue.integer(row[1]) ?? 0)
    }

    private static func q(_ name: String) -> String { SQLName.quoted(name) }
}
