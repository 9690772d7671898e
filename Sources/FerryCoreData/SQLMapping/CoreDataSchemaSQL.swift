import FerryModel

/// The SQL Core Data runs to create a store for a model: every `CREATE TABLE` and `CREATE INDEX`
/// in its words and its order, as found in the corpus' stores that no migration touched
/// (`Formats/coredata-store-writing.md`). Table and column names come from ``CoreDataSQLLayout``.
public struct CoreDataSchemaSQL: Sendable {
    public struct Statement: Sendable, Hashable, CustomStringConvertible {
        public enum Kind: String, Sendable { case table, index }
        public var kind: Kind
        public var name: String
        public var table: String
        public var sql: String
        public var description: String { sql }
    }

    /// In creation order: entity tables in `Z_ENT` order, each followed by the join tables its
    /// entities own; the indexes; `Z_PRIMARYKEY`, `Z_METADATA`, `Z_MODELCACHE`; then, with
    /// history, its three tables and their indexes.
    public private(set) var statements: [Statement] = []
    /// What the model asks for that is not written, one line each (R-tree and expression indexes,
    /// derived attributes' triggers).
    public private(set) var notWritten: [String] = []

    public static let fixedTables = [
        Statement(kind: .table, name: "Z_PRIMARYKEY", table: "Z_PRIMARYKEY",
                  sql: "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)"),
        Statement(kind: .table, name: "Z_METADATA", table: "Z_METADATA",
                  sql: "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)"),
        Statement(kind: .table, name: "Z_MODELCACHE", table: "Z_MODELCACHE", sql: "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)"),
    ]

    /// Persistent history's tables and indexes, as framework 1345 and later create them.
    public static let historyStatements: [Statement] = [
        table("ACHANGE", "Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB"),
        table("ATRANSACTION", "Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER, ZBUNDLEIDTS INTEGER, ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR, ZBUNDLEID VARCHAR, ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR, ZQUERYGEN BLOB"),
        table("ATRANSACTIONSTRING", "Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR"),
        keyIndex("ACHANGE", ["ZTRANSACTIONID"]),
        keyIndex("ATRANSACTION", ["ZAUTHORTS"]), keyIndex("ATRANSACTION", ["ZBUNDLEIDTS"]),
        keyIndex("ATRANSACTION", ["ZCONTEXTNAMETS"]), keyIndex("ATRANSACTION", ["ZPROCESSIDTS"]),
        modelIndex("Z_TRANSACTION_TransactionAuthorIndex", on: "ATRANSACTION", ["ZAUTHOR COLLATE BINARY ASC"]),
        modelIndex("Z_TRANSACTION_TransactionTimestampIndex", on: "ATRANSACTION", ["ZTIMESTAMP COLLATE BINARY ASC"]),
        modelIndex("Z_TRANSACTIONSTRING_UNIQUE_NAME", on: "ATRANSACTIONSTRING", ["ZNAME COLLATE BINARY ASC"], unique: true),
    ]

    /// Framework versions before this name model indexes after the table and column
    /// (`ZUSER_ZNAME_INDEX`); from it on after the entity and property (`Z_User_name`).
    /// Seen old at 752 and new at 847.
    public static let entityNamedIndexesFrom = 800

    /// - Parameter frameworkVersion: the `NSPersistenceFrameworkVersion` the store will claim.
    public init(model: DataModel, layout: CoreDataSQLLayout, frameworkVersion: Int, history: Bool = false) {
        let owned = Dictionary(grouping: layout.tables.filter { $0.rootEntity == nil }) { Self.owningRoot(of: $0.name, model: model, layout: layout) }
        let roots = layout.tables.filter { $0.rootEntity != nil }
        for root in roots {
            statements.append(Self.table(root.name, Self.columnList(root, primaryKey: false)))
            for join in owned[root.name] ?? [] { statements.append(Self.table(join.name, Self.columnList(join, primaryKey: true))) }
        }
        let named = frameworkVersion >= Self.entityNamedIndexesFrom
        var entityIndexes: [Statement] = []
        for root in roots {
            let members = model.entities.filter { layout.entityTables[$0.name] == root.name }
                .sorted { (layout.entityNumbers[$0.name] ?? 0) < (layout.entityNumbers[$1.name] ?? 0) }
            let keys = Self.keyColumns(of: root, layout: layout, model: model)
            if !named {
                // Before 800 a table's indexes came together: attributes, keys, Z_ENT, join tables, compounds.
                for entity in members {
                    for attribute in entity.attributes where attribute.isIndexed {
                        if let column = layout.column(ofAttribute: attribute.name, in: entity) { statements.append(Self.keyIndex(root.name, [column])) }
                    }
                }
            }
            statements += keys.map { Self.keyIndex(root.name, [$0]) }
            if members.contains(where: { !$0.subentityNames.isEmpty }) { statements.append(Self.keyIndex(root.name, ["Z_ENT"])) }
            for join in owned[root.name] ?? [] {
                let (first, second) = (join.columns[0].name, join.columns[1].name)
                statements.append(Self.keyIndex(join.name, [second, first]))
            }
            for entity in members {
                if named {
                    entityIndexes += modelIndexes(of: entity, table: root.name, layout: layout, model: model)
                } else {
                    for compound in entity.compoundIndexes {
                        let columns = compound.compactMap { Self.column(of: $0, in: entity, layout: layout) }
                        guard columns.count == compound.count else { notWritten.append("\(entity.name): compound index \(compound) names a property with no column"); continue }
                        statements.append(Statement(kind: .index, name: ([root.name] + columns).joined(separator: "_"), table: root.name,
                                                    sql: "CREATE INDEX \(([root.name] + columns).joined(separator: "_")) ON \(root.name) (\(columns.joined(separator: ", ")))"))
                    }
                }
            }
        }
        statements += entityIndexes
        statements += Self.fixedTables
        // Core Data keeps derived attributes with triggers that call its own SQL functions.
        for entity in model.entities {
            for attribute in entity.attributes where attribute.isDerived {
                notWritten.append("\(entity.name).\(attribute.name): a derived attribute (Core Data's triggers call its own SQL functions)")
            }
        }
        if history { statements += Self.historyStatements }
    }

    // MARK: Pieces

    /// `Z_<Entity>_<name>` indexes of framework 800 and later: indexed attributes, compound
    /// indexes, fetch indexes, and uniqueness constraints (`UNIQUE`).
    private mutating func modelIndexes(of entity: EntityDescription, table: String, layout: CoreDataSQLLayout, model: DataModel) -> [Statement] {
        var result: [Statement] = []
        func add(_ suffix: String, _ properties: [(name: String, descending: Bool)], unique: Bool = false, where predicate: IndexPredicate? = nil) {
            let columns = properties.compactMap { property in
                Self.column(of: property.name, in: entity, layout: layout).map { "\($0) COLLATE BINARY \(property.descending ? "DESC" : "ASC")" }
            }
            guard columns.count == properties.count, !columns.isEmpty else {
                notWritten.append("\(entity.name): index \(suffix) names a property with no column")
                return
            }
            var statement = Self.modelIndex("Z_\(entity.name)_\(suffix)", on: table, columns, unique: unique)
            if let predicate {
                guard let condition = Self.condition(predicate, in: entity, layout: layout) else {
                    notWritten.append("\(entity.name): partial index \(suffix)'s condition names a property with no column or compares nil by order")
                    return
                }
                statement.sql += " WHERE " + condition
            }
            result.append(statement)
        }
        // A compiled model keeps an attribute's indexed flag and a compound index beside the fetch
        // index Xcode converted each to; Core Data makes the fetch index alone (none of the 101
        // compound indexes beside fetch indexes in the Photos libraries' caches is in their stores).
        // XML models hold one form or the other.
        if entity.fetchIndexes.isEmpty {
            for attribute in entity.attributes where attribute.isIndexed { add(attribute.name, [(attribute.name, false)]) }
            for compound in entity.compoundIndexes { add(compound.joined(separator: "_"), compound.map { ($0, false) }) }
        }
        let relationships = model.allRelationships(of: entity)
        let toManys = Set(relationships.filter(\.isToMany).map(\.name)), toOnes = Set(relationships.filter { !$0.isToMany }.map(\.name))
        for index in entity.fetchIndexes {
            // A to-many has no column: Core Data makes no index of it (22 and 35 such fetch
            // indexes in the Photos libraries' caches), and a model holding one is a model it opens.
            if index.elements.contains(where: { $0.property.map(toManys.contains) ?? false }) { continue }
            // A to-one alone is its foreign key's index already (`<TABLE>_<COLUMN>_INDEX`): none of
            // the 9 such fetch indexes in the Photos libraries is in their stores, while all 14 that
            // start with a to-one and go on are.
            if index.elements.count == 1, let property = index.elements[0].property, toOnes.contains(property) { continue }
            guard index.elements.allSatisfy({ $0.type == "Binary" && $0.property != nil }) else {
                notWritten.append("\(entity.name): fetch index \(index.name) is an R-tree or indexes an expression")
                continue
            }
            add(index.name, index.elements.map { ($0.property ?? "", $0.order == "descending") }, where: index.partialIndexPredicate)
        }
        for constraint in entity.uniquenessConstraints { add("UNIQUE_" + constraint.joined(separator: "_"), constraint.map { ($0, false) }, unique: true) }
        return result
    }

    /// The columns of a root table that hold another row's `Z_PK`, in the table's order: every
    /// to-one's, and those Core Data adds for a to-many without an inverse.
    private static func keyColumns(of table: CoreDataSQLLayout.Table, layout: CoreDataSQLLayout, model: DataModel) -> [String] {
        var keys: Set<String> = []
        for entity in model.entities {
            for relationship in entity.relationships {
                switch layout.storage(ofRelationship: relationship.name, in: entity) {
                case .foreignKey(let column, _) where layout.entityTables[entity.name] == table.name: keys.insert(column)
                case .inverseForeignKey(let other, let column, _) where other == table.name && relationship.inverseName == nil: keys.insert(column)
                default: break
                }
            }
        }
        return table.columns.map(\.name).filter(keys.contains)
    }

    private static func column(of property: String, in entity: EntityDescription, layout: CoreDataSQLLayout) -> String? {
        if let column = layout.column(ofAttribute: property, in: entity) { return column }
        if case .foreignKey(let column, _) = layout.storage(ofRelationship: property, in: entity) { return column }
        return nil
    }

    /// The root table whose entity numbered the join table (`Z_<n>…`).
    private static func owningRoot(of joinTable: String, model: DataModel, layout: CoreDataSQLLayout) -> String {
        let number = Int(joinTable.dropFirst(2).prefix { $0.isNumber })
        let owner = layout.entityNumbers.first { $0.value == number }?.key
        return owner.flatMap { layout.entityTables[$0] } ?? ""
    }

    private static func columnList(_ table: CoreDataSQLLayout.Table, primaryKey: Bool) -> String {
        var columns = table.columns.enumerated().map { index, column in
            "\(column.name) \(column.declaredType)" + (!primaryKey && index == 0 ? " PRIMARY KEY" : "")
        }
        if primaryKey { columns.append("PRIMARY KEY (\(table.columns[0].name), \(table.columns[1].name))") }
        return columns.joined(separator: ", ")
    }

    private static func table(_ name: String, _ columns: String) -> Statement {
        Statement(kind: .table, name: name, table: name, sql: "CREATE TABLE \(name) ( \(columns) )")
    }

    /// `<TABLE>_<first column>_INDEX`, on keys, `Z_ENT` and join tables.
    private static func keyIndex(_ table: String, _ columns: [String]) -> Statement {
        let name = "\(table)_\(columns[0])_INDEX"
        return Statement(kind: .index, name: name, table: table, sql: "CREATE INDEX \(name) ON \(table) (\(columns.joined(separator: ", ")))")
    }

    /// A partial index's condition as Core Data writes it: `ZCOL = 1`, `ZCOL <> 0`, `ZCOL IS NOT
    /// NULL`; AND and OR in parentheses, even outermost (`(ZA = 2 OR ZA = 4)`). Nil when a
    /// property has no column, or nil is compared by order.
    private static func condition(_ predicate: IndexPredicate, in entity: EntityDescription, layout: CoreDataSQLLayout) -> String? {
        switch predicate {
        case .compare(let property, let comparison, let value):
            guard let column = column(of: property, in: entity, layout: layout) else { return nil }
            let symbol: String
            switch comparison {
            case .lessThan: symbol = "<"
            case .lessThanOrEqual: symbol = "<="
            case .greaterThan: symbol = ">"
            case .greaterThanOrEqual: symbol = ">="
            case .equal: symbol = "="
            case .notEqual: symbol = "<>"
            }
            switch value {
            case .null:
                guard comparison == .equal || comparison == .notEqual else { return nil }
                return "\(column) IS \(comparison == .equal ? "" : "NOT ")NULL"
            case .integer(let integer): return "\(column) \(symbol) \(integer)"
            case .real(let real): return "\(column) \(symbol) \(real)"
            case .text(let text): return "\(column) \(symbol) '\(text.replacingOccurrences(of: "'", with: "''"))'"
            }
        case .and(let parts), .or(let parts):
            let joiner: String
            if case .and = predicate { joiner = " AND " } else { joiner = " OR " }
            let conditions = parts.map { condition($0, in: entity, layout: layout) }
            guard conditions.allSatisfy({ $0 != nil }) else { return nil }
            return "(" + conditions.compactMap { $0 }.joined(separator: joiner) + ")"
        }
    }

    private static func modelIndex(_ name: String, on table: String, _ columns: [String], unique: Bool = false) -> Statement {
        Statement(kind: .index, name: name, table: table,
                  sql: "CREATE \(unique ? "UNIQUE " : "")INDEX \(name) ON \(table) (\(columns.joined(separator: ", ")))")
    }
}
