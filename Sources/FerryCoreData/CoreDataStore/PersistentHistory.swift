import FerryJSON
import Foundation
import GRDB

/// A store's persistent history (`ATRANSACTION`, `ACHANGE`, `ATRANSACTIONSTRING`), which Core
/// Data keeps when history tracking is on: one change per inserted, updated or deleted object,
/// grouped in transactions with their author, bundle, context, process and time. Entity numbers
/// 16001–16003 in `Z_PRIMARYKEY` are these tables'. Format: `Formats/store-dump.md`.
public struct PersistentHistory: Sendable, Encodable {
    public var transactions: Int
    public var changes: Int
    /// Changes by type: `insert`, `update`, `delete`.
    public var changeTypes: [String: Int]

    static func keepsHistory(_ reader: CoreDataStoreReader) -> Bool {
        reader.schema.table(named: "ACHANGE") != nil && reader.schema.table(named: "ATRANSACTION") != nil
    }

    /// Nil when the store keeps no history.
    public static func summary(of reader: CoreDataStoreReader) throws -> PersistentHistory? {
        guard keepsHistory(reader) else { return nil }
        return try reader.file.read { db in
            var types: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT ZCHANGETYPE, count(*) FROM ACHANGE GROUP BY ZCHANGETYPE") {
                types[changeType(row[0]), default: 0] += CoreDataStoreValue.integer(row[1]).map { Int($0) } ?? 0
            }
            return PersistentHistory(transactions: reader.schema.table(named: "ATRANSACTION")?.rowCount ?? 0,
                                     changes: types.values.reduce(0, +), changeTypes: types)
        }
    }

    /// Calls `body` with each change, in the order Core Data recorded them, as
    /// `{change, type, entity, record, pk, transaction: {id, time, author, bundleID, contextName, processID}}`.
    /// `record` names the object as `ferry dump` does when it still exists, else `<Entity>/p<Z_PK>`.
    /// - Throws: ``CoreDataReadError`` when the store keeps no history or a row is damaged.
    public static func forEachChange(of reader: CoreDataStoreReader, _ body: (JSONValue) throws -> Void) throws {
        guard keepsHistory(reader) else { throw CoreDataReadError(.noPersistentHistory, file: reader.path) }
        var identifiers = RecordIdentifiers(reader: reader)
        try reader.file.read { db in
            let strings = try Self.strings(db)
            var transactions: [Int64: JSONValue] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT * FROM ATRANSACTION") {
                guard let id = CoreDataStoreValue.integer(row["Z_PK"]) else { continue }
                var transaction = JSONObject()
                transaction["id"] = JSONValue.integer(id)
                transaction["time"] = CoreDataStoreValue.real(row["ZTIMESTAMP"]).map { .string(CoreDataDate.iso8601(secondsSince2001: $0)) } ?? .null
                for (key, column) in [("author", "ZAUTHOR"), ("bundleID", "ZBUNDLEID"), ("contextName", "ZCONTEXTNAME"), ("processID", "ZPROCESSID")] {
                    // Repeated strings are kept once in ATRANSACTIONSTRING and referenced from the …TS column.
                    let text = row.hasColumn(column) ? CoreDataStoreValue.text(row[column]) : nil
                    let shared = row.hasColumn(column + "TS") ? CoreDataStoreValue.integer(row[column + "TS"]).flatMap { strings[$0] } : nil
                    transaction[key] = (text ?? shared).map { .string($0) } ?? .null
                }
                transactions[id] = .object(transaction)
            }
            let changes = try Row.fetchCursor(db, sql: "SELECT Z_PK, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID FROM ACHANGE ORDER BY Z_PK")
            while let row = try changes.next() {
                guard let change = CoreDataStoreValue.integer(row[0]) else {
                    throw CoreDataReadError(.corruptStore("table ACHANGE: Z_PK \(row[0] as DatabaseValue) is not an integer"), file: reader.path)
                }
                let number = CoreDataStoreValue.integer(row[2]).flatMap { Int(exactly: $0) }
                let entity = number.flatMap { reader.mapping.entity(number: $0)?.entity.name ?? reader.schema.entityEntry(number: $0)?.name }
                let primaryKey = CoreDataStoreValue.integer(row[3])
                var object = JSONObject()
                object["change"] = JSONValue.integer(change)
                object["type"] = .string(changeType(row[1]))
                object["entity"] = entity.map { .string($0) } ?? number.map { JSONValue.integer($0) } ?? .null
                object["pk"] = primaryKey.map { JSONValue.integer($0) } ?? .null
                if let primaryKey {
                    object["record"] = .string(try identifiers.identifier(of: primaryKey, entityNumber: number, db: db))
                } else {
                    object["record"] = .null
                }
                object["transaction"] = CoreDataStoreValue.integer(row[4]).flatMap { transactions[$0] } ?? .null
                try body(.object(object))
            }
        }
    }

    static func changeType(_ value: DatabaseValue) -> String {
        switch CoreDataStoreValue.integer(value) {
        case 0: return "insert"
        case 1: return "update"
        case 2: return "delete"
        case let other?: return "type \(other)"
        case nil: return "unknown"
        }
    }

    private static func strings(_ db: Database) throws -> [Int64: String] {
        guard try db.tableExists("ATRANSACTIONSTRING") else { return [:] }
        var strings: [Int64: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT Z_PK, ZNAME FROM ATRANSACTIONSTRING") {
            if let key = CoreDataStoreValue.integer(row[0]), let name = CoreDataStoreValue.text(row[1]) { strings[key] = name }
        }
        return strings
    }
}
