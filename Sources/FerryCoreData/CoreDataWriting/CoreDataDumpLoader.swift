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
public struct CoreDataDumpLoader: Sendable {
    public let model: DataModel
    /// The framework version to claim; by default the dumped store's (its `_store.json`), else
    /// ``CoreDataStoreWriter/defaultFrameworkVersion``.
    public var frameworkVersion: Int?
    /// How many bytes of a file one thread of the first pass scans at a time.
    package var firstPassPieceSize = 4 << 20

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

    struct Record: Sendable {
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
    ///
    /// In three passes over the files, holding a few bytes per record rather than the records
    /// (a million records took 6 GB): each record's entity, id and key (``DumpKeyIndex``); the
    /// rows, read on one thread and written on another; then the to-manys of the records that
    /// list any (see `Formats/coredata-store-writing.md`).
    /// - Parameter replacing: the caller backed up the file at `path` (see ``CoreDataStoreWriter``).
    public func load(from directory: String, to path: String, storeUUID: String = UUID().uuidString, replacing: Bool = false) throws -> [String: Int] {
        let dumped = try DumpedStore(directory: directory)
        let lossless = dumped?.lossless ?? false
        let framework = frameworkVersion ?? dumped?.frameworkVersion ?? CoreDataStoreWriter.defaultFrameworkVersion
        let files = try recordFiles(in: directory)
        let indexed = try indexRecords(in: files, layout: CoreDataSQLLayout(model: model, frameworkVersion: framework))
        let writer = try CoreDataStoreWriter(creating: path, model: model, frameworkVersion: framework, identifier: dumped?.versionIdentifier,
                                             replacing: replacing)
        let written = try writeRows(of: files, indexed: indexed, into: writer, lossless: lossless)
        try linkRecords(in: files, indexed: indexed, written: written, into: writer)
        try writer.finish(storeUUID: storeUUID, highestKeys: dumped?.highestKeys ?? [:])
        var counts: [String: Int] = [:]
        for (entity, count) in indexed.counts.enumerated() where count > 0 { counts[indexed.index.entityNames[entity]] = count }
        return counts
    }

    // MARK: Reading

    private func recordFiles(in directory: String) throws -> [String] {
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
        guard names.count <= Int(UInt16.max) else { throw CoreDataReadError(.badRecord("more than \(UInt16.max) <Entity>.ndjson files"), file: directory) }
        return names.map { (directory as NSString).appendingPathComponent($0) }
    }

    /// Calls `body` with each record's line (blank lines are no records) and its number.
    func forEachRecord(in file: String, _ body: (UnsafeBufferPointer<UInt8>, Int) throws -> Void) throws {
        do {
            try NDJSONLines(path: file).forEach { bytes, number in
                guard !Self.isBlank(bytes) else { return }
                try body(bytes, number)
            }
        } catch let failure as NDJSONLines.Failure {
            throw CoreDataReadError(.unreadable(failure.reason), file: failure.path)
        }
    }

    /// What the first pass found: every record's entity, id and key; how many records each file
    /// and each entity has.
    struct IndexedRecords: Sendable {
        var index: DumpKeyIndex
        /// Each file's records, as entry indexes.
        var files: [Range<Int>]
        var counts: [Int]

        /// The entry a record read again is, checked against what the first pass read there.
        /// - Throws: when the file no longer holds that record there.
        func place(of record: Record, entry: Int, file: Int, line: Int) throws -> DumpKeyIndex.Entry {
            guard files[file].contains(entry), case let place = index.entries[entry], Int(place.line) == line,
                  index.entityNames[Int(place.entity)] == record.entity.name, record.primaryKey.map({ $0 == place.primaryKey }) ?? true else {
                throw CoreDataReadError(.badRecord("the file changed while it was read"), at: record.location)
            }
            return place
        }
    }

    /// Names the later of two records that clash, and the earlier one when their pk does.
    func clashError(_ clash: DumpKeyIndex.Clash, index: DumpKeyIndex, files: [String]) throws -> CoreDataReadError {
        let second = try record(atEntry: clash.second, index: index, files: files)
        switch clash.kind {
        case .id:
            return CoreDataReadError(.badRecord("a second record with this id"), at: second.location)
        case .primaryKey:
            let first = try record(atEntry: clash.first, index: index, files: files)
            return CoreDataReadError(.badRecord("pk \(second.primaryKey ?? 0) is also record \(first.id)'s"), at: second.location)
        }
    }

    /// A record read again from its line, to name it in an error: the index keeps no ids.
    func record(atEntry entry: Int, index: DumpKeyIndex, files: [String]) throws -> Record {
        let place = index.entries[entry]
        let file = files[Int(place.file)]
        var found: Record?
        var reader = JSONDocumentReader()
        try forEachRecord(in: file) { bytes, line in
            if line == Int(place.line) { found = try self.record(bytes, at: RecordLocation(file: file, record: line), reader: &reader) }
        }
        guard let found else { throw CoreDataReadError(.badRecord("the file changed while it was read"), at: RecordLocation(file: file, record: Int(place.line))) }
        return found
    }

    /// A record read whole and checked: its entity concrete, its pk in range, `values` an object.
    func record(_ bytes: UnsafeBufferPointer<UInt8>, at location: RecordLocation, reader: inout JSONDocumentReader) throws -> Record {
        let object: JSONObject
        do {
            guard let read = try reader.read(bytes).object else { throw CoreDataReadError(.badRecord("not a JSON object"), at: location) }
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

    /// A to-many's `Z_FOK_` values: as the record's `orders` give them, else 1, 2, … as listed.
    static func orders(_ given: JSONValue?, count: Int, at location: RecordLocation) throws -> [Int64?] {
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

    /// A value as Core Data stores an attribute of its type.
    static func cell(_ value: JSONValue, type: AttributeType, name: String, at location: RecordLocation) throws -> CoreDataCell {
        func wrong() -> CoreDataReadError {
            CoreDataReadError(.badRecord("\(name) is a \(type.rawValue) attribute; the record holds a JSON \(value.kindName)"), at: location)
        }
        if value.isNull { return .null }
        switch type {
        case .integer16, .integer32, .integer64:
            guard case .number(let number) = value, let integer = number.int64 else { throw wrong() }
            guard type.integerRange?.contains(integer) ?? false else {
                throw CoreDataReadError(.badRecord("\(integer) is outside \(type.rawValue)'s range"), at: location)
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
            guard var text = value.string, let bytes = text.withUTF8({ UUIDText.bytes($0) }) else { throw wrong() }
            return .blob(Data(bytes))
        case .binary:
            guard let text = value.string, let bytes = Data(base64Encoded: text) else {
                throw CoreDataReadError(.badRecord("binary is written back from base64 text only (external data references are not yet)"), at: location)
            }
            return .blob(bytes)
        default:
            throw CoreDataReadError(.badRecord("\(type.rawValue) values are not written back yet"), at: location)
        }
    }
}
