/// Which record each id of a dump names, and each record's `Z_PK`, for millions of records in
/// bounded memory: ``CoreDataDumpLoader``'s first pass fills it, the others look ids up in it.
///
/// A record costs 16 bytes, plus 24 when its id is a UUID in upper case (as `ferry dump` writes
/// an object's `id` or `uuid` attribute). An id of the form `<Entity>/p<pk>` naming the record's
/// own entity and pk (as `ferry dump` names the rest) costs nothing more: it is found through
/// the table's keys. Only other ids are kept as text.
struct DumpKeyIndex: Sendable {
    struct Entry: Sendable {
        /// The record's `Z_PK`: its own, or (0 until ``seal()``) the next free one of its table.
        var primaryKey: Int64
        var entity: UInt16
        var file: UInt16
        var line: UInt32
    }

    /// Two records that may not both be there: the same id, or the same pk in one table.
    struct Clash: Sendable, Equatable {
        enum Kind: Sendable { case id, primaryKey }
        var kind: Kind
        /// Entry indexes, the earlier record first.
        var first: Int
        var second: Int
    }

    /// Concrete entities by index: their names and tables.
    let entityNames: [String]
    private let entityIndexes: [String: UInt16]
    private let tables: [UInt16]
    private let tableCount: Int

    private(set) var entries: [Entry] = []
    /// Ids that are upper-case UUIDs: their 16 bytes and entry, sorted by the bytes once sealed.
    private var uuidIDs: [(high: UInt64, low: UInt64, entry: UInt32)] = []
    /// Per entry: whether its id is `<Entity>/p<pk>` of its own entity and pk.
    private var namedByKey = EntryFlags()
    /// Where each bucket of the sorted UUIDs starts, by their first ``uuidBucketBits`` bits: about
    /// one UUID a bucket.
    private var uuidBuckets: [UInt32] = [0, 0]
    private var uuidBucketBits = 0
    /// Other ids, as text.
    private var otherIDs: [String: UInt32] = [:]
    /// The first clash met while adding (an id given twice as text).
    private var textClash: Clash?
    /// Entries that have their own pk, sorted by table and pk once sealed.
    private var byKey: [UInt32] = []
    /// Each table's highest key, by table number, once sealed.
    private var highestKeys: [Int64] = []
    private(set) var isSealed = false

    /// - Parameter entities: the concrete entities and the table each is stored in.
    init(entities: [(name: String, table: String)]) {
        entityNames = entities.map(\.name)
        entityIndexes = Dictionary(entities.enumerated().map { ($0.element.name, UInt16($0.offset)) }, uniquingKeysWith: { a, _ in a })
        var tableNumbers: [String: UInt16] = [:]
        tables = entities.map { entity in
            if let known = tableNumbers[entity.table] { return known }
            let number = UInt16(tableNumbers.count)
            tableNumbers[entity.table] = number
            return number
        }
        tableCount = tableNumbers.count
    }

    func entityIndex(_ name: String) -> UInt16? { entityIndexes[name] }

    /// The highest key of the table an entity is stored in (0 for none), once sealed.
    func highestKey(ofEntity entity: Int) -> Int64 {
        highestKeys.isEmpty ? 0 : highestKeys[Int(tables[entity])]
    }

    /// Adds a record. Its id's bytes are read here only.
    mutating func add(entity: UInt16, id: UnsafeBufferPointer<UInt8>, primaryKey: Int64?, file: Int, line: Int) {
        precondition(!isSealed, "a sealed index takes no more records")
        let index = UInt32(entries.count)
        entries.append(Entry(primaryKey: primaryKey ?? 0, entity: entity, file: UInt16(clamping: file), line: UInt32(clamping: line)))
        if primaryKey != nil { byKey.append(index) }
        if let pk = primaryKey, Self.isName(id, of: entityNames[Int(entity)], key: pk) {
            namedByKey.set(Int(index))
        } else if let uuid = Self.upperCaseUUID(id) {
            uuidIDs.append((uuid.high, uuid.low, index))
        } else {
            let text = String(decoding: id, as: UTF8.self)
            if let earlier = otherIDs[text] {
                if textClash == nil { textClash = Clash(kind: .id, first: Int(earlier), second: Int(index)) }
            } else {
                otherIDs[text] = index
            }
        }
    }

    /// Sorts what lookups need sorted, finds the clash that comes first in the records' order,
    /// and gives each record without a pk the next free key of its table, in order.
    mutating func seal() -> Clash? {
        isSealed = true
        var clashes: [Clash] = textClash.map { [$0] } ?? []
        if !uuidIDs.isEmpty {
            uuidIDs.sort { ($0.high, $0.low, $0.entry) < ($1.high, $1.low, $1.entry) }
            for index in uuidIDs.indices.dropFirst() where uuidIDs[index].high == uuidIDs[index - 1].high && uuidIDs[index].low == uuidIDs[index - 1].low {
                clashes.append(Clash(kind: .id, first: Int(uuidIDs[index - 1].entry), second: Int(uuidIDs[index].entry)))
            }
            uuidBucketBits = min(22, max(1, Int.bitWidth - uuidIDs.count.leadingZeroBitCount))
            uuidBuckets = [UInt32](repeating: 0, count: (1 << uuidBucketBits) + 1)
            for entry in uuidIDs { uuidBuckets[Int(entry.high >> UInt64(64 - uuidBucketBits)) + 1] += 1 }
            for bucket in 1..<uuidBuckets.count { uuidBuckets[bucket] += uuidBuckets[bucket - 1] }
        }
        let ordered = { [entries, tables] (a: UInt32, b: UInt32) -> Bool in
            let (x, y) = (entries[Int(a)], entries[Int(b)])
            return (tables[Int(x.entity)], x.primaryKey, a) < (tables[Int(y.entity)], y.primaryKey, b)
        }
        // A dump lists each table's records by pk: already in order, the sort is skipped.
        if zip(byKey, byKey.dropFirst()).contains(where: { !ordered($0, $1) }) { byKey.sort(by: ordered) }
        var next = [Int64](repeating: 1, count: tableCount)
        for position in byKey.indices {
            let entry = entries[Int(byKey[position])]
            let table = Int(tables[Int(entry.entity)])
            next[table] = max(next[table], entry.primaryKey + 1)
            guard position > 0 else { continue }
            let before = entries[Int(byKey[position - 1])]
            if tables[Int(before.entity)] == tables[Int(entry.entity)], before.primaryKey == entry.primaryKey {
                // The same pk and the same id (`<Entity>/p<pk>` twice) is the id's clash.
                let sameName = isNamedByKey(Int(byKey[position - 1])) && isNamedByKey(Int(byKey[position])) && before.entity == entry.entity
                clashes.append(Clash(kind: sameName ? .id : .primaryKey, first: Int(byKey[position - 1]), second: Int(byKey[position])))
            }
        }
        // A text id that reads as another record's `<Entity>/p<pk>` or upper-case UUID is kept as
        // text only when it is not that record's own form; the two are then one id given twice.
        for (text, index) in otherIDs {
            if let other = entry(namedByKey: text) ?? entry(uuid: text) {
                clashes.append(Clash(kind: .id, first: min(Int(index), other), second: max(Int(index), other)))
            }
        }
        for index in entries.indices where entries[index].primaryKey == 0 {
            let table = Int(tables[Int(entries[index].entity)])
            entries[index].primaryKey = next[table]
            next[table] += 1
        }
        highestKeys = next.map { $0 - 1 }
        // A record that clashes twice is named for its id first, as it is checked first.
        return clashes.min { ($0.second, $0.kind == .id ? 0 : 1, $0.first) < ($1.second, $1.kind == .id ? 0 : 1, $1.first) }
    }

    /// The entry of the record with this id.
    func entry(ofID id: String) -> Int? {
        if !otherIDs.isEmpty, let index = otherIDs[id] { return Int(index) }
        return entry(uuid: id) ?? entry(namedByKey: id)
    }

    private func isNamedByKey(_ index: Int) -> Bool { namedByKey[index] }

    private func entry(uuid id: String) -> Int? {
        var id = id
        return id.withUTF8 { bytes -> Int? in
            guard let uuid = Self.upperCaseUUID(bytes) else { return nil }
            // Only the bucket of its first bits is searched: a plain search over a million took
            // twenty steps through cold memory.
            let bucket = Int(uuid.high >> UInt64(64 - uuidBucketBits))
            var (low, high) = (Int(uuidBuckets[bucket]), Int(uuidBuckets[bucket + 1]))
            while low < high {
                let middle = (low + high) / 2
                let here = uuidIDs[middle]
                if (here.high, here.low) < (uuid.high, uuid.low) { low = middle + 1 } else { high = middle }
            }
            guard low < uuidIDs.count, uuidIDs[low].high == uuid.high, uuidIDs[low].low == uuid.low else { return nil }
            return Int(uuidIDs[low].entry)
        }
    }

    /// The record an id `<Entity>/p<pk>` names, when that is its own entity, pk and id.
    private func entry(namedByKey id: String) -> Int? {
        var id = id
        guard let (entity, pk) = id.withUTF8({ bytes -> (UInt16, Int64)? in
            guard let (name, key) = Self.nameAndKey(bytes), let entity = entityIndexes[String(decoding: name, as: UTF8.self)] else { return nil }
            return (entity, key)
        }) else { return nil }
        let table = tables[Int(entity)]
        var (low, high) = (0, byKey.count)
        while low < high {
            let middle = (low + high) / 2
            let here = entries[Int(byKey[middle])]
            if (tables[Int(here.entity)], here.primaryKey) < (table, pk) { low = middle + 1 } else { high = middle }
        }
        // Several entries may share the key (a clash already found); the one named so is the one.
        while low < byKey.count {
            let index = Int(byKey[low])
            let here = entries[index]
            guard tables[Int(here.entity)] == table, here.primaryKey == pk else { return nil }
            if here.entity == entity, isNamedByKey(index) { return index }
            low += 1
        }
        return nil
    }

    /// Whether `id` is `<name>/p<key>`.
    static func isName(_ id: UnsafeBufferPointer<UInt8>, of name: String, key: Int64) -> Bool {
        guard let (named, value) = nameAndKey(id), value == key else { return false }
        var name = name
        return name.withUTF8 { named.elementsEqual($0) }
    }

    /// The parts of an id `<name>/p<key>`, the key in decimal from 1, without leading zeros.
    static func nameAndKey(_ id: UnsafeBufferPointer<UInt8>) -> (name: Slice<UnsafeBufferPointer<UInt8>>, key: Int64)? {
        guard let slash = id.lastIndex(of: UInt8(ascii: "/")), slash > 0, slash + 2 < id.count, id[slash + 1] == UInt8(ascii: "p"),
              id[slash + 2] != UInt8(ascii: "0") else { return nil }
        var value: Int64 = 0
        for byte in id[(slash + 2)...] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            guard !overflow, !carry else { return nil }
            value = sum
        }
        return (id[..<slash], value)
    }

    /// A UUID written as `ferry dump` (and Foundation) write one, in upper case; any other
    /// spelling is another id.
    static func upperCaseUUID(_ id: UnsafeBufferPointer<UInt8>) -> (high: UInt64, low: UInt64)? {
        UUIDText.bits(id, upperCaseOnly: true)
    }
}
