import FerryModel
import GRDB

/// `Z_PRIMARYKEY` and `Z_ENT`: every entity numbered, its parent's number as `Z_SUPER`, `Z_MAX`
/// past every key of its table (Core Data takes the next key from it), and every row's `Z_ENT`
/// one of the entities its table holds.
enum KeyCheck {
    static func check(reader: CoreDataStoreReader, db: Database, _ findings: inout Findings) throws {
        let entries = reader.schema.entities
        let numbers = Set(entries.map(\.number))
        for entry in entries where entry.superNumber != 0 && !numbers.contains(entry.superNumber) {
            findings.error("keys.super", "Z_PRIMARYKEY: \(entry.name)'s Z_SUPER \(entry.superNumber) is no entity's number")
        }
        for mapping in reader.mapping.entities {
            guard let number = mapping.number else {
                findings.error("keys.entity", "Z_PRIMARYKEY has no row for entity \(mapping.entity.name): Core Data cannot number its objects")
                continue
            }
            let parentNumber = mapping.entity.parentName.flatMap { reader.mapping.entity(named: $0)?.number } ?? 0
            if let entry = entries.first(where: { $0.number == number }), entry.superNumber != parentNumber {
                findings.error("keys.super", "Z_PRIMARYKEY: \(entry.name)'s Z_SUPER is \(entry.superNumber), but its parent's number is \(parentNumber)")
            }
        }
        for table in Set(reader.mapping.entities.compactMap(\.table)).sorted() {
            let stored = reader.mapping.entities(storedIn: table)
            // Keys come from the root entity's row: a hierarchy shares one sequence.
            let root = stored.first { $0.entity.parentName == nil }
            if let root, let number = root.number, let entry = entries.first(where: { $0.number == number }),
               let highest = try Int64.fetchOne(db, sql: "SELECT max(Z_PK) FROM \(SQLName.quoted(table))"), highest > entry.maximumPrimaryKey {
                findings.error("keys.max", "Z_PRIMARYKEY: \(root.entity.name)'s Z_MAX is \(entry.maximumPrimaryKey), below the highest Z_PK of \(table), \(highest): Core Data would give new objects keys already taken")
            }
            guard let stray = try StrayRows.find(in: table, numbers: stored.compactMap(\.number), db: db) else { continue }
            if stored.count == 1, let only = stored.first {
                findings.warning("rows.entity", "\(stray.description): Core Data reads them as \(only.entity.name), the table's one entity")
            } else {
                findings.error("rows.entity", "\(stray.description): Core Data cannot tell which entity they are")
            }
        }
    }
}
