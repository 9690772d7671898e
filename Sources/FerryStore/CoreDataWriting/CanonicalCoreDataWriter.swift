import FerryCoreData
import FerryModel
import Foundation
import GRDB

/// Writes a canonical store as a Core Data store of its mirror model,
/// `Formats/canonical/Ferry.xcdatamodeld` (one entity per table, one attribute per column, each
/// `…_id` foreign key a to-one), so that an app adopting that model opens the data at launch.
///
/// Each row keeps its place: its `rowid` becomes its `Z_PK`, so the same canonical store gives
/// the same keys, and the `id` attributes are the canonical ids (deterministic: see
/// `Formats/canonical-schema.md`). Values take Core Data's forms: ISO 8601 times become seconds
/// since 2001, UUID text 16 bytes. Rows are read table by table in `rowid` order, with each
/// to-one's destination key found by a subquery, so nothing is held but the row at hand.
public struct CanonicalCoreDataWriter {
    public let source: String
    public let model: DataModel
    /// Tables go in by one `INSERT … SELECT` where they can; off, row by row (tests compare both).
    var movesRowsInBulk = true

    /// - Parameter model: the mirror model; by default the one built into Ferry.
    public init(canonicalStore source: String, model: DataModel? = nil) throws {
        self.source = source
        self.model = try model ?? Self.canonicalModel()
    }

    /// The canonical mirror as built into Ferry (by the EmbedModels build plugin, from `Formats/`).
    public static func canonicalModel() throws -> DataModel {
        try ModelParser().parse(data: Data(CanonicalModelText.contents.utf8), file: CanonicalModelText.path, versionName: "Ferry 1")
    }

    /// Writes the store at `path`; returns the objects written per entity.
    /// - Parameter replacing: the caller backed up the file at `path` (see ``CoreDataStoreWriter``).
    /// - Parameter beforePublishing: see ``CoreDataStoreWriter/finish(storeUUID:highestKeys:beforePublishing:)``.
    /// - Throws: ``CoreDataWriteError`` naming the table, row and column of a value Core Data
    ///   cannot hold as its attribute's type, or a table the model has no entity for.
    @discardableResult
    public func write(to path: String, storeUUID: String = UUID().uuidString, replacing: Bool = false,
                      beforePublishing: () throws -> Void = {}) throws -> [String: Int] {
        var configuration = Configuration()
        configuration.readonly = true
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: source, configuration: configuration)
        } catch {
            throw CoreDataWriteError(kind: .cannotWrite("cannot read the canonical store \(source): \(error)"), file: path)
        }
        defer { try? queue.close() }
        let writer = try CoreDataStoreWriter(creating: path, model: model, replacing: replacing, attaching: (Self.attachedName, source))
        try writer.withConnection(BulkValues.registerFunctions)
        var counts: [String: Int] = [:]
        do {
            try queue.read { db in
                let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT IN (\(CanonicalTables.internalTablesSQL))")
                for table in tables where model.entity(named: Self.entityName(ofTable: table)) == nil {
                    throw CoreDataWriteError(kind: .unsupported("the canonical table \(table), which the model has no entity for"), file: path)
                }
                for entity in model.entities where !entity.isAbstract {
                    let table = Self.tableName(ofEntity: entity.name)
                    guard tables.contains(table) else {
                        throw CoreDataWriteError(kind: .unsupported("the entity \(entity.name), which the canonical store has no table for"), file: path)
                    }
                    counts[entity.name] = try copy(table, as: entity, from: db, into: writer)
                }
            }
        } catch let error as CoreDataWriteError {
            throw error
        } catch {
            throw CoreDataWriteError(kind: .cannotWrite("reading \(source): \(error)"), file: path)
        }
        try writer.finish(storeUUID: storeUUID, beforePublishing: beforePublishing)
        return counts
    }

    /// The canonical store, as the Core Data store's connection attaches it.
    static let attachedName = "canonical"

    /// One table's rows as objects of its entity; returns how many. SQLite moves them in one
    /// statement when every value goes in as it is or through a date or UUID function; a value
    /// the row-by-row path would refuse sends the table there, which names the row.
    private func copy(_ table: String, as entity: EntityDescription, from db: Database, into writer: CoreDataStoreWriter) throws -> Int {
        let plan = try TablePlan(table: table, entity: entity, model: model, db: db)
        if movesRowsInBulk, let bulk = BulkValues(plan: plan, database: Self.attachedName) {
            do {
                return try writer.insertRows(entity.name, key: "t.rowid", attributes: bulk.attributes, toOne: bulk.toOne,
                                             from: TablePlan.from(table, database: Self.attachedName))
            } catch is CoreDataWriteError {
                // A value the statement refused: it left nothing; the rows below name it.
            }
        }
        // Every row sets the same properties: one insertion for the table.
        let insertion = try writer.insertion(entity.name, attributes: plan.attributes.map(\.name), toOne: plan.links.map(\.relationship))
        let rows = try Row.fetchCursor(db, sql: plan.sql)
        var count = 0
        var values: [CoreDataCell] = []
        var toOne: [(entity: String, primaryKey: Int64)?] = []
        while let row = try rows.next() {
            let key: Int64 = row[0]
            let location = "\(table) row \(key)"
            values.removeAll(keepingCapacity: true)
            for (index, attribute) in plan.attributes.enumerated() {
                values.append(try Self.cell(row[index + 1], as: attribute, at: location, column: plan.attributeColumns[index], store: writer.path))
            }
            toOne.removeAll(keepingCapacity: true)
            for (index, link) in plan.links.enumerated() {
                let value: DatabaseValue = row[1 + plan.attributes.count + 2 * index]
                let destination: Int64? = row[2 + plan.attributes.count + 2 * index]
                if let destination {
                    toOne.append((link.destinationEntity, destination))
                } else if !value.isNull {
                    throw CoreDataWriteError(kind: .refused("\(link.column) names \(value), which no \(link.destinationEntity) has", record: location), file: writer.path)
                } else {
                    toOne.append(nil)
                }
            }
            try writer.insert(insertion, primaryKey: key, values: values, toOne: toOne)
            count += 1
        }
        return count
    }

    /// Which columns feed which properties, and the query that reads them with each to-one's
    /// destination `rowid`.
    struct TablePlan {
        struct Link {
            var relationship: String
            var destinationEntity: String
            /// The column naming the destination: this table's foreign key, or the destination's
            /// when the to-one's inverse holds it (a one-to-one seen from the other side).
            var column: String
            /// The destination's `rowid`, NULL for none, over the tables of the database whose
            /// prefix (`canonical.`, or empty for the connection's own) it is given.
            var destinationKey: (_ prefix: String) -> String
        }

        var attributes: [AttributeDescription] = []
        var attributeColumns: [String] = []
        /// Each column's declared type where the table is `STRICT` (SQLite then holds only that
        /// type or NULL in it); empty for a table that is not.
        var strictTypes: [String: String] = [:]
        var links: [Link] = []
        var sql = ""

        /// `<table> t` of `database` (nil: the connection's own), in `rowid` order.
        static func from(_ table: String, database: String? = nil) -> String {
            "\(prefix(database))\"\(table)\" t ORDER BY t.rowid"
        }

        static func prefix(_ database: String?) -> String { database.map { "\($0)." } ?? "" }

        init(table: String, entity: EntityDescription, model: DataModel, db: Database) throws {
            let declared = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map { ($0["name"] as String, ($0["type"] as String).uppercased()) }
            let columns = Set(declared.map(\.0))
            if try Bool.fetchOne(db, sql: "SELECT strict FROM pragma_table_list WHERE schema = 'main' AND name = ?", arguments: [table]) == true {
                strictTypes = Dictionary(declared, uniquingKeysWith: { a, _ in a })
            }
            let foreignKeys = Dictionary(try Row.fetchAll(db, sql: "PRAGMA foreign_key_list(\(table))").map {
                ($0["from"] as String, (table: $0["table"] as String, column: ($0["to"] as String?) ?? "id"))
            }, uniquingKeysWith: { a, _ in a })
            var selected: [String] = []
            for attribute in model.allAttributes(of: entity) where !attribute.isTransient {
                let column = CanonicalCoreDataWriter.columnName(of: attribute.name)
                guard columns.contains(column) else {
                    throw CoreDataWriteError(kind: .unsupported("\(entity.name).\(attribute.name), which \(table) has no column \(column) for"), file: table)
                }
                attributes.append(attribute)
                attributeColumns.append(column)
                selected.append("t.\"\(column)\"")
            }
            for relationship in model.allRelationships(of: entity) where !relationship.isToMany && !relationship.isTransient {
                guard let destination = relationship.destinationEntity else { continue }
                let destinationTable = CanonicalCoreDataWriter.tableName(ofEntity: destination)
                let own = CanonicalCoreDataWriter.columnName(of: relationship.name) + "_id"
                let oneToOne = relationship.inverseName.flatMap { model.entity(named: destination)?.relationship(named: $0) }.map { !$0.isToMany } ?? false
                if let key = foreignKeys[own] {
                    let link = Link(relationship: relationship.name, destinationEntity: destination, column: own,
                                    destinationKey: Self.match(key.table, column: key.column, equals: "t.\"\(own)\"", sameRowFirst: oneToOne))
                    selected += ["t.\"\(own)\"", link.destinationKey("")]
                    links.append(link)
                } else if let inverse = relationship.inverseName {
                    // The destination's foreign key names this row (Log.snapshot: log_snapshot.log_id).
                    let theirs = CanonicalCoreDataWriter.columnName(of: inverse) + "_id"
                    let referenced = try Row.fetchAll(db, sql: "PRAGMA foreign_key_list(\(destinationTable))")
                        .first { ($0["from"] as String) == theirs }.map { ($0["to"] as String?) ?? "id" } ?? "id"
                    let link = Link(relationship: relationship.name, destinationEntity: destination, column: "\(destinationTable).\(theirs)",
                                    destinationKey: Self.match(destinationTable, column: theirs, equals: "t.\"\(referenced)\"", sameRowFirst: oneToOne))
                    selected += ["NULL", link.destinationKey("")]
                    links.append(link)
                } else {
                    throw CoreDataWriteError(kind: .unsupported("\(entity.name).\(relationship.name), which \(table) has no column \(own) for"), file: table)
                }
            }
            sql = "SELECT t.rowid, " + selected.joined(separator: ", ") + " FROM " + Self.from(table)
        }

        /// The `rowid` of the row of `table` whose `column` is `value`, as a subquery: a join
        /// would look the row up to give its `rowid` alone. The two sides of a one-to-one are
        /// written together (a log and its snapshot), so the row is first looked for at this
        /// row's own `rowid`, in the order the table is read, and by the column's index only when
        /// it is not there: a million logs' snapshots looked up by their UUID text jumped all
        /// over the index (3.8 s against 1.1 s, sqlite3 shell).
        static func match(_ table: String, column: String, equals value: String, sameRowFirst: Bool) -> (_ prefix: String) -> String {
            let quoted = "\"\(table)\"", name = "\"\(column)\""
            return { prefix in
                let byColumn = "(SELECT g.rowid FROM \(prefix)\(quoted) g WHERE g.\(name) = \(value))"
                guard sameRowFirst else { return byColumn }
                return "coalesce((SELECT g.rowid FROM \(prefix)\(quoted) g WHERE g.rowid = t.rowid AND g.\(name) = \(value)), \(byColumn))"
            }
        }
    }

    /// A canonical column's value as Core Data stores an attribute of its type.
    static func cell(_ value: DatabaseValue, as attribute: AttributeDescription, at location: String, column: String, store: String) throws -> CoreDataCell {
        do {
            return try AttributeCells.cell(CoreDataCell(value), as: attribute)
        } catch {
            throw CoreDataWriteError(kind: .refused("\(column): \(error.reason)", record: location), file: store)
        }
    }

    /// `RecipeParameter` → `recipe_parameter`.
    static func tableName(ofEntity name: String) -> String { snakeCase(name) }

    /// `sourceUrl` → `source_url`.
    static func columnName(of property: String) -> String { snakeCase(property) }

    /// `recipe_parameter` → `RecipeParameter`.
    static func entityName(ofTable table: String) -> String {
        table.split(separator: "_").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    private static func snakeCase(_ name: String) -> String {
        var result = ""
        for character in name {
            if character.isUppercase, !result.isEmpty { result.append("_") }
            result.append(contentsOf: character.lowercased())
        }
        return result
    }
}
