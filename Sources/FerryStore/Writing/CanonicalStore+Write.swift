import FerryCanonical
import FerryJSON
import FerryLegacy
import Foundation
import GRDB

extension CanonicalStore {
    /// Writes a batch in one transaction: every record is upserted by id (converting the same
    /// input again changes nothing), each record's parts (steps, materials, tags, links,
    /// attachments, snapshot) replace the ones it had. Foreign keys are checked at commit.
    ///
    /// - Parameter keepGoing: a record that fails is rolled back alone and reported; without it
    ///   the first failure rolls everything back.
    /// - Returns: rows written per table.
    /// - Throws: ``StoreError``; nothing is written then.
    @discardableResult
    public func write(_ batch: CanonicalBatch, report: ReportBuilder? = nil, keepGoing: Bool = false,
                      run: (version: String, inputs: JSONValue)? = nil) throws -> [String: Int] {
        try session(report: report, keepGoing: keepGoing, run: run) { try $0.write(batch) }
    }

    /// Runs `body` in one write transaction with a ``StoreSession`` that writes batches as they
    /// come; commits when `body` returns, rolls everything back when it throws.
    /// - Returns: rows written per table.
    public func session(report: ReportBuilder? = nil, keepGoing: Bool = false, run: (version: String, inputs: JSONValue)? = nil,
                        _ body: (StoreSession) throws -> Void) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        var activity: String?
        // What the session does after the records are written, named in an error instead of the last record.
        var phase: String?
        do {
            try queue.writeWithoutTransaction { db in
                let fresh = try Int.fetchOne(db, sql: "SELECT (SELECT count(*) FROM recipe) + (SELECT count(*) FROM project) + (SELECT count(*) FROM log)") == 0
                // Into an empty store, the keys and indexes of logs and snapshots are built once at
                // the end (a sort) rather than row by row: the same indexes, from the same SQL text.
                // Without the key of `log`, SQLite cannot check the foreign keys that name it, so
                // they are off for this transaction (SQLite allows the switch only outside one) and
                // every foreign key is checked before it commits.
                let deferred = fresh ? try Row.fetchAll(db, sql: """
                    SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('log', 'log_snapshot') AND sql IS NOT NULL
                    """) : []
                if !deferred.isEmpty { try db.execute(sql: "PRAGMA foreign_keys = OFF") }
                defer { if !deferred.isEmpty { try? db.execute(sql: "PRAGMA foreign_keys = ON") } }
                try db.inTransaction {
                    try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
                    // Every row this session writes is bound by `RowBinder`, which holds each value to
                    // its column's CHECK in Swift (``ColumnRules``); SQLite evaluating them again took
                    // half of a conversion's SQL time. Only this session's statements skip them.
                    try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
                    defer { try? db.execute(sql: "PRAGMA ignore_check_constraints = OFF") }
                    let session = StoreSession(db: db, report: report, keepGoing: keepGoing, fresh: fresh)
                    session.refusesDuplicateLogs = deferred.contains { isUnique($0) }
                    defer { session.stopTakingLogs() }
                    defer { activity = phase ?? session.writer.activity }
                    for index in deferred { try db.execute(sql: "DROP INDEX \(index["name"] as String)") }
                    try body(session)
                    // An index is built by a sort that may use as much memory as the page cache, on
                    // top of it: the bulk load's large cache is given back first. The keys come
                    // before settling links, which looks records up by id; the other indexes after,
                    // so that links settled late do not update them row by row.
                    let (keys, others) = (deferred.filter { isUnique($0) }, deferred.filter { !isUnique($0) })
                    if !deferred.isEmpty { try db.execute(sql: "PRAGMA cache_size = -8192; PRAGMA threads = \(Self.sortThreads)") }
                    defer { if !deferred.isEmpty { try? db.execute(sql: "PRAGMA threads = 0") } }
                    try build(keys, db: db, phase: &phase)
                    try session.settlePending()
                    try build(others, db: db, phase: &phase)
                    if let run {
                        try session.writer.writeRun(version: run.version, inputs: run.inputs, db: db)
                    }
                    if !deferred.isEmpty, let dangling = try ForeignKeyCheck.dangling(db) {
                        phase = "checking foreign keys"
                        throw StoreError(.integrity([dangling]), path: path, activity: phase)
                    }
                    counts = session.writer.counts
                    return .commit
                }
            }
        } catch let error as DatabaseError {
            throw StoreError(error, path: path, activity: activity)
        }
        return counts
    }

    /// Helper threads SQLite's sorter may use to build the indexes: once reading has ended the
    /// other cores are idle. With one helper, the four log indexes of a million logs took 3.6–4.3 s
    /// here instead of 4.4–5.8 s.
    static let sortThreads = max(0, min(ProcessInfo.processInfo.activeProcessorCount, 8) - 1)

    private func isUnique(_ index: Row) -> Bool {
        (index["sql"] as String).hasPrefix("CREATE UNIQUE INDEX")
    }

    /// A key built after the rows fails on a duplicate (conversions into a new store do not claim
    /// log ids, see ``StoreSession/refusesDuplicateLogs``): the error then names the index, not the
    /// last record written.
    private func build(_ indexes: [Row], db: Database, phase: inout String?) throws {
        for index in indexes {
            phase = "building the index \(index["name"] as String)"
            do {
                try db.execute(sql: index["sql"] as String)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                throw StoreError(.duplicateKey(error.message ?? "\(error.resultCode)"), path: path, activity: phase)
            }
        }
        phase = nil
    }
}

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
        let saved = (written, tallies)
        try db.execute(sql: "SAVEPOINT record")
        do {
            try body(&self)
            try db.execute(sql: "RELEASE SAVEPOINT record")
            return true
        } catch let error as DatabaseError {
            try db.execute(sql: "ROLLBACK TO SAVEPOINT record")
            try db.execute(sql: "RELEASE SAVEPOINT record")
            (written, tallies) = saved
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

    /// Takes one row of `shape` onto the tape, its values given by `bind`, and counts it.
    mutating func add(_ shape: UpsertShape, _ bind: (inout RowBinder) -> Void) {
        count(shape, key: tape.add(shape, bind))
    }

    /// As ``add(_:_:)``, with `record` handed to `bind` rather than captured (no copy of it).
    mutating func add<Record>(_ shape: UpsertShape, for record: Record, _ bind: (inout RowBinder, Record) -> Void) {
        count(shape, key: tape.add(shape, for: record, bind))
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
    }

    /// Upserts one row of `shape`, its values bound by `bind`, and counts it.
    mutating func upsert(_ shape: UpsertShape, db: Database, _ bind: (inout RowBinder) -> Void) throws {
        add(shape, bind)
        try play(db: db)
    }

    func delete(_ table: String, where column: String, _ id: String, db: Database) throws {
        guard !fresh else { return }
        try db.cachedStatement(sql: "DELETE FROM \(table) WHERE \(column) = ?").execute(arguments: [id])
    }

    static func json(_ object: JSONObject) -> String { object.isEmpty ? "{}" : JSONWriter.string(.object(object)) }

    mutating func insertContent(sha256: String, data: Data, db: Database) throws {
        try upsert(RowShapes.attachmentContent, db: db) { row in
            row.add("sha256", sha256)
            row.add("data", data)
        }
    }

    mutating func write(_ item: CatalogItem, db: Database) throws {
        try upsert(RowShapes.catalogItem, db: db) { row in
            row.add("natural_key", item.naturalKey)
            row.add("source_app", item.source.app.rawValue)
            row.add("source_file", item.source.file)
            row.add("name", item.name)
            row.add("manufacturer", item.manufacturer)
            row.add("code", item.code)
            row.add("extras", json: .object(item.extras))
        }
    }

    mutating func writeRun(version: String, inputs: JSONValue, db: Database) throws {
        let inputsText = JSONWriter.string(inputs)
        let countsText = JSONWriter.string(.object(JSONObject(counts.sorted { $0.key < $1.key }.map { ($0.key, .integer($0.value)) })))
        try upsert(RowShapes.importRun, db: db) { row in
            row.add("id", StableID.make("import-run", version, inputsText))
            row.add("ferry_version", version)
            row.add("inputs", inputsText)
            row.add("counts", countsText)
        }
    }
}
