import FerryFiles
import FerryModel
import Foundation
import GRDB

/// Writes a new Core Data SQLite store for a model, laid out as Core Data lays it out
/// (`Formats/coredata-store-writing.md`): 4 KiB pages with incremental auto-vacuum, the
/// statements of ``CoreDataSchemaSQL`` in their order, `Z_PRIMARYKEY` with each table's `Z_MAX`,
/// and `Z_METADATA` with the property list Core Data writes (entity version hashes computed
/// from the XML). The store appears whole at its path on ``finish(storeUUID:highestKeys:)`` or not
/// at all; a file at the path, even one made while writing, is never replaced.
///
/// Values go in as SQLite holds them (``CoreDataCell``): dates as seconds since 2001, UUIDs as 16
/// bytes, Transformables as their archives. `Z_MODELCACHE` holds the model (``CoreDataModelCache``).
///
/// For example:
/// ```swift
/// let writer = try CoreDataStoreWriter(creating: "New.sqlite", model: model)
/// let car = try writer.insert("Car", attributes: ["maker": .text("Fiat")])
/// try writer.finish()
/// ```
public final class CoreDataStoreWriter {
    public let path: String
    public let model: DataModel
    public let layout: CoreDataSQLLayout
    public let frameworkVersion: Int
    /// The framework version a new store claims unless told otherwise: the newest of the
    /// versions seen on Xcode 15's and iOS 17's stores.
    public static let defaultFrameworkVersion = 1344

    private let queue: DatabaseQueue
    private let temporaryPath: String
    private let identifier: String?
    private var highestKeys: [String: Int64] = [:]
    private var insertions: [String: Insertion] = [:]
    private var finished = false

    private let replacing: Bool
    /// The database attached to read rows from, if any.
    private let attachedName: String?

    /// - Parameters:
    ///   - identifier: the version identifier to record; by default the model's.
    ///   - replacing: the caller has made a verified backup of the file at `path`, which the new
    ///     store then replaces in one rename; otherwise a file at the path is never replaced.
    /// - Throws: ``CoreDataWriteError`` when the path exists (and is not to be replaced) or the
    ///   file cannot be made.
    ///   - attaching: a database to read rows from in ``insertRows(_:key:attributes:toOne:from:)``,
    ///     attached (read only) under this name before the store's one transaction begins.
    public init(creating path: String, model: DataModel, frameworkVersion: Int = defaultFrameworkVersion,
                identifier: String? = nil, history: Bool = false, replacing: Bool = false,
                attaching source: (name: String, path: String)? = nil) throws {
        var status = stat()
        guard replacing || lstat(path, &status) != 0 else {
            throw CoreDataWriteError(kind: .exists, file: path)
        }
        self.replacing = replacing
        attachedName = source?.name
        self.path = path
        self.model = model
        self.frameworkVersion = frameworkVersion
        self.identifier = identifier
        layout = CoreDataSQLLayout(model: model, frameworkVersion: frameworkVersion)
        let schema = CoreDataSchemaSQL(model: model, layout: layout, frameworkVersion: frameworkVersion, history: history)
        guard schema.notWritten.isEmpty else {
            throw CoreDataWriteError(kind: .unsupported(schema.notWritten.joined(separator: "; ")), file: path)
        }
        temporaryPath = FileSync.temporaryPath(beside: path, purpose: "store")
        do {
            var configuration = Configuration()
            configuration.allowsUnsafeTransactions = true   // the one transaction spans the writer's calls
            queue = try DatabaseQueue(path: temporaryPath, configuration: configuration)
            // The whole store is one transaction, committed by finish(): a commit per object
            // would sync the disk per object. Abandoned, the temporary file is removed unread.
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA page_size = 4096; PRAGMA auto_vacuum = 2")
                if let source {
                    try db.execute(sql: "ATTACH DATABASE ? AS \(SQLName.quoted(source.name))", arguments: [CoreDataStoreFile.uri(source.path, query: "mode=ro")])
                    // Whole tables move through this connection: SQLite's 2 MB default cache read
                    // most pages twice from the kernel (a sixth of convert --as core-data's time).
                    try db.execute(sql: "PRAGMA main.cache_size = -32768; PRAGMA \(SQLName.quoted(source.name)).cache_size = -32768")
                }
                try db.execute(sql: "BEGIN")
                for statement in schema.statements { try db.execute(sql: statement.sql) }
            }
        } catch {
            FileSync.removeDatabase(temporaryPath)
            throw CoreDataWriteError(kind: .cannotWrite("\(error)"), file: path)
        }
    }

    deinit {
        if !finished {
            try? queue.close()
            FileSync.removeDatabase(temporaryPath)
        }
    }

    /// Inserts an object of `entityName` and returns its `Z_PK` (the next free one when nil).
    /// Attributes are keyed by name; to-ones name the destination's entity (it may be a
    /// sub-entity of the declared one) and `Z_PK`.
    /// - Throws: ``CoreDataWriteError`` naming the record: an unknown entity or property, a key
    ///   taken, or a value SQLite refuses.
    @discardableResult
    public func insert(_ entityName: String, primaryKey: Int64? = nil, attributes: [String: CoreDataCell] = [:],
                       toOne: [String: (entity: String, primaryKey: Int64)] = [:], optimisticLock: Int64 = 1) throws -> Int64 {
        let attributeNames = attributes.keys.sorted(), toOneNames = toOne.keys.sorted()
        let next = layout.entityTables[entityName].map { (highestKeys[$0] ?? 0) + 1 }
        let plan = try insertion(entityName, attributes: attributeNames, toOne: toOneNames, record: primaryKey ?? next)
        return try insert(plan, primaryKey: primaryKey, values: attributeNames.map { attributes[$0] ?? .null },
                          toOne: toOneNames.map { toOne[$0] }, optimisticLock: optimisticLock)
    }

    /// How objects of one entity with the same properties go in: made once, used for each object.
    public struct Insertion: Sendable {
        let entity: String
        let number: Int
        let table: String
        /// Each to-one's declared destination and whether a `Z<n>_` column holds the entity.
        let toOne: [(name: String, declared: String, entityColumn: Bool)]
        /// `Z_PK`, `Z_ENT`, `Z_OPT`, the attributes' columns, then each to-one's (and its `Z<n>_` column).
        let columns: [String]
        let sql: String
    }

    /// The insertion of objects of `entityName` that set these attributes and to-ones.
    /// - Throws: ``CoreDataWriteError`` for an unknown or abstract entity, or a name that is not
    ///   a stored property of that kind.
    public func insertion(_ entityName: String, attributes: [String], toOne: [String], record: Int64? = nil) throws -> Insertion {
        let key = ([entityName] + attributes + ["|"] + toOne).joined(separator: "\u{1F}")
        if let known = insertions[key] { return known }
        guard let entity = model.entity(named: entityName), !entity.isAbstract,
              let number = layout.entityNumbers[entityName], let table = layout.entityTables[entityName] else {
            throw CoreDataWriteError(kind: .unknownEntity(entityName), file: path)
        }
        let location = "\(entityName) Z_PK \(record.map(String.init) ?? "new")"
        var names = ["Z_PK", "Z_ENT", "Z_OPT"]
        for name in attributes {
            guard let column = layout.column(ofAttribute: name, in: entity) else {
                throw CoreDataWriteError(kind: .unknownProperty(name, record: location), file: path)
            }
            names.append(column)
        }
        var links: [(name: String, declared: String, entityColumn: Bool)] = []
        let relationships = model.allRelationships(of: entity)
        for name in toOne {
            guard case .foreignKey(let column, let entityColumn) = layout.storage(ofRelationship: name, in: entity),
                  let declared = relationships.first(where: { $0.name == name })?.destinationEntity else {
                throw CoreDataWriteError(kind: .unknownProperty(name, record: location), file: path)
            }
            names.append(column)
            if let entityColumn { names.append(entityColumn) }
            links.append((name, declared, entityColumn != nil))
        }
        let insertion = Insertion(entity: entityName, number: number, table: table, toOne: links, columns: names, sql: Self.insertion(into: table, names))
        insertions[key] = insertion
        return insertion
    }

    /// Inserts an object through `insertion`: `values` in its attributes' order, `toOne` in its
    /// to-ones' order (nil for none). Returns its `Z_PK` (the next free one when nil).
    @discardableResult
    public func insert(_ insertion: Insertion, primaryKey: Int64? = nil, values: [CoreDataCell],
                       toOne: [(entity: String, primaryKey: Int64)?], optimisticLock: Int64 = 1) throws -> Int64 {
        let key = primaryKey ?? (highestKeys[insertion.table] ?? 0) + 1
        let location = "\(insertion.entity) Z_PK \(key)"
        guard (1...Self.highestKey).contains(key) else {
            throw CoreDataWriteError(kind: .refused("a key is a whole number from 1 to \(Self.highestKey)", record: location), file: path)
        }
        var arguments: [DatabaseValue] = [key.databaseValue, insertion.number.databaseValue, optimisticLock.databaseValue]
        arguments.reserveCapacity(3 + values.count + 2 * toOne.count)
        for value in values { arguments.append(value.databaseValue) }
        for (index, link) in insertion.toOne.enumerated() {
            guard let destination = index < toOne.count ? toOne[index] : nil else {
                arguments.append(.null)
                if link.entityColumn { arguments.append(.null) }
                continue
            }
            guard let destinationNumber = layout.entityNumbers[destination.entity] else {
                throw CoreDataWriteError(kind: .unknownEntity(destination.entity), file: path)
            }
            guard isKind(destination.entity, of: link.declared) else {
                throw CoreDataWriteError(kind: .refused("\(link.name) leads to \(link.declared), not to \(destination.entity)", record: location), file: path)
            }
            arguments.append(destination.primaryKey.databaseValue)
            if link.entityColumn { arguments.append(destinationNumber.databaseValue) }
        }
        try execute(location, insertion.sql, arguments)
        highestKeys[insertion.table] = max(highestKeys[insertion.table] ?? 0, key)
        return key
    }

    /// Inserts every row a query over the attached database gives, in one statement: SQLite
    /// moves the rows without a call per row. `key` and each expression are SQL over `from`
    /// (a table with its joins); a to-one's expression gives the destination's `Z_PK`.
    /// - Returns: the rows inserted.
    /// - Throws: ``CoreDataWriteError`` for an unknown entity or property, or when SQLite (or an
    ///   SQL function of the caller's) refuses a row; the statement then inserts nothing.
    package func insertRows(_ entityName: String, key: String, attributes: [(name: String, expression: String)],
                            toOne: [(name: String, expression: String)], from: String) throws -> Int {
        let insertion = try insertion(entityName, attributes: attributes.map(\.name), toOne: toOne.map(\.name))
        var selected = [key, String(insertion.number), "1"] + attributes.map(\.expression)
        for (index, link) in insertion.toOne.enumerated() {
            selected.append(toOne[index].expression)
            if link.entityColumn {
                // The canonical side names one destination entity per to-one: its number, where there is a key.
                guard let number = layout.entityNumbers[link.declared] else { throw CoreDataWriteError(kind: .unknownEntity(link.declared), file: path) }
                selected.append("CASE WHEN (\(toOne[index].expression)) IS NULL THEN NULL ELSE \(number) END")
            }
        }
        let sql = "INSERT INTO \(insertion.table) (\(insertion.columns.joined(separator: ", "))) SELECT \(selected.joined(separator: ", ")) FROM \(from)"
        do {
            return try queue.writeWithoutTransaction { db in
                try db.execute(sql: sql)
                let highest = try Int64.fetchOne(db, sql: "SELECT max(Z_PK) FROM \(insertion.table)") ?? 0
                highestKeys[insertion.table] = max(highestKeys[insertion.table] ?? 0, highest)
                return db.changesCount
            }
        } catch let error as DatabaseError {
            throw CoreDataWriteError(kind: .refused(error.message ?? "\(error)", record: "\(entityName) rows from \(from)"), file: path)
        }
    }

    /// Runs `body` on the store's connection: to register the SQL functions of
    /// ``insertRows(_:key:attributes:toOne:from:)``'s expressions.
    package func withConnection(_ body: (Database) throws -> Void) throws {
        try queue.writeWithoutTransaction(body)
    }

    /// Keys stay below half of Int64's range, so that `Z_MAX` always leaves Core Data a next one.
    public static let highestKey = Int64.max / 2

    /// Raises a table's highest key given out, for `Z_MAX`: rows inserted through
    /// ``withConnection(_:)`` are not counted otherwise.
    func noteHighestKey(_ key: Int64, inTable table: String) {
        highestKeys[table] = max(highestKeys[table] ?? 0, key)
    }

    /// The destination an object's to-one holds as written so far: its `Z_PK`, and the number of
    /// its entity where the table keeps one (`Z<n>_`); nil for no such object or to-one.
    func destination(ofToOne relationship: String, of entityName: String, primaryKey: Int64) throws -> (primaryKey: Int64?, entity: Int64?)? {
        guard let entity = model.entity(named: entityName), let table = layout.entityTables[entityName],
              case .foreignKey(let column, let entityColumn) = layout.storage(ofRelationship: relationship, in: entity) else { return nil }
        let sql = "SELECT \(column), \(entityColumn ?? "NULL") FROM \(table) WHERE Z_PK = ?"
        do {
            return try queue.writeWithoutTransaction { db in
                try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [primaryKey]).map { ($0[0], $0[1]) }
            }
        } catch {
            throw CoreDataWriteError(kind: .cannotWrite("\(error)"), file: path)
        }
    }

    /// Whether `entity` is `ancestor` or one of its sub-entities.
    public func isKind(_ entity: String, of ancestor: String) -> Bool {
        var current: String? = entity
        while let name = current {
            if name == ancestor { return true }
            current = model.entity(named: name)?.parentName
        }
        return false
    }

    /// Writes a row's `Z_ENT` as a lossless dump found it: a row of a table that holds one entity,
    /// which Core Data reads as that entity whatever `Z_ENT` holds.
    public func keepEntityColumn(_ entityName: String, primaryKey: Int64, as value: CoreDataCell) throws {
        guard let table = layout.entityTables[entityName] else { throw CoreDataWriteError(kind: .unknownEntity(entityName), file: path) }
        try execute("\(entityName) Z_PK \(primaryKey)", "UPDATE \(table) SET Z_ENT = ? WHERE Z_PK = ?", [value.databaseValue, primaryKey.databaseValue])
    }

    /// Sets an object's place among the objects of an ordered to-many, through the `Z_FOK_`
    /// column of its to-one inverse `relationship`.
    public func setOrder(_ entityName: String, primaryKey: Int64, inverse relationship: String, order: Int64?) throws {
        guard let entity = model.entity(named: entityName), let table = layout.entityTables[entityName],
              let column = layout.orderColumn(ofToOne: relationship, in: entity) else {
            throw CoreDataWriteError(kind: .unknownProperty(relationship, record: "\(entityName) Z_PK \(primaryKey)"), file: path)
        }
        try execute("\(entityName) Z_PK \(primaryKey)", "UPDATE \(table) SET \(column) = ? WHERE Z_PK = ?", [order?.databaseValue ?? .null, primaryKey.databaseValue])
    }

    /// Links an object to the objects of a to-many relationship, from one side only: through its
    /// join table, or through the destination's table for a to-many without an inverse. When
    /// the relationship is ordered, `order` holds each destination's `Z_FOK_` value (1, 2, … when
    /// nil); when its inverse is ordered, `inverseOrder` holds this object's place among each
    /// destination's (after those it has when nil).
    public func link(_ entityName: String, primaryKey: Int64, _ relationship: String, to destinations: [Int64],
                     order: [Int64?]? = nil, inverseOrder: [Int64?]? = nil) throws {
        let location = "\(entityName) Z_PK \(primaryKey)"
        guard let entity = model.entity(named: entityName) else { throw CoreDataWriteError(kind: .unknownEntity(entityName), file: path) }
        switch layout.storage(ofRelationship: relationship, in: entity) {
        case .joinTable(let table, let source, let destination, let orderColumn, _):
            let inverseOrderColumn = self.inverseOrderColumn(of: relationship, in: entity)
            for (index, target) in destinations.enumerated() {
                var names = [source, destination], values = [primaryKey.databaseValue, target.databaseValue]
                if let orderColumn {
                    names.append(orderColumn)
                    let given: Int64?? = order.flatMap { $0.indices.contains(index) ? .some($0[index]) : nil }
                    values.append((given ?? Int64(index + 1))?.databaseValue ?? .null)
                }
                if let inverseOrderColumn {
                    let given: Int64?? = inverseOrder.flatMap { $0.indices.contains(index) ? .some($0[index]) : nil }
                    names.append(inverseOrderColumn)
                    values.append(try (given ?? nextOrder(in: table, column: inverseOrderColumn, where: destination, is: target))?.databaseValue ?? .null)
                }
                try execute(location, Self.insertion(into: table, names), values)
            }
        case .inverseForeignKey(let table, let column, nil):
            for target in destinations {
                try execute(location, "UPDATE \(table) SET \(column) = ? WHERE Z_PK = ?", [primaryKey.databaseValue, target.databaseValue])
            }
        default:
            throw CoreDataWriteError(kind: .unknownProperty(relationship, record: location), file: path)
        }
    }

    /// The `Z_FOK_` column that orders the source among the objects of an ordered inverse.
    private func inverseOrderColumn(of relationship: String, in entity: EntityDescription) -> String? {
        guard let description = model.allRelationships(of: entity).first(where: { $0.name == relationship }),
              let inverse = description.inverseName, let destination = description.destinationEntity.flatMap(model.entity(named:)),
              case .joinTable(_, _, _, let column, _) = layout.storage(ofRelationship: inverse, in: destination) else { return nil }
        return column
    }

    private func nextOrder(in table: String, column: String, where key: String, is value: Int64) throws -> Int64 {
        do {
            return try queue.writeWithoutTransaction { db in
                try Int64.fetchOne(db.cachedStatement(sql: "SELECT coalesce(max(\(column)), 0) + 1 FROM \(table) WHERE \(key) = ?"), arguments: [value])
            } ?? 1
        } catch {
            throw CoreDataWriteError(kind: .cannotWrite("\(error)"), file: path)
        }
    }

    /// Writes `Z_PRIMARYKEY` and `Z_METADATA`, then puts the store at its path.
    /// - Parameter highestKeys: each root entity's `Z_MAX` where it is above the highest key
    ///   written (keys given out to objects since deleted).
    /// - Parameter beforePublishing: runs once the store is written whole and on disk, before
    ///   it is put at its path; what it throws leaves the path as it was.
    public func finish(storeUUID: String = UUID().uuidString, highestKeys given: [String: Int64] = [:],
                       beforePublishing: () throws -> Void = {}) throws {
        let metadata = Data(CoreDataMetadataPlist.bytes(for: model, frameworkVersion: frameworkVersion, identifier: identifier))
        let cache = try CoreDataModelCache.content(for: model, file: path)
        do {
            try queue.writeWithoutTransaction { db in
                for entity in CoreDataSQLLayout.numberingOrder(model) {
                    guard let number = layout.entityNumbers[entity.name], let table = layout.entityTables[entity.name] else { continue }
                    let highest = entity.parentName == nil ? max(highestKeys[table] ?? 0, given[entity.name] ?? 0) : 0
                    try db.execute(sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, ?)",
                                   arguments: [number, entity.name, layout.superNumbers[entity.name] ?? 0, highest])
                }
                try db.execute(sql: "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)", arguments: [storeUUID.uppercased(), metadata])
                try db.execute(sql: "INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)", arguments: [cache])
                try db.execute(sql: "COMMIT")
                if let attachedName { try db.execute(sql: "DETACH DATABASE \(SQLName.quoted(attachedName))") }
            }
            // Core Data's default journal; set last so that the single file is what is renamed.
            try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA main.journal_mode = WAL") }
            try queue.close()
            try FileSync.flush(temporaryPath)
        } catch let error as CoreDataWriteError {
            throw error
        } catch {
            throw CoreDataWriteError(kind: .cannotWrite("\(error)"), file: path)
        }
        try beforePublishing()
        do {
            if replacing {
                // The replaced store's journal files would be read as the new one's: removed in the renaming step.
                try FileSync.publish(temporaryPath, as: path, flushing: false, clearing: ["-wal", "-shm", "-journal"].map { path + $0 })
            } else {
                // A hard link, not a rename: it fails rather than replace a file made at the path since.
                guard FileSync.publishNew(temporaryPath, as: path) == 0 else {
                    throw CoreDataWriteError(kind: errno == EEXIST ? .exists : .cannotWrite(FileSync.lastError()), file: path)
                }
            }
            FileSync.flushFolder((path as NSString).deletingLastPathComponent)
            finished = true
        } catch let error as CoreDataWriteError {
            throw error
        } catch {
            throw CoreDataWriteError(kind: .cannotWrite("\(error)"), file: path)
        }
    }

    private static func insertion(into table: String, _ columns: [String]) -> String {
        "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
    }

    private func execute(_ location: String, _ sql: String, _ values: [DatabaseValue]) throws {
        do {
            try queue.writeWithoutTransaction { try $0.cachedStatement(sql: sql).execute(arguments: StatementArguments(values)) }
        } catch let error as DatabaseError {
            throw CoreDataWriteError(kind: .refused(error.message ?? "\(error)", record: location), file: path)
        }
    }
}

/// Writing a Core Data store failed; names the store, the record where there is one, and why.
public struct CoreDataWriteError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case exists
        case cannotWrite(String)
        case unsupported(String)
        /// A model Ferry has no mapping of converted records into.
        case noMapping(String)
        case unknownEntity(String)
        case unknownProperty(String, record: String)
        case refused(String, record: String)
        /// The file at the target is not a store of the model being written (``ReplaceableCoreDataStore``).
        case foreignTarget(String)
    }

    public let kind: Kind
    public let file: String

    public init(kind: Kind, file: String) {
        self.kind = kind
        self.file = file
    }

    public var description: String { "\(file): \(reason)" }

    /// What went wrong, without the file.
    public var reason: String {
        switch kind {
        case .exists: return "exists; a new store is never written over a file"
        case .foreignTarget(let what): return "not a store of this model: \(what); Ferry replaces only a store of the model it writes (--replace-foreign replaces it, after a backup)"
        case .cannotWrite(let reason): return "cannot write the store: \(reason)"
        case .unsupported(let what): return "the model asks for what Ferry does not write: \(what)"
        case .noMapping(let why): return why
        case .unknownEntity(let name): return "no entity \"\(name)\" in the model"
        case .unknownProperty(let name, let record): return "\(record): \"\(name)\" is not a stored property of that kind"
        case .refused(let reason, let record): return "\(record): \(reason)"
        }
    }
}
