import Foundation
import GRDB
import GRDBSQLite

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
        if let uuid, let text = Self.text(uuid), !Self.isShared(text, among: table.flatMap { duplicates[$0] }) {
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
        guard try !Self.allDistinct(quoted, in: table, db: db) else { return }
        var shared: Set<String> = []
        // The same UUID as bytes and as text (another tool's row) is one UUID.
        let rows = try DatabaseValue.fetchCursor(db, sql: """
            SELECT \(quoted) FROM \(SQLName.quoted(table)) WHERE \(quoted) IS NOT NULL
            GROUP BY CASE typeof(\(quoted)) WHEN 'blob' THEN hex(\(quoted)) ELSE upper(replace(\(quoted), '-', '')) END HAVING count(*) > 1
            """)
        while let value = try rows.next() {
            guard let text = Self.text(value) else { continue }
            shared.insert(Self.sharingKey(text))
        }
        duplicates[table] = shared
        if !shared.isEmpty {
            warnings["\(table).\(column): \(shared.count) UUID value(s) held by several rows; those rows are named <Entity>/p<Z_PK>", default: 0] += 1
        }
    }

    /// True when no two values of the column are one UUID, told in one pass over the rows; false
    /// when two are, or a value is not a UUID (the GROUP BY of ``prepare(table:db:)`` judges
    /// those). The GROUP BY sorts every row's text: 1.7 s of a million-log store's conversion.
    private static func allDistinct(_ quoted: String, in table: String, db: Database) throws -> Bool {
        let statement = try db.makeStatement(sql: "SELECT \(quoted) FROM \(SQLName.quoted(table)) WHERE \(quoted) IS NOT NULL")
        let rows = try Row.fetchCursor(statement)
        let raw = statement.sqliteStatement
        var seen = Set<UUIDBits>()
        while try rows.next() != nil {
            let bits: UUIDBits?
            switch sqlite3_column_type(raw, 0) {
            case SQLITE_BLOB:
                let count = Int(sqlite3_column_bytes(raw, 0))
                bits = sqlite3_column_blob(raw, 0).flatMap { UUIDBits(bytes: UnsafeRawBufferPointer(start: $0, count: count)) }
            case SQLITE_TEXT:
                let count = Int(sqlite3_column_bytes(raw, 0))
                bits = sqlite3_column_text(raw, 0).flatMap { UUIDBits(text: UnsafeBufferPointer(start: $0, count: count)) }
            default:
                bits = nil
            }
            guard let bits, seen.insert(bits).inserted else { return false }
        }
        return true
    }

    /// Warnings met since the last call, with counts.
    mutating func takeWarnings() -> [String: Int] {
        defer { warnings = [:] }
        return warnings
    }

    /// The form in which shared UUIDs are kept: every spelling of one UUID (bytes, text with or
    /// without dashes) names no row.
    private static func sharingKey(_ text: String) -> String {
        text.replacingOccurrences(of: "-", with: "")
    }

    private static func isShared(_ text: String, among shared: Set<String>?) -> Bool {
        guard let shared, !shared.isEmpty else { return false }
        return shared.contains(sharingKey(text))
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

/// A UUID's 128 bits, from the 16 bytes Core Data stores or from text as the GROUP BY of
/// ``RecordIdentifiers/prepare(table:db:)`` compares it (dashes anywhere dropped, hex digits in
/// either case): two values are one UUID there exactly when their bits are equal here.
private struct UUIDBits: Hashable {
    let high: UInt64
    let low: UInt64

    init?(bytes: UnsafeRawBufferPointer) {
        guard bytes.count == 16 else { return nil }
        var high: UInt64 = 0, low: UInt64 = 0
        for index in 0..<8 { high = high << 8 | UInt64(bytes[index]) }
        for index in 8..<16 { low = low << 8 | UInt64(bytes[index]) }
        (self.high, self.low) = (high, low)
    }

    init?(text: UnsafeBufferPointer<UInt8>) {
        var high: UInt64 = 0, low: UInt64 = 0, digits = 0
        for character in text where character != UInt8(ascii: "-") {
            guard let nibble = UUIDText.hexDigit(character) else { return nil }
            guard digits < 32 else { return nil }
            if digits < 16 { high = high << 4 | UInt64(nibble) } else { low = low << 4 | UInt64(nibble) }
            digits += 1
        }
        guard digits == 32 else { return nil }
        (self.high, self.low) = (high, low)
    }
}
