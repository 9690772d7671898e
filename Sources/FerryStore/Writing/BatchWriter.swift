import FerryCanonical
import FerryJSON
import FerryCoreData
import Foundation
import GRDB

/// Issues the upserts of one batch and counts the rows: each row once, however often it is
/// written (a tag shared by several records is one row).
struct BatchWriter {
    /// Rows many records share (a tag, a catalog item, attachment bytes) are counted once each
    /// (their shapes say `shared`); the others belong to one record each and are counted as written.
    private var written: [String: Set<String>] = [:]
    /// Rows written per shape, counted by the shape's identity: hashing the table's name for
    /// every row was a twentieth of taking a log's rows.
    private var tallies: [ObjectIdentifier: (table: String, count: Int)] = [:]
    /// Rows taken and not played yet.
    private var tape = RowTape()
    private var player = RowPlayer()
    var counts: [String: Int] {
        var counts = written.mapValues(\.count)
        for (table, count) in tallies.values { counts[table, default: 0] += count }
        return counts
    }
    /// The record being written, named in an error; kept as is, so that a million records build no strings.
    private var current: SourceRef?
    var activity: String? { (player.failedRecord ?? current).map { "writing \($0.entity) \($0.key ?? "")" } }
    /// The store held no records when the session began: nothing to replace, so no deletes.
    var fresh = false
    /// Whether each record's digest is kept (``RecordDigests``); not in a store read once and
    /// removed, which is never converted into again (a million logs' digests: a million rows).
    var keepsDigests = true
    /// Records new, changed and unchanged, by ``RecordDigests/Table`` (less one).
    private var changes = [RecordChanges](repeating: RecordChanges(), count: RecordDigests.Table.allCases.count)
    var changesByTable: [String: RecordChanges] {
        Dictionary(uniqueKeysWithValues: RecordDigests.Table.allCases.map { ($0.name, changes[$0.rawValue - 1]) })
    }

    /// Runs one record's writes in a savepoint, so that with `keepGoing` a failure loses only it.
    /// - Returns: whether the record was written (false: it was rejected and reported).
    @discardableResult
    mutating func guarded(_ source: SourceRef, keepGoing: Bool, report: ReportBuilder?, db: Database,
                          _ body: (inout BatchWriter) throws -> Void) throws -> Bool {
        current = source
        guard keepGoing else {
            try body(&self)
            return true
        }
        let saved = (written, tallies, changes)
        try db.execute(sql: "SAVEPOINT record")
        do {
            try body(&self)
            try db.execute(sql: "RELEASE SAVEPOINT record")
            return true
        } catch let error as DatabaseError {
            try db.execute(sql: "ROLLBACK TO SAVEPOINT record")
            try db.execute(sql: "RELEASE SAVEPOINT record")
            // Rows taken and not played (the record failed while it was judged) are its own.
            tape.removeAll()
            (written, tallies, changes) = saved
            report?.rejected(ConversionError(.invalidValue("cannot be stored: \(error.message ?? "\(error.resultCode)")"),
                                             at: RecordLocation(file: source.file, key: source.key)))
            return false
        }
    }

    /// The rows taken from now on are `source`'s.
    mutating func begin(_ source: SourceRef) {
        current = source
        tape.begin(source)
    }

    private mutating func count(_ shape: UpsertShape, key: String?) {
        if let key {
            written[shape.table, default: []].insert(key)
        } else {
            tallies[ObjectIdentifier(shape), default: (shape.table, 0)].count += 1
        }
    }

    /// Runs the rows taken so far.
    mutating func play(db: Database) throws {
        try player.play(&tape, db: db)
    }

    /// Runs rows another writer took (``LogRowTaker``), in their order.
    mutating func play(_ other: inout RowTape, db: Database) throws {
        try player.play(&other, db: db)
    }

    /// Gives the rows taken so far for `other`'s (an empty tape, to be filled next).
    mutating func handOver(_ other: inout RowTape) {
        swap(&tape, &other)
    }

    /// Counts the rows another writer took as this one's.
    mutating func absorbCounts(of other: BatchWriter) {
        tallies.merge(other.tallies) { mine, theirs in (mine.table, mine.count + theirs.count) }
        written.merge(other.written) { mine, theirs in mine.union(theirs) }
        for index in changes.indices { changes[index].add(other.changes[index]) }
    }

    /// Where the rows taken next begin: one record's rows are judged together (``judge(_:id:since:parts:db:)``).
    var tapeMark: RowTape.Mark { tape.mark }

    /// Decides whether the rows taken since `mark`, record `id`'s of `table`, are written: into a
    /// store that holds the record with the same digest they are forgotten; one that holds it with
    /// other rows has its parts (`parts`) deleted first. The record's digest is taken to be kept
    /// with its rows.
    /// - Returns: whether there are rows to play.
    /// - Parameter again: into a store that was empty, the record was written before in this session.
    mutating func judge(_ table: RecordDigests.Table, id: String, since mark: RowTape.Mark,
                        parts: [(String, CanonicalColumn)], stored: RecordDigests.Stored? = nil, again: Bool = false, db: Database) throws -> Bool {
        guard !fresh else {
            keepInFresh(table, id: id, since: mark, again: again)
            return true
        }
        let digest = tape.digest(since: mark)
        switch try stored ?? RecordDigests.stored(table, id: id, db: db) {
        case .absent:
            keep(table, id: id, digest: digest, new: true)
        case .present(_, let kept) where kept == digest:
            changes[table.rawValue - 1].unchanged += 1
            tape.rewind(to: mark)
            return false
        case .present:
            for (part, owner) in parts { try delete(part, where: owner, id, db: db) }
            keep(table, id: id, digest: digest, new: false)
        }
        return true
    }

    /// Counts a record written and takes the row keeping its digest.
    /// - Parameter last: into a store that was empty, the record's row is its table's last, new.
    mutating func keep(_ table: RecordDigests.Table, id: String, digest: Int64, new: Bool, last: Bool = true) {
        countChange(table, new: new)
        if fresh, last, let ofLast = RecordDigests.ofLast(table) {
            _ = tape.add(ofLast) { $0.add(digest) }
        } else {
            _ = tape.add(RecordDigests.byID[table].unsafelyUnwrapped) { row in
                row.add(id)
                row.add(digest)
            }
        }
    }

    /// Into a store that was empty: counts the record and, where digests are kept, takes the row
    /// keeping the digest of its rows taken since `mark`.
    mutating func keepInFresh(_ table: RecordDigests.Table, id: String, since mark: RowTape.Mark, again: Bool = false) {
        if keepsDigests {
            keep(table, id: id, digest: tape.digest(since: mark), new: !again, last: !again)
        } else {
            countChange(table, new: !again)
        }
    }

    /// Counts a record written, new or changed.
    mutating func countChange(_ table: RecordDigests.Table, new: Bool) {
        if new { changes[table.rawValue - 1].new += 1 } else { changes[table.rawValue - 1].changed += 1 }
    }

    /// The digest of the rows taken since `mark`.
    func digest(since mark: RowTape.Mark) -> Int64 { tape.digest(since: mark) }

    /// Takes one row of a canonical table, bound from `record` as the table declares, and counts it.
    mutating func add<Record>(_ shape: TableShape<Record>, _ record: Record) {
        count(shape, key: tape.add(shape, for: record) { row, record in shape.row.bind(&row, record) })
    }

    /// Upserts one row of a canonical table and counts it.
    mutating func upsert<Record>(_ shape: TableShape<Record>, _ record: Record, db: Database) throws {
        add(shape, record)
        try play(db: db)
    }

    func delete(_ table: String, where column: CanonicalColumn, _ id: String, db: Database) throws {
        guard !fresh else { return }
        try deleteRows(table, where: column, id, db: db)
    }

    func deleteRows(_ table: String, where column: CanonicalColumn, _ id: String, db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM \(table) WHERE \(column.name) = ?").execute(arguments: [id])
    }

    static func json(_ object: JSONObject) -> String { object.isEmpty ? "{}" : JSONWriter.string(.object(object)) }

    mutating func insertContent(sha256: String, data: Data, db: Database) throws {
        try upsert(RowShapes.attachmentContent, (sha256, data), db: db)
    }

    mutating func write(_ item: CatalogItem, db: Database) throws {
        try upsert(RowShapes.catalogItem, item, db: db)
    }

    mutating func writeRun(version: String, inputs: JSONValue, db: Database) throws {
        let inputsText = JSONWriter.string(inputs)
        let countsText = JSONWriter.string(.object(JSONObject(counts.sorted { $0.key < $1.key }.map { ($0.key, .integer($0.value)) })))
        try upsert(RowShapes.importRun, (StableID.make("import-run", version, inputsText), version, inputsText, countsText), db: db)
    }
}
