import Foundation
import GRDB

/// The tables of a Core Data store as SQLite reports them, and its `Z_PRIMARYKEY` entity list.
public struct CoreDataStoreSchema: Sendable {
    public struct Column: Sendable, Hashable {
        public var name: String
        /// As declared: `VARCHAR`, `INTEGER`, `TIMESTAMP`, `FLOAT`, `DECIMAL`, `BLOB`.
        public var declaredType: String
    }

    public struct Table: Sendable {
        public var name: String
        public var columns: [Column]
        public var rowCount: Int

        public func column(named name: String) -> Column? {
            columns.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }
        }
    }

    /// A row of `Z_PRIMARYKEY`: the entity's number in `Z_ENT`, its name as stored, its parent's number.
    public struct EntityEntry: Sendable, Hashable {
        public var number: Int
        public var name: String
        public var superNumber: Int
        public var maximumPrimaryKey: Int
    }

    public var tables: [Table]
    public var entities: [EntityEntry]
    /// Rows per `Z_ENT` value, across the entity tables.
    public var rowsPerEntityNumber: [Int: Int]
    /// Names of indexes, for inferring which integer columns are foreign keys.
    public var indexNames: Set<String>

    public func table(named name: String) -> Table? {
        tables.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }
    }

    public func entityEntry(named name: String) -> EntityEntry? {
        entities.first { $0.name == name }
    }

    public func entityEntry(number: Int) -> EntityEntry? {
        entities.first { $0.number == number }
    }

    /// Tables Core Data keeps for itself rather than for entities.
    static let bookkeepingTables: Set<String> = ["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"]

    /// What made a table that is not an entity's or a join table: Core Data's bookkeeping, a
    /// store option (persistent history, CloudKit mirroring), an R-tree fetch index, SQLite.
    public enum TableKind: Sendable, Equatable {
        case bookkeeping, persistentHistory, cloudKitMirroring, rtreeIndex, sqliteInternal
        /// An entity or join table, or a table no Core Data model made.
        case other

        public init(_ name: String) {
            let upper = name.uppercased()
            if CoreDataStoreSchema.bookkeepingTables.contains(upper) { self = .bookkeeping }
            else if ["ACHANGE", "ATRANSACTION", "ATRANSACTIONSTRING"].contains(upper) { self = .persistentHistory }
            else if upper.hasPrefix("ANSCK") { self = .cloudKitMirroring }
            else if upper.hasPrefix("Z_RT_") { self = .rtreeIndex }
            else if upper.hasPrefix("SQLITE_") { self = .sqliteInternal }
            else { self = .other }
        }
    }

    /// - Throws: `CoreDataReadError` when the file is SQLite but not a Core Data store.
    static func read(_ db: Database, file: String) throws -> CoreDataStoreSchema {
        let names = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        for required in ["Z_PRIMARYKEY", "Z_METADATA"] where !names.contains(required) {
            throw CoreDataReadError(.notACoreDataStore("no \(required) table"), file: file)
        }
        var tables: [Table] = []
        var rowsPerEntity: [Int: Int] = [:]
        for name in names where !name.hasPrefix("sqlite_") {
            let columns = try Row.fetchAll(db, sql: "SELECT name, type FROM pragma_table_info(?)", arguments: [name])
                .map { Column(name: $0["name"], declaredType: ($0["type"] as String?)?.uppercased() ?? "") }
            let quoted = SQLName.quoted(name)
            let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(quoted)") ?? 0
            tables.append(Table(name: name, columns: columns, rowCount: count))
            if columns.contains(where: { $0.name == "Z_ENT" }), !bookkeepingTables.contains(name) {
                for row in try Row.fetchAll(db, sql: "SELECT Z_ENT, count(*) FROM \(quoted) GROUP BY Z_ENT") {
                    if let number = CoreDataStoreValue.integer(row[0]).flatMap({ Int(exactly: $0) }) {
                        rowsPerEntity[number, default: 0] += CoreDataStoreValue.integer(row[1]).map { Int($0) } ?? 0
                    }
                }
            }
        }
        let entries = try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT").map {
            EntityEntry(number: Self.int($0["Z_ENT"]), name: CoreDataStoreValue.text($0["Z_NAME"]) ?? "", superNumber: Self.int($0["Z_SUPER"]),
                        maximumPrimaryKey: Self.int($0["Z_MAX"]))
        }
        let indexes = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index'"))
        return CoreDataStoreSchema(tables: tables, entities: entries, rowsPerEntityNumber: rowsPerEntity, indexNames: indexes)
    }

    private static func int(_ value: DatabaseValue) -> Int {
        CoreDataStoreValue.integer(value).flatMap { Int(exactly: $0) } ?? 0
    }
}
