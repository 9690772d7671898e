import FerryJSON
import FerryModel
import Foundation

/// Reads records in `ferry dump`'s form (`<Entity>.ndjson` files, one
/// `{"entity", "id", "pk", "values"}` object a line; `Formats/store-dump.md`) and writes them as
/// a new Core Data store for a model with ``CoreDataStoreWriter``: attributes by their type
/// (dates as ISO 8601 or seconds since 2001, UUIDs as text, binary as base64), to-ones and
/// to-manys by the ids the records give each other, in the listed order where a relationship is
/// ordered. A record keeps its `pk` when it has one.
///
/// Refused, with a one-line error naming the file, record, id and field: an unknown entity or
/// field, a value of the wrong type, a link to an id no record has, a duplicate id or key, and
/// values Ferry cannot write back yet (decoded Transformables, external data references).
public struct CoreDataDumpLoader {
    public let model: DataModel
    /// The framework version to claim; by default the dumped store's (its `_store.json`), else
    /// ``CoreDataStoreWriter/defaultFrameworkVersion``.
    public var frameworkVersion: Int?

    public init(model: DataModel, frameworkVersion: Int? = nil) {
        self.model = model
        self.frameworkVersion = frameworkVersion
    }

    /// What `ferry dump -o` says of the store beside the records (`_store.json`), when it is there.
    public struct DumpedStore: Sendable {
        public var version: String?
        public var frameworkVersion: Int?
        public var versionIdentifier: String?
        /// Values as stored, with `Z_OPT` and orders (`ferry dump --lossless`).
        public var lossless: Bool
        /// Each entity's `Z_MAX`.
        public var highestKeys: [String: Int64]

        /// - Throws: ``CoreDataReadError`` when the file is there but is not such a description.
        public init?(directory: String) throws {
            let path = (directory as NSString).appendingPathComponent(CoreDataStoreDump.storeFileName)
            guard let data = FileManager.default.contents(atPath: path) else { return nil }
            guard let object = try? JSONReader().read(Array(data)).object, object["format"]?.string == "ferry.dump-store/1" else {
                throw CoreDataReadError(.badRecord("not a ferry.dump-store/1 description"), file: path)
            }
            version = object["version"]?.string
            if case .number(let number)? = object["frameworkVersion"] { frameworkVersion = number.int64.flatMap { Int(exactly: $0) } }
            versionIdentifier = object["versionIdentifiers"]?.array?.first?.string
            lossless = object["lossless"]?.bool ?? false
            var keys: [String: Int64] = [:]
            for entry in object["entities"]?.array ?? [] {
                guard let name = entry.object?["name"]?.string, case .number(let number)? = entry.object?["maximumPrimaryKey"],
                      let highest = number.int64 else { continue }
                keys[name] = highest
            }
            highestKeys = keys
        }
    }

    struct Record {
        var entity: EntityDescription
        var id: String
        var primaryKey: Int64?
        var values: JSONObject
        var optimisticLock: Int64?
        var orders: JSONObject
        var location: RecordLocation
        /// `Z_ENT` as a lossless dump found it, when it was not the entity's number.
        var storedEntity: CoreDataCell? = nil
    }

    /// Writes the store; returns the objects written per entity.
    /// - Parameter replacing: the caller backed up the file at `path` (see ``CoreDataStoreWriter``).
    public func load(from directory: String, to path: String, storeUUID: String = UUID().uuidString, replacing: Bool = false) throws -> [String: Int] {
        let dumped = try DumpedStore(directory: directory)
        let lossless = dumped?.lossless ?? false
        let framework = frameworkVersion ?? dumped?.frameworkVersion ?? CoreDataStoreWriter.defaultFrameworkVersion
        var records = try read(directory)
        let writer = try CoreDataStoreWriter(creating: path, model: model, frameworkVersion: framework, identifier: dumped?.versionIdentifier,
                                             replacing: replacing)
        var keys: [String: (entity: String, primaryKey: Int64)] = [:]
        try assignKeys(&records, layout: writer.layout, keys: &keys)
        var counts: [String: Int] = [:]
        let byID = Dictionary(records.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var properties: [String: Properties] = [:]
        for record in records {
            let entityProperties = properties[record.entity.name] ?? Properties(of: record.entity, in: model)
            properties[record.entity.name] = entityProperties
            try insert(record, properties: entityProperties, into: writer, keys: keys, lossless: lossless)
            counts[record.entity.name, default: 0] += 1
        }
        var noInverseOwners: [String: String] = [:]
        for record in records { try link(record, into: writer, keys: keys, records: byID, noInverseOwners: &noInverseOwners) }
        try writer.finish(storeUUID: storeUUID, highestKeys: dumped?.highestKeys ?? [:])
        return counts
    }

    // MARK: Reading

    private func read(_ directory: String) throws -> [Record] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isFolder) else { throw CoreDataReadError(.fileNotFound, file: directory) }
        guard isFolder.boolValue else {
            throw CoreDataReadError(.badRecord("not a folder of <Entity>.ndjson files, as `ferry dump -o` writes"), file: directory)
        }
        let listed: [String]
        do {
            listed = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw CoreDataReadError(.unreadable((error as NSError).localizedDescription), file: directory)
        }
        let names = listed.filter { $0.hasSuffix(".ndjson") }.sorted()
        guard !names.isEmpty else { throw CoreDataReadError(.badRecord("no <Entity>.ndjson files, as `ferry dump -o` writes"), file: directory) }
        var records: [Record] = []
        for name in names {
            let file = (directory as NSString).appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: file) else { throw CoreDataReadError(.unreadable("cannot be opened"), file: file) }
            var number = 0
            for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
                number += 1
                guard !line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) else { continue }
                records.append(try record(Array(line), at: RecordLocation(file: file, record: number)))
            }
        }
        return records
    }

    private func record(_ bytes: [UInt8], at location: RecordLocation) throws -> Record {
        let object: JSONObject
        do {
            guard let read = try JSONReader().read(bytes).object else { throw CoreDataReadError(.badRecord("not a JSON object"), at: location) }
            object = read
        } catch let error as JSONReadError {
            throw CoreDataReadError(.badRecord("not JSON: \(error)"), at: location)
        }
        guard let entityName = object["entity"]?.string, let id = object["id"]?.string else {
            throw CoreDataReadError(.badRecord("a record needs \"entity\" and \"id\""), at: location)
        }
        var here = location
        here.key = id
        guard let entity = model.entity(named: entityName) else {
            // A store of merged models dumps every model's entities.
            throw CoreDataReadError(.badRecord("no entity \"\(entityName)\" in the model; a store of merged models (an app's and its "
                + "frameworks') is written for all of them: give each with its own --model"), at: here)
        }
        guard !entity.isAbstract else {
            throw CoreDataReadError(.badRecord("\"\(entityName)\" is abstract in the model: it has no objects of its own"), at: here)
        }
        var primaryKey: Int64?
        if let pk = object["pk"], !pk.isNull {
            guard case .number(let number) = pk, let value = number.int64, (1...CoreDataStoreWriter.highestKey).contains(value) else {
                throw CoreDataReadError(.badRecord("\"pk\" is not a whole number from 1 to \(CoreDataStoreWriter.highestKey)"), at: here)
            }
            primaryKey = value
        }
        if let values = object["values"], values.object == nil {
            throw CoreDataReadError(.badRecord("\"values\" is not an object"), at: here)
        }
        var optimisticLock: Int64?
        if case .number(let number)? = object["opt"] { optimisticLock = number.int64 }
        var storedEntity: CoreDataCell?
        if let ent = object["ent"] {
            guard let cell = CoreDataCell(losslessJSON: ent), cell == .null || cell.isInteger, primaryKey != nil else {
                throw CoreDataReadError(.badRecord("\"ent\" (the row's stored Z_ENT) is a whole number or null, on a record with its \"pk\""), at: here)
            }
            // Core Data reads such a row only in a table of one entity (no Z_ENT test there); in a
            // hierarchy's table it would be invisible.
            guard entity.parentName == nil, entity.subentityNames.isEmpty else {
                throw CoreDataReadError(.badRecord("\"ent\" keeps a stored Z_ENT for a row of a table of one entity, and \(entityName)'s table holds a hierarchy in this model"), at: here)
            }
            storedEntity = cell
        }
        return Record(entity: entity, id: id, primaryKey: primaryKey, values: object["values"]?.object ?? JSONObject(),
                      optimisticLock: optimisticLock, orders: object["orders"]?.object ?? JSONObject(), location: here,
                      storedEntity: storedEntity)
    }

    /// Keeps each record's `pk` (one table's keys must differ) and numbers the others after them.
    private func assignKeys(_ records: inout [Record], layout: CoreDataSQLLayout, keys: inout [String: (entity: String, primaryKey: Int64)]) throws {
        var taken: [String: [Int64: String]] = [:]
        for record in records {
            guard keys[record.id] == nil else { throw CoreDataReadError(.badRecord("a second record with this id"), at: record.location) }
            keys[record.id] = (record.entity.name, 0)
            guard let pk = record.primaryKey else { continue }
            let table = layout.entityTables[record.entity.name] ?? ""
            if let other = taken[table]?[pk] { throw CoreDataReadError(.badRecord("pk \(pk) is also record \(other)'s"), at: record.location) }
            taken[table, default: [:]][pk] = record.id
        }
        var next = taken.mapValues { ($0.keys.max() ?? 0) + 1 }
        for index in records.indices {
            let table = layout.entityTables[records[index].entity.name] ?? ""
            if records[index].primaryKey == nil {
                records[index].primaryKey = next[table, default: 1]
                next[table] = next[table, default: 1] + 1
            }
            keys[records[index].id] = (records[index].entity.name, records[index].primaryKey ?? 0)
        }
    }

    // MARK: Writing

    /// An entity's attributes and relationships, inherited ones included, by name.
    struct Properties {
        var attributes: [String: AttributeDescription]
        var relationships: [String: RelationshipDescription]

        init(of entity: EntityDescription, in model: DataModel) {
            attributes = Dictionary(model.allAttributes(of: entity).map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
            relationships = Dictionary(model.allRelationships(of: entity).map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        }
    }

    private func insert(_ record: Record, properties: Properties, into writer: CoreDataStoreWriter,
                        keys: [String: (entity: String, primaryKey: Int64)], lossless: Bool) throws {
        var attributes: [String: CoreDataCell] = [:]
        var toOne: [String: (entity: String, primaryKey: Int64)] = [:]
        for member in record.values.members {
            var here = record.location
            here.field = member.key
            if let attribute = properties.attributes[member.key] {
                guard writer.layout.column(ofAttribute: attribute.name, in: record.entity) != nil else { continue }
                if lossless {
                    guard let cell = CoreDataCell(losslessJSON: member.value) else {
                        throw CoreDataReadError(.badRecord("not a stored value in the lossless form (number, text, {\"base64\"} or null)"), at: here)
                    }
                    attributes[member.key] = cell
                } else {
                    attributes[member.key] = try Self.cell(member.value, as: attribute, at: here)
                }
            } else if let relationship = properties.relationships[member.key] {
                guard !relationship.isToMany, !member.value.isNull else { continue }
                toOne[member.key] = try target(member.value, of: relationship, keys: keys, writer: writer, at: here)
            } else {
                throw CoreDataReadError(.badRecord("\(record.entity.name) has no attribute or relationship of this name"), at: here)
            }
        }
        do {
            let key = try writer.insert(record.entity.name, primaryKey: record.primaryKey, attributes: attributes, toOne: toOne,
                                        optimisticLock: record.optimisticLock ?? 1)
            if let stored = record.storedEntity { try writer.keepEntityColumn(record.entity.name, primaryKey: key, as: stored) }
        } catch let error as CoreDataWriteError {
            throw CoreDataReadError(.badRecord(error.reason), at: record.location)
        }
    }

    /// To-manys, once each: an ordered one's order on its destinations' to-one inverse; a join
    /// table from its first column's side, with both sides' orders; one without an inverse.
    private func link(_ record: Record, into writer: CoreDataStoreWriter, keys: [String: (entity: String, primaryKey: Int64)],
                      records: [String: Record], noInverseOwners: inout [String: String]) throws {
        let pk = record.primaryKey ?? 0
        for relationship in model.allRelationships(of: record.entity) where relationship.isToMany {
            guard let listed = record.values[relationship.name], !listed.isNull else { continue }
            var here = record.location
            here.field = relationship.name
            guard let ids = listed.array?.map({ $0.string }), !ids.contains(where: { $0 == nil }) else {
                throw CoreDataReadError(.badRecord("a to-many relationship is an array of ids"), at: here)
            }
            let targets = try ids.map { try target(.string($0 ?? ""), of: relationship, keys: keys, writer: writer, at: here) }
            guard Set(ids).count == ids.count else { throw CoreDataReadError(.badRecord("an id is listed twice"), at: here) }
            // Stored orders (lossless), else the listed order: 1, 2, …
            let order = try Self.orders(record.orders[relationship.name], count: ids.count, at: here)
            do {
                switch writer.layout.storage(ofRelationship: relationship.name, in: record.entity) {
                case .inverseForeignKey(_, _, let orderColumn) where relationship.inverseName != nil:
                    // The destinations' to-ones hold the link; an ordered list gives their order.
                    try checkListedBack(ids, by: record, through: relationship, asList: false, records: records, at: here)
                    guard orderColumn != nil else { continue }
                    for (index, target) in targets.enumerated() {
                        try writer.setOrder(target.entity, primaryKey: target.primaryKey, inverse: relationship.inverseName ?? "", order: order[index])
                    }
                case .inverseForeignKey(_, _, nil) where relationship.inverseName == nil:
                    for id in ids {
                        let key = "\(relationship.name) \(id ?? "")"
                        if let other = noInverseOwners[key] {
                            throw CoreDataReadError(.badRecord("lists \(id ?? ""), which \(other) lists too; an object has one owner here"), at: here)
                        }
                        noInverseOwners[key] = record.id
                    }
                    try writer.link(record.entity.name, primaryKey: pk, relationship.name, to: targets.map(\.primaryKey))
                case .joinTable(let table, let source, _, _, _) where writer.layout.table(named: table)?.columns.first?.name == source:
                    // This record's place in each destination's list of the inverse, when that is ordered.
                    let inverseOrder: [Int64?] = try ids.map { id in
                        guard let inverse = relationship.inverseName, let theirs = records[id ?? ""] else { return 1 }
                        let listed = theirs.values[inverse]?.array ?? []
                        let place = listed.firstIndex { $0.string == record.id } ?? listed.count
                        let stored = try Self.orders(theirs.orders[inverse], count: listed.count, at: theirs.location)
                        return place < stored.count ? stored[place] : Int64(place) + 1
                    }
                    try writer.link(record.entity.name, primaryKey: pk, relationship.name, to: targets.map(\.primaryKey), order: order,
                                    inverseOrder: inverseOrder)
                case .joinTable:
                    // The other side writes the rows; it must list what this side lists.
                    try checkListedBack(ids, by: record, through: relationship, asList: true, records: records, at: here)
                default:
                    break
                }
            } catch let error as CoreDataWriteError {
                throw CoreDataReadError(.badRecord(error.reason), at: here)
            }
        }
    }

    /// A to-many's `Z_FOK_` values: as the record's `orders` give them, else 1, 2, … as listed.
    private static func orders(_ given: JSONValue?, count: Int, at location: RecordLocation) throws -> [Int64?] {
        guard let given, !given.isNull else { return (0..<count).map { Int64($0) + 1 } }
        guard let values = given.array, values.count == count else {
            throw CoreDataReadError(.badRecord("\"orders\" of a relationship has one value per id listed"), at: location)
        }
        return try values.map { value in
            if value.isNull { return nil }
            guard case .number(let number) = value, let order = number.int64 else {
                throw CoreDataReadError(.badRecord("an order is a whole number"), at: location)
            }
            return order
        }
    }

    private func target(_ value: JSONValue, of relationship: RelationshipDescription, keys: [String: (entity: String, primaryKey: Int64)],
                        writer: CoreDataStoreWriter, at location: RecordLocation) throws -> (entity: String, primaryKey: Int64) {
        guard let id = value.string else { throw CoreDataReadError(.badRecord("a relationship holds ids (text)"), at: location) }
        guard let key = keys[id] else { throw CoreDataReadError(.badRecord("links to \(id), which no record has"), at: location) }
        guard let destination = relationship.destinationEntity, writer.isKind(key.entity, of: destination) else {
            throw CoreDataReadError(.badRecord("links to \(id), a \(key.entity), where \(relationship.name) leads to \(relationship.destinationEntity ?? "nothing")"), at: location)
        }
        return key
    }

    /// A to-many stored on the other side must agree with it: each object listed names this one
    /// back (its to-one, or its own list), so that nothing listed is silently dropped.
    private func checkListedBack(_ ids: [String?], by record: Record, through relationship: RelationshipDescription,
                                 asList: Bool, records: [String: Record], at location: RecordLocation) throws {
        guard let inverse = relationship.inverseName else { return }
        for case let id? in ids {
            let back = records[id]?.values[inverse]
            let agrees = asList ? (back?.array?.contains { $0.string == record.id } ?? false) : back?.string == record.id
            guard agrees else {
                throw CoreDataReadError(.badRecord("lists \(id), whose \(inverse) does not name \(record.id) back"), at: location)
            }
        }
    }

    /// A value as Core Data stores an attribute of its type.
    static func cell(_ value: JSONValue, as attribute: AttributeDescription, at location: RecordLocation) throws -> CoreDataCell {
        func wrong() -> CoreDataReadError {
            CoreDataReadError(.badRecord("\(attribute.name) is a \(attribute.type.rawValue) attribute; the record holds a JSON \(value.kindName)"), at: location)
        }
        if value.isNull { return .null }
        switch attribute.type {
        case .integer16, .integer32, .integer64:
            guard case .number(let number) = value, let integer = number.int64 else { throw wrong() }
            guard attribute.type.integerRange?.contains(integer) ?? false else {
                throw CoreDataReadError(.badRecord("\(integer) is outside \(attribute.type.rawValue)'s range"), at: location)
            }
            return .integer(integer)
        case .boolean:
            guard let flag = value.bool else { throw wrong() }
            return .integer(flag ? 1 : 0)
        case .double, .float, .decimal:
            guard case .number(let number) = value, let double = number.double else { throw wrong() }
            return .real(double)
        case .string, .uri:
            guard let text = value.string else { throw wrong() }
            return .text(text)
        case .date:
            if case .number(let number) = value, let seconds = number.double { return .real(seconds) }
            guard let text = value.string, let seconds = CoreDataDate.secondsSince2001(iso8601: text) else {
                throw CoreDataReadError(.badRecord("a date is YYYY-MM-DDTHH:MM:SS[.fraction]Z (UTC) or seconds since 2001"), at: location)
            }
            return .real(seconds)
        case .uuid:
            guard let text = value.string, let uuid = UUID(uuidString: text) else { throw wrong() }
            return .blob(withUnsafeBytes(of: uuid.uuid) { Data($0) })
        case .binary:
            guard let text = value.string, let bytes = Data(base64Encoded: text) else {
                throw CoreDataReadError(.badRecord("binary is written back from base64 text only (external data references are not yet)"), at: location)
            }
            return .blob(bytes)
        default:
            throw CoreDataReadError(.badRecord("\(attribute.type.rawValue) values are not written back yet"), at: location)
        }
    }
}
