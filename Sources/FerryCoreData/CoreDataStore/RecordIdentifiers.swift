import Foundation
import GRDB

/// How `ferry dump` names an object: its `id`/`uuid` UUID attribute when that is unique in its
/// table, else `<Entity>/p<Z_PK>`. Tables' UUIDs are loaded once, when first needed.
struct RecordIdentifiers {
    let reader: CoreDataStoreReader
    /// Root table → primary key → UUID text, for hierarchies with a unique `id`/`uuid` UUID attribute.
    private var uuids: [String: [Int64: String]] = [:]
    private var loadedTables: Set<String> = []
    private var warnings: [String: Int] = [:]

    init(reader: CoreDataStoreReader) {
        self.reader = reader
    }

    func identifier(of primaryKey: Int64, entityNumber: Int?, fallback: String?) -> String {
        let mapping = entityNumber.flatMap { reader.mapping.entity(number: $0) }
        if let table = mapping?.table ?? fallback.flatMap({ reader.mapping.entity(named: $0)?.table }),
           let uuid = uuids[table]?[primaryKey] {
            return uuid
        }
        let name = mapping?.entity.name ?? fallback ?? entityNumber.flatMap { reader.schema.entityEntry(number: $0)?.name } ?? "Object"
        return "\(name)/p\(primaryKey)"
    }

    /// Loads the table of the entity first when needed.
    mutating func identifier(of primaryKey: Int64, entityNumber: Int?, db: Database) throws -> String {
        if let table = entityNumber.flatMap({ reader.mapping.entity(number: $0)?.table }) { try load(table: table, db: db) }
        return identifier(of: primaryKey, entityNumber: entityNumber, fallback: nil)
    }

    /// Warnings met since the last call, with counts.
    mutating func takeWarnings() -> [String: Int] {
        defer { warnings = [:] }
        return warnings
    }

    /// Loads `Z_PK → UUID` for a table whose hierarchy has an `id` or `uuid` UUID attribute;
    /// values held by more than one row are left out (those rows get `<Entity>/p<Z_PK>`).
    mutating func load(table: String, db: Database) throws {
        guard loadedTables.insert(table).inserted else { return }
        let columns = reader.mapping.entities.filter { $0.table == table }.flatMap { entity in
            entity.attributes.filter { ["id", "uuid"].contains($0.attribute.name) && $0.attribute.type == .uuid }.compactMap(\.column)
        }
        guard let column = columns.first else { return }
        var map: [Int64: String] = [:]
        var seen: [String: Int] = [:]
        let rows = try Row.fetchCursor(db, sql: "SELECT Z_PK, \(Self.quote(column)) FROM \(Self.quote(table)) WHERE \(Self.quote(column)) IS NOT NULL")
        while let row = try rows.next() {
            let value: DatabaseValue = row[1]
            guard let primaryKey = StoreValue.integer(row[0]) else { continue }
            let text: String
            switch value.storage {
            case .blob(let data) where data.count == 16: text = UUIDText.uppercase(data)
            case .string(let string): text = string.uppercased()
            default: continue
            }
            map[primaryKey] = text
            seen[text, default: 0] += 1
        }
        let duplicates = Set(seen.filter { $0.value > 1 }.keys)
        if !duplicates.isEmpty {
            map = map.filter { !duplicates.contains($0.value) }
            warnings["\(table).\(column): \(duplicates.count) UUID value(s) held by several rows; those rows are named <Entity>/p<Z_PK>", default: 0] += 1
        }
        uuids[table] = map
    }

    static func quote(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
