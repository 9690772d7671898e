import FerryJSON
import FerryModel
import Foundation
import GRDB

extension CoreDataDumpLoader {
    /// How the records of one concrete entity become rows: one insertion that sets every stored
    /// column, each member of a record's values found once by name.
    final class RowPlan: Sendable {
        /// What a member of the values is. Plain fields of a class: finding one and reading
        /// it copies nothing (an enum with payloads was copied and destroyed for every value,
        /// a quarter of the reading thread).
        final class Member: Sendable {
            enum Role: Sendable { case attribute, toOne, toMany, joinedToMany, unstored }

            let role: Role
            /// An attribute's or to-one's place in the row; -1 for an attribute without a column.
            let slot: Int
            let type: AttributeType
            let name: String
            /// A to-one: whether a `Z<n>_` column follows its key; by entity index, whether an
            /// object of that entity may be the destination; where it leads.
            let entityColumn: Bool
            let kinds: [Bool]
            let destination: String

            init(_ role: Role, name: String, slot: Int = -1, type: AttributeType = .undefined, entityColumn: Bool = false, kinds: [Bool] = [],
                 destination: String = "") {
                (self.role, self.name, self.slot, self.type, self.entityColumn, self.kinds, self.destination) = (role, name, slot, type, entityColumn, kinds, destination)
            }
        }

        let entity: EntityDescription
        let insertion: CoreDataStoreWriter.Insertion
        let members: [String: Member]

        init(entity: EntityDescription, insertion: CoreDataStoreWriter.Insertion, members: [String: Member]) {
            self.entity = entity
            self.insertion = insertion
            self.members = members
        }
    }

    /// The members of the records of one entity in the order the last record gave them: records
    /// of a dump list their values in one order, and the keys read are the same strings (the
    /// reader's key cache), so a member is found by one comparison rather than by hashing.
    struct MemberOrder {
        private var order: [(key: String, member: RowPlan.Member?)] = []

        mutating func member(_ key: String, at position: Int, in plan: RowPlan) -> RowPlan.Member? {
            if position < order.count, order[position].key == key { return order[position].member }
            let member = plan.members[key]
            if position < order.count { order[position] = (key, member) } else if position == order.count { order.append((key, member)) }
            return member
        }
    }

    /// A to-many kept in a join table, as a record lists it: the third pass needs both sides.
    struct JoinListing: Sendable {
        var ids: [String]
        var orders: JSONValue?
        var location: RecordLocation
    }

    /// What the second pass leaves for the third.
    struct WrittenRows: Sendable {
        /// By entry index: whether the record lists objects in a to-many.
        var listing: EntryFlags
        /// The lists of to-manys kept in join tables, by record id and relationship.
        var joinLists: [String: [String: JoinListing]] = [:]
    }

    /// Which records' entities may be the destination of a relationship leading to `destination`, by entity index.
    static func kinds(leadingTo destination: String?, index: DumpKeyIndex, writer: CoreDataStoreWriter) -> [Bool] {
        index.entityNames.map { writer.isKind($0, of: destination ?? "") }
    }

    private func plans(for index: DumpKeyIndex, writer: CoreDataStoreWriter) throws -> [RowPlan] {
        try index.entityNames.map { name in
            guard let entity = model.entity(named: name) else { throw CoreDataWriteError(kind: .unknownEntity(name), file: writer.path) }
            var members: [String: RowPlan.Member] = [:]
            var stored: [String] = []
            for attribute in model.allAttributes(of: entity) where members[attribute.name] == nil {
                let hasColumn = writer.layout.column(ofAttribute: attribute.name, in: entity) != nil
                members[attribute.name] = RowPlan.Member(.attribute, name: attribute.name, slot: hasColumn ? 3 + stored.count : -1, type: attribute.type)
                if hasColumn { stored.append(attribute.name) }
            }
            var linked: [(RelationshipDescription, Bool)] = []
            var slot = 3 + stored.count
            for relationship in model.allRelationships(of: entity) where members[relationship.name] == nil {
                switch writer.layout.storage(ofRelationship: relationship.name, in: entity) {
                case .foreignKey(_, let entityColumn) where !relationship.isToMany:
                    let kinds = Self.kinds(leadingTo: relationship.destinationEntity, index: index, writer: writer)
                    members[relationship.name] = RowPlan.Member(.toOne, name: relationship.name, slot: slot, entityColumn: entityColumn != nil, kinds: kinds,
                                                                destination: relationship.destinationEntity ?? "nothing")
                    slot += entityColumn != nil ? 2 : 1
                    linked.append((relationship, entityColumn != nil))
                case .joinTable where relationship.isToMany:
                    members[relationship.name] = RowPlan.Member(.joinedToMany, name: relationship.name)
                default:
                    members[relationship.name] = RowPlan.Member(relationship.isToMany ? .toMany : .unstored, name: relationship.name)
                }
            }
            let insertion = try writer.insertion(name, attributes: stored, toOne: linked.map(\.0.name))
            return RowPlan(entity: entity, insertion: insertion, members: members)
        }
    }

    /// A record read whole in the second pass, and its entry in the index.
    struct ReadRecord: Sendable {
        var record: Record
        var entry: Int
    }

    /// The second pass: records read whole on a thread of their own; made rows and written here.
    /// (Reading is the larger half; making the rows here balances the two threads.)
    func writeRows(of files: [String], indexed: IndexedRecords, into writer: CoreDataStoreWriter, lossless: Bool) throws -> WrittenRows {
        let plans = try plans(for: indexed.index, writer: writer)
        let numbers = indexed.index.entityNames.map { Int64(writer.layout.entityNumbers[$0] ?? 0) }
        let handOver = RecordHandOver()
        let thread = Thread { [self] in
            handOver.readingEnded(Result { try readRecords(of: files, indexed: indexed, into: handOver) })
        }
        // JSON nests as deep as the reader allows.
        thread.stackSize = 16 << 20
        thread.start()
        var written = WrittenRows(listing: EntryFlags(count: indexed.index.entries.count))
        var writeError: Error?
        var player = RowBatchPlayer(sql: plans.map(\.insertion.sql))
        var rows = RowBatch()
        var orders = plans.map { _ in MemberOrder() }
        do {
            while var records = try handOver.next() {
                for read in records {
                    let place = indexed.index.entries[read.entry]
                    let entity = Int(place.entity)
                    let lists = try add(read.record, key: place.primaryKey, entry: read.entry, plan: plans[entity], order: &orders[entity],
                                        statement: entity, to: &rows, index: indexed.index, numbers: numbers, lossless: lossless,
                                        joinLists: &written.joinLists)
                    if lists { written.listing.set(read.entry) }
                }
                do {
                    try writer.withConnection { db in try player.play(rows, db: db) }
                } catch let refused as RowBatchPlayer.Refused {
                    let record = try self.record(atEntry: refused.entry, index: indexed.index, files: files)
                    let key = indexed.index.entries[refused.entry].primaryKey
                    throw CoreDataReadError(.badRecord("\(record.entity.name) Z_PK \(key): \(refused.message)"), at: record.location)
                }
                rows.removeAll()
                // Freed by the reading thread, which made them.
                handOver.giveBack(consume records)
                records = []
            }
        } catch {
            writeError = error
            handOver.stop()
        }
        let read = handOver.waitForReading()
        if let writeError { throw writeError }
        try read.get()
        for (entity, plan) in plans.enumerated() { writer.noteHighestKey(indexed.index.highestKey(ofEntity: entity), inTable: plan.insertion.table) }
        return written
    }

    /// The reading side of the second pass: each record read whole and checked against the index.
    private func readRecords(of files: [String], indexed: IndexedRecords, into handOver: RecordHandOver) throws {
        var reader = JSONDocumentReader()
        var batch: [ReadRecord] = []
        for (number, file) in files.enumerated() {
            var entry = indexed.files[number].lowerBound
            try forEachRecord(in: file) { bytes, line in
                let record = try record(bytes, at: RecordLocation(file: file, record: line), reader: &reader)
                _ = try indexed.place(of: record, entry: entry, file: number, line: line)
                batch.append(ReadRecord(record: record, entry: entry))
                entry += 1
                if batch.count == 1024 { try handOver.hand(&batch) }
            }
        }
        if !batch.isEmpty { try handOver.hand(&batch) }
    }

    /// Adds a record's row to `batch`, each value in its column's place. Returns whether it lists
    /// objects in a to-many, and keeps the lists of those a join table holds.
    private func add(_ record: Record, key: Int64, entry: Int, plan: RowPlan, order: inout MemberOrder, statement: Int, to batch: inout RowBatch, index: DumpKeyIndex, numbers: [Int64],
                     lossless: Bool, joinLists: inout [String: [String: JoinListing]]) throws -> Bool {
        guard (1...CoreDataStoreWriter.highestKey).contains(key) else {
            throw CoreDataReadError(.badRecord("\(record.entity.name) Z_PK \(key): a key is a whole number from 1 to \(CoreDataStoreWriter.highestKey)"), at: record.location)
        }
        let base = batch.begin(entry: entry, statement: statement, columns: plan.insertion.columns.count)
        batch.values[base] = .integer(key)
        batch.values[base + 1] = .integer(Int64(plan.insertion.number))
        if let stored = record.storedEntity { batch.set(base + 1, stored) }
        batch.values[base + 2] = .integer(record.optimisticLock ?? 1)
        var lists = false
        for (position, member) in record.values.members.enumerated() {
            guard let plan = order.member(member.key, at: position, in: plan) else {
                var here = record.location
                here.field = member.key
                throw CoreDataReadError(.badRecord("\(record.entity.name) has no attribute or relationship of this name"), at: here)
            }
            guard plan.role != .unstored else {
                guard !member.value.isNull else { continue }
                throw CoreDataReadError(.badRecord("\(record.entity.name) Z_PK \(key): \"\(member.key)\" is not a stored property of that kind"), at: record.location)
            }
            do {
                switch plan.role {
                case .attribute:
                    guard plan.slot >= 0 else { continue }
                    if lossless {
                        guard let cell = CoreDataCell(losslessJSON: member.value) else {
                            throw CoreDataReadError(.badRecord("not a stored value in the lossless form (number, text, {\"base64\"} or null)"), at: record.location)
                        }
                        batch.set(base + plan.slot, cell)
                    } else {
                        batch.set(base + plan.slot, try Self.cell(member.value, type: plan.type, name: plan.name, at: record.location))
                    }
                case .toOne:
                    guard !member.value.isNull else { continue }
                    let target = try target(member.value, of: plan.name, leadingTo: plan.destination, kinds: plan.kinds, index: index, at: record.location)
                    batch.values[base + plan.slot] = .integer(target.primaryKey)
                    if plan.entityColumn { batch.values[base + plan.slot + 1] = .integer(numbers[Int(target.entity)]) }
                case .toMany, .joinedToMany:
                    guard !member.value.isNull else { continue }
                    guard let listed = member.value.array, listed.allSatisfy({ $0.string != nil }) else {
                        throw CoreDataReadError(.badRecord("a to-many relationship is an array of ids"), at: record.location)
                    }
                    // An empty list is nothing to link, unless orders come with it (the third pass refuses them).
                    guard !listed.isEmpty || !(record.orders[member.key]?.isNull ?? true) else { continue }
                    lists = true
                    if plan.role == .joinedToMany {
                        joinLists[record.id, default: [:]][member.key] = JoinListing(ids: listed.compactMap(\.string), orders: record.orders[member.key],
                                                                                  location: record.location)
                    }
                case .unstored:
                    break
                }
            } catch var error as CoreDataReadError {
                // Named here rather than in a copy of the location for every value.
                error.location.field = member.key
                throw error
            }
        }
        return lists
    }

    /// The record an id names, which must be of the relationship's destination.
    func target(_ value: JSONValue, of relationship: String, leadingTo destination: String, kinds: [Bool], index: DumpKeyIndex,
                at location: RecordLocation) throws -> DumpKeyIndex.Entry {
        guard let id = value.string else { throw CoreDataReadError(.badRecord("a relationship holds ids (text)"), at: location) }
        guard let entry = index.entry(ofID: id) else { throw CoreDataReadError(.badRecord("links to \(id), which no record has"), at: location) }
        let target = index.entries[entry]
        guard kinds[Int(target.entity)] else {
            throw CoreDataReadError(.badRecord("links to \(id), a \(index.entityNames[Int(target.entity)]), where \(relationship) leads to \(destination)"), at: location)
        }
        return target
    }
}

/// Batches of records from the reading thread to the writing one: one waits while the next is
/// read. Written batches go back to be freed on the thread that made their values: freed on
/// another, every string went through the reading thread's allocator lock.
final class RecordHandOver: @unchecked Sendable {
    typealias Batch = [CoreDataDumpLoader.ReadRecord]
    private let condition = NSCondition()
    private var waiting: Batch?
    private var spent: [Batch] = []
    private var reading = true
    private var stopped = false
    private var outcome: Result<Void, Error>?

    /// Thrown to the reading side once writing has failed; the writing error is the one reported.
    struct Stopped: Error {}

    /// The reading side: hands `batch` over once the one before is taken; `batch` is then empty.
    func hand(_ batch: inout Batch) throws {
        var emptied = condition.withLock { spent.popLast() } ?? []
        emptied.removeAll(keepingCapacity: true)
        condition.lock()
        defer { condition.unlock() }
        while waiting != nil, !stopped { condition.wait() }
        guard !stopped else { throw Stopped() }
        waiting = batch
        batch = emptied
        condition.broadcast()
    }

    /// The writing side: the next batch, nil once reading has ended and none waits; the reading
    /// side's error once it has failed.
    func next() throws -> Batch? {
        condition.lock()
        defer { condition.unlock() }
        while waiting == nil, reading { condition.wait() }
        // What was read before a failure is written first: errors come in the records' order.
        if waiting == nil, case .failure(let error)? = outcome { throw error }
        let next = waiting
        waiting = nil
        condition.broadcast()
        return next
    }

    /// The writing side: a written batch, to be freed and filled again by the reading side.
    func giveBack(_ batch: consuming Batch) {
        condition.lock()
        defer { condition.unlock() }
        if spent.count < 2 { spent.append(batch) }
    }

    func readingEnded(_ result: Result<Void, Error>) {
        condition.withLock {
            outcome = result
            reading = false
            condition.broadcast()
        }
    }

    /// Writing failed: the reading side stops at its next hand-over.
    func stop() {
        condition.withLock {
            stopped = true
            waiting = nil
            condition.broadcast()
        }
    }

    /// What the reading side ended with, once it has.
    func waitForReading() -> Result<Void, Error> {
        condition.lock()
        defer { condition.unlock() }
        while reading { condition.wait() }
        return outcome ?? .failure(Stopped())
    }
}
