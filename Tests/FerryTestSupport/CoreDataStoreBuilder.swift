import FerryCoreData
import FerryModel
import Foundation
import GRDB

/// Writes an SQLite file laid out exactly as Core Data lays out a store for a model, by
/// ``CoreDataSQLLayout`` (the mapping Ferry reads with, checked against every real store of the
/// corpus): tables, columns in Core Data's order, join tables, the indexes on keys,
/// `Z_PRIMARYKEY` and `Z_METADATA` with a binary plist and the model's entity version hashes. No
/// `Z_MODELCACHE` row is written, as if it had been lost.
///
/// For example:
/// ```swift
/// let builder = try CoreDataStoreBuilder(path: path, model: model, identifiers: ["5"])
/// let plan = try builder.insert("ProjectPlan", ["title": "Fish", "tags": archivedTags])
/// try builder.finish()
/// ```
public final class CoreDataStoreBuilder {
    public let queue: DatabaseQueue
    public let model: DataModel
    public let layout: CoreDataSQLLayout
    public var numbers: [String: Int] { layout.entityNumbers }
    private var maximumKeys: [String: Int64] = [:]
    private let identifiers: [String]

    public init(path: String, model: DataModel, identifiers: [String] = [], walMode: Bool = false) throws {
        self.model = model
        self.identifiers = identifiers
        layout = CoreDataSQLLayout(model: model)
        queue = try DatabaseQueue(path: path)
        // As Core Data makes a file: 4 KiB pages and incremental auto-vacuum, set before any table.
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA page_size = 4096; PRAGMA auto_vacuum = 2")
        }
        let schema = CoreDataSchemaSQL(model: model, layout: layout, frameworkVersion: Self.frameworkVersion)
        try queue.write { db in
            for statement in schema.statements { try db.execute(sql: statement.sql) }
        }
        if walMode { try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = WAL") } }
    }

    /// The framework version the builder's stores claim.
    public static let frameworkVersion = 1344

    /// Inserts an object; `values` are keyed by property name (to-one relationships take the
    /// destination's primary key, and its entity is taken to be the declared destination).
    /// Returns the new `Z_PK`.
    @discardableResult
    public func insert(_ entityName: String, _ values: [String: (any DatabaseValueConvertible)?]) throws -> Int64 {
        guard let entity = model.entity(named: entityName), let number = numbers[entityName],
              let table = layout.entityTables[entityName] else { throw BuilderError("no entity \(entityName)") }
        let key = (maximumKeys[table] ?? 0) + 1
        maximumKeys[table] = key
        var names = ["Z_PK", "Z_ENT", "Z_OPT"]
        var arguments: [(any DatabaseValueConvertible)?] = [key, number, 1]
        for (property, value) in values.sorted(by: { $0.key < $1.key }) {
            if let column = layout.column(ofAttribute: property, in: entity) {
                names.append(column)
                arguments.append(value)
            } else if case .foreignKey(let column, let entityColumn) = layout.storage(ofRelationship: property, in: entity) {
                names.append(column)
                arguments.append(value)
                if let entityColumn, let destination = model.allRelationships(of: entity).first(where: { $0.name == property })?.destinationEntity,
                   let destinationTable = layout.entityTables[destination] {
                    // The destination's own entity, which may be a sub-entity of the declared one.
                    names.append(entityColumn)
                    arguments.append(try queue.read { db in try Int.fetchOne(db, sql: "SELECT Z_ENT FROM \(destinationTable) WHERE Z_PK = ?", arguments: [value]) })
                }
            } else {
                throw BuilderError("\(entityName).\(property) is not a stored attribute or to-one")
            }
        }
        try queue.write { db in
            try db.execute(sql: "INSERT INTO \(table) (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))",
                           arguments: StatementArguments(arguments))
        }
        return key
    }

    /// Sets the order key of a destination row in an ordered to-many relationship.
    public func setOrder(_ entityName: String, primaryKey: Int64, inverse: String, position: Int) throws {
        guard let entity = model.entity(named: entityName), let table = layout.entityTables[entityName],
              let column = layout.orderColumn(ofToOne: inverse, in: entity) else { throw BuilderError("no ordered inverse \(entityName).\(inverse)") }
        try queue.write { db in
            try db.execute(sql: "UPDATE \(table) SET \(column) = ? WHERE Z_PK = ?", arguments: [position, primaryKey])
        }
    }

    /// Links objects through a many-to-many relationship's join table, or a to-many without an
    /// inverse through its column in the destination's table; in order when it is ordered.
    public func link(_ entityName: String, _ primaryKey: Int64, _ relationshipName: String, to destinations: [Int64]) throws {
        guard let entity = model.entity(named: entityName) else { throw BuilderError("no entity \(entityName)") }
        try queue.write { [layout] db in
            switch layout.storage(ofRelationship: relationshipName, in: entity) {
            case .joinTable(let table, let source, let destination, let order, _):
                for (position, target) in destinations.enumerated() {
                    if let order {
                        try db.execute(sql: "INSERT INTO \(table) (\(source), \(destination), \(order)) VALUES (?, ?, ?)",
                                       arguments: [primaryKey, target, position + 1])
                    } else {
                        try db.execute(sql: "INSERT INTO \(table) (\(source), \(destination)) VALUES (?, ?)", arguments: [primaryKey, target])
                    }
                }
            case .inverseForeignKey(let table, let column, nil):
                for target in destinations {
                    try db.execute(sql: "UPDATE \(table) SET \(column) = ? WHERE Z_PK = ?", arguments: [primaryKey, target])
                }
            default:
                throw BuilderError("\(entityName).\(relationshipName) is not a many-to-many or a to-many without an inverse")
            }
        }
    }

    /// Records a transaction of the persistent history, with the tables Core Data adds when
    /// history tracking is on (entities 16001–16003), made the first time: `changes` are
    /// (entity, `Z_PK`, type: 0 insert, 1 update, 2 delete). The bundle id is kept once in
    /// `ATRANSACTIONSTRING`, as Core Data keeps repeated strings; the author inline.
    public func recordTransaction(author: String?, bundleID: String, at seconds: Double, changes: [(String, Int64, Int)]) throws {
        try queue.write { [numbers] db in
            if try !db.tableExists("ATRANSACTION") {
                try db.execute(sql: """
                    CREATE TABLE ACHANGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB );
                    CREATE TABLE ATRANSACTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER, ZBUNDLEIDTS INTEGER, ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR, ZBUNDLEID VARCHAR, ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR, ZQUERYGEN BLOB );
                    CREATE TABLE ATRANSACTIONSTRING ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR );
                    CREATE INDEX ACHANGE_ZTRANSACTIONID_INDEX ON ACHANGE (ZTRANSACTIONID);
                    CREATE UNIQUE INDEX Z_TRANSACTIONSTRING_UNIQUE_NAME ON ATRANSACTIONSTRING (ZNAME COLLATE BINARY ASC);
                    INSERT INTO Z_PRIMARYKEY VALUES (16001, 'CHANGE', 0, 0), (16002, 'TRANSACTION', 0, 0), (16003, 'TRANSACTIONSTRING', 0, 0);
                    """)
            }
            try db.execute(sql: "INSERT OR IGNORE INTO ATRANSACTIONSTRING (Z_ENT, Z_OPT, ZNAME) VALUES (16003, 1, ?)", arguments: [bundleID])
            let bundle = try Int64.fetchOne(db, sql: "SELECT Z_PK FROM ATRANSACTIONSTRING WHERE ZNAME = ?", arguments: [bundleID])
            try db.execute(sql: "INSERT INTO ATRANSACTION (Z_ENT, Z_OPT, ZBUNDLEIDTS, ZTIMESTAMP, ZAUTHOR) VALUES (16002, 1, ?, ?, ?)",
                           arguments: [bundle, seconds, author])
            let transaction = db.lastInsertedRowID
            for (entity, primaryKey, type) in changes {
                try db.execute(sql: "INSERT INTO ACHANGE (Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID) VALUES (16001, 1, ?, ?, ?, ?)",
                               arguments: [type, numbers[entity], primaryKey, transaction])
            }
            for (table, name) in [("ACHANGE", "CHANGE"), ("ATRANSACTION", "TRANSACTION"), ("ATRANSACTIONSTRING", "TRANSACTIONSTRING")] {
                try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = (SELECT max(Z_PK) FROM \(table)) WHERE Z_NAME = ?", arguments: [name])
            }
        }
    }

    /// Writes `Z_PRIMARYKEY` and `Z_METADATA` (its property list as Core Data writes it).
    public func finish(storeUUID: String = "7E1F0000-0000-4000-8000-000000000001") throws {
        let data = Data(CoreDataMetadataPlist.bytes(for: model, frameworkVersion: Self.frameworkVersion, identifier: identifiers.first ?? ""))
        try queue.write { db in
            for entity in model.entities {
                guard let number = numbers[entity.name], let table = layout.entityTables[entity.name] else { continue }
                try db.execute(sql: "INSERT INTO Z_PRIMARYKEY VALUES (?, ?, ?, ?)",
                               arguments: [number, entity.name, layout.superNumbers[entity.name] ?? 0,
                                           entity.parentName == nil ? (maximumKeys[table] ?? 0) : 0])
            }
            try db.execute(sql: "INSERT INTO Z_METADATA VALUES (1, ?, ?)", arguments: [storeUUID, data])
        }
    }

    /// Core Data's date storage: seconds since 2001-01-01 UTC.
    public static func date(_ iso8601: String) -> Double {
        ISO8601DateFormatter().date(from: iso8601)!.timeIntervalSinceReferenceDate
    }

    /// A UUID as Core Data stores it: 16 bytes.
    public static func uuid(_ text: String) -> Data {
        withUnsafeBytes(of: UUID(uuidString: text)!.uuid) { Data($0) }
    }
}

public struct BuilderError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
