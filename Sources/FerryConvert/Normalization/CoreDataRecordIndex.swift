import FerryCanonical
import FerryJSON
import FerryCoreData
import FerryModel
import Foundation

/// Every row of a Core Data or SwiftData store by id, with the rows that point at each one
/// through a to-one relationship: what the store normalizers walk. Rows taken as children of
/// another row are remembered, so that what no normalizer took can be reported.
///
/// Entities an app's normalizer only walks (BrewGuide's logs, Molten's plans and logs: nothing
/// looks them up by id or as children) are `streamed`: not held, read one row at a time by
/// ``forEachRecord(of:_:)``, and left out of the other records' relationships (unless kept:
/// a child's one link to its owner costs little), so that memory does not grow with them.
final class CoreDataRecordIndex: ChildResolver {
    let reader: CoreDataStoreReader
    let records: [CoreDataRecord]
    let streamed: Set<String>
    let inlined: Set<String>
    /// Stores read without a model have lower-case property names.
    let caseInsensitive: Bool
    /// What makes this store's derived ids its own: its `NSStoreUUID`, else its file name.
    let storeKey: String
    private(set) var warnings: [String: Int]
    private let byID: [String: Int]
    private var backLinks: [String: [Int]] = [:]
    private(set) var taken: Set<String> = []
    /// Streamed rows taken, per entity: each is walked once, so a count says it.
    private var streamedTaken: [String: Int] = [:]

    /// - Parameter inlined: entities whose rows are read with the record that holds them (a
    ///   plan's steps), in place of their ids, and neither held nor looked up.
    init(reader: CoreDataStoreReader, streaming streamed: Set<String> = [], inlining inlined: Set<String> = []) throws {
        self.reader = reader
        self.streamed = streamed
        self.inlined = inlined
        var records: [CoreDataRecord] = []
        let held = Set(reader.mapping.entities.map(\.entity.name)).subtracting(streamed).subtracting(inlined)
        warnings = try reader.forEachRecord(of: held, omittingRelationshipsTo: streamed, inlining: inlined) { records.append(Self.withoutNulls($0)) }
        self.records = records
        caseInsensitive = reader.schemaSource == .inferred
        storeKey = reader.metadata.storeUUID ?? (reader.path as NSString).lastPathComponent
        byID = Dictionary(records.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { first, _ in first })
        for (offset, record) in records.enumerated() {
            for link in toOneNames(of: record.entity) {
                if let parent = member(record.values, link)?.string { backLinks[parent, default: []].append(offset) }
            }
        }
    }

    /// The names of an entity's to-one relationships, inherited ones included.
    func toOneNames(of entityName: String) -> [String] {
        guard let entity = reader.model.entity(named: entityName) else { return [] }
        return reader.model.allRelationships(of: entity).filter { !$0.isToMany }.map(\.name)
    }

    var entityNames: Set<String> {
        Set(records.map(\.entity)).union(reader.entityCounts().filter { (streamed.contains($0.entity) || inlined.contains($0.entity)) && $0.rows > 0 }.map(\.entity))
    }

    func records(of entities: Set<String>) -> [CoreDataRecord] {
        records.filter { entities.contains($0.entity) }
    }

    /// Calls `body` with every row of `entities`: held rows from memory, streamed ones from the store
    /// (offered to `typed` first, when given).
    func forEachRecord(of entities: Set<String>, typed: TypedRows? = nil, _ body: (CoreDataRecord) throws -> Void) throws {
        for record in records where entities.contains(record.entity) { try body(record) }
        let fromStore = entities.intersection(streamed)
        guard !fromStore.isEmpty else { return }
        let more = try reader.forEachRecord(of: fromStore, typed: typed, inlining: inlined) { try body(Self.withoutNulls($0)) }
        warnings.merge(more, uniquingKeysWith: +)
    }

    func object(forID id: String) -> JSONObject? {
        guard let offset = byID[id] else { return nil }
        taken.insert(id)
        return records[offset].values
    }

    func backLinked(to parentID: String, entity: String) -> [JSONObject] {
        let rows = (backLinks[parentID] ?? []).map { records[$0] }.filter { $0.entity.contains(entity) }
        for row in rows { taken.insert(row.id) }
        return rows.sorted { (orderKey($0), $0.primaryKey) < (orderKey($1), $1.primaryKey) }.map(\.values)
    }

    func record(withID id: String) -> CoreDataRecord? {
        byID[id].map { records[$0] }
    }

    /// A store cannot tell a nil value from an absent one: keep neither.
    private static func withoutNulls(_ record: CoreDataRecord) -> CoreDataRecord {
        var record = record
        record.values = JSONObject(record.values.members.filter { !$0.value.isNull })
        return record
    }

    /// A streamed row taken without becoming a record.
    func takeStreamed(_ entity: String) {
        streamedTaken[entity, default: 0] += 1
    }

    func take(_ record: CoreDataRecord) {
        if streamed.contains(record.entity) {
            takeStreamed(record.entity)
        } else {
            taken.insert(record.id)
        }
        // The rows read into it go with it (what the normalizer does not read of them stays in extras).
        streamedTaken.merge(record.inlined, uniquingKeysWith: +)
    }

    /// The canonical id of a row: its own UUID, else a name-based one from the store and the row.
    func canonicalID(_ record: CoreDataRecord, app: SourceApp) -> String {
        StableID.normalized(record.id) ?? StableID.make(app.rawValue, storeKey, record.id)
    }

    /// A reader over a row's values, located at the row: `Model.sqlite: ProjectPlan/p3: field …`.
    func fields(_ record: CoreDataRecord, dates: LegacyDateDecoder) -> FieldReader {
        FieldReader(record.values, at: RecordLocation(file: reader.path, key: "\(record.entity) \(record.id)"), dates: dates,
                    caseInsensitive: caseInsensitive)
    }

    /// Rows per entity that no normalizer took, for the report.
    func untaken(among entities: Set<String>) -> [(entity: String, rows: Int)] {
        var counts: [String: Int] = [:]
        for record in records where entities.contains(record.entity) && !taken.contains(record.id) {
            counts[record.entity, default: 0] += 1
        }
        for (entity, rows) in reader.entityCounts() where (streamed.contains(entity) || inlined.contains(entity)) && entities.contains(entity) {
            let left = rows - (streamedTaken[entity] ?? 0)
            if left > 0 { counts[entity, default: 0] += left }
        }
        return counts.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    private func orderKey(_ record: CoreDataRecord) -> Int64 {
        for key in ["orderIndex", "order_index", "sortOrder", "order", "sortIndex", "position"] {
            if let number = member(record.values, key)?.number?.int64 { return number }
        }
        return Int64.max
    }

    private func member(_ values: JSONObject, _ key: String) -> JSONValue? {
        if let value = values[key] { return value }
        guard caseInsensitive else { return nil }
        let lowered = key.lowercased()
        return values.members.first { $0.key.lowercased() == lowered }?.value
    }
}

extension CoreDataRecordIndex {
    var fileName: String { (reader.path as NSString).lastPathComponent }

    /// Where a row came from, named as `ferry dump` names it.
    func source(_ record: CoreDataRecord, app: SourceApp) -> SourceRef {
        SourceRef(app: app, entity: record.entity, key: record.id, file: fileName)
    }

    /// Refuses a store that has none of the entities an app's normalizer converts (a store of
    /// another app given with `--from`).
    func require(_ app: SourceApp, anyOf entities: Set<String>) throws(ConversionError) {
        let present = Set(reader.model.entities.map(\.name))
        guard !present.isDisjoint(with: entities) else {
            throw ConversionError(.notRecognized("not a \(app.rawValue) store: none of \(entities.sorted().joined(separator: ", ")) among its entities (\(present.sorted().prefix(8).joined(separator: ", ")))"),
                                  at: RecordLocation(file: reader.path))
        }
    }

    /// The canonical id of the row a relationship value names, if the store has that row.
    func canonicalID(ofRowID id: String, app: SourceApp) -> String? {
        guard let row = record(withID: id) else { return StableID.normalized(id) }
        return canonicalID(row, app: app)
    }
}

extension ConversionContext {
    /// Takes a store record into the conversion: marks it taken, names it by its canonical id,
    /// claims that id in `table` and gives its fields to read.
    func take(_ record: CoreDataRecord, from index: CoreDataRecordIndex, app: SourceApp, claiming table: String) throws
        -> (id: String, fields: FieldReader) {
        index.take(record)
        let id = index.canonicalID(record, app: app)
        let fields = index.fields(record, dates: dates)
        try claim(id, table: table, at: fields.location)
        return (id, fields)
    }
}
