import Foundation
import GRDB

/// How `ferry dump` names an object: its `id`/`uuid` UUID attribute when that is unique in its
/// table, else `<Entity>/p<Z_PK>`. The UUIDs are read with the rows that need them (the row
/// itself, or a join to the destination's table), so nothing grows with the store; only the
/// UUIDs several rows share are kept, found once per table by SQLite.
struct RecordIdentifiers {
    let reader: CoreDataStoreReader
    private var duplicates: [String: Set<String>] = [:]
    private var warnings: [String: Int] = [:]

    init(reader: CoreDataStoreReader) {
        self.reader = reader
    }

    /// The column holding the hierarchy's `id` or `uuid` UUID attribute, if it has one.
    func uuidColumn(ofTable table: String) -> String? {
        reader.mapping.entities.lazy.filter { $0.table == table }.flatMap { entity in
            entity.attributes.filter { ["id", "uuid"].contains($0.attribute.name) && $0.attribute.type == .uuid }.compactMap(\.column)
        }.first
    }


    /// - Parameter uuid: the value of the row's UUID column, when its table has one.
    func identifier(of primaryKey: Int64, entityNumber: Int?, fallback: String?, uuid: DatabaseValue?, table: String?) -> String {
        if let uuid, let text = Self.text(uuid), !(table.flatMap { duplicates[$0] }?.contains(text) ?? false) {
            return text
        }
        let mapping = entityNumber.flatMap { reader.mapping.entity(number: $0) }
        let name = mapping?.entity.name ?? fallback ?? entityNumber.flatMap { reader.schema.entityEntry(number: $0)?.name } ?? "Object"
        return "\(name)/p\(primaryKey)"
    }

    /// One object by its key, reading its UUID if its table has one.
    mutating func identifier(of primaryKey: Int64, entityNumber: Int?, db: Database) throws -> String {
        let table = entityNumber.flatMap { reader.mapping.entity(number: $0)?.table }
        var uuid: DatabaseValue?
        if let table, let column = uuidColumn(ofTable: table) {
            try prepare(table: table, db: db)
            uuid = try DatabaseValue.fetchOne(db.cachedStatement(sql: "SELECT \(SQLName.quoted(column)) FROM \(SQLName.quoted(table)) WHERE Z_PK = ?"),
                                              arguments: [primaryKey])
        }
        return identifier(of: primaryKey, entityNumber: entityNumber, fallback: nil, uuid: uuid, table: table)
    }

    /// Finds the UUIDs several rows of a table share (those rows get `<Entity>/p<Z_PK>`).
    mutating func prepare(table: String, db: Database) throws {
        guard duplicates[table] == nil else { return }
        duplicates[table] = []
        guard let column = uuidColumn(ofTable: table) else { return }
        let quoted = SQLName.quoted(column)
        var shared: Set<String> = []
        // The same UUID as bytes and as text (another tool's row) is one UUID.
        let rows = try DatabaseValue.fetchCursor(db, sql: """
            SELECT \(quoted) FROM \(SQLName.quoted(table)) WHERE \(quoted) IS NOT NULL
            GROUP BY CASE typeof(\(quoted)) WHEN 'blob' THEN hex(\(quoted)) ELSE upper(replace(\(quoted), '-', '')) END HAVING count(*) > 1
            """)
        while let value = try rows.next() {
            guard let text = Self.text(value) else { continue }
            // Both spellings of a shared UUID name no row.
            shared.insert(text)
            if case .blob = value.storage { continue }
            shared.insert(text.replacingOccurrences(of: "-", with: ""))
        }
        duplicates[table] = shared
        if !shared.isEmpty {
            warnings["\(table).\(column): \(shared.count) UUID value(s) held by several rows; those rows are named <Entity>/p<Z_PK>", default: 0] += 1
        }
    }

    /// Warnings met since the last call, with counts.
    mutating func takeWarnings() -> [String: Int] {
        defer { warnings = [:] }
        return warnings
    }

    /// A UUID as Apple writes it, from 16 bytes or from text.
    static func text(_ value: DatabaseValue) -> String? {
        switch value.storage {
        case .blob(let data) where data.count == 16: return UUIDText.uppercase(data)
        case .string(let string): return string.uppercased()
        default: return nil
        }
    }
}
