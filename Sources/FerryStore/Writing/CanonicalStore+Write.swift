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
        do {
            try queue.write { db in
                try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
                let fresh = try Int.fetchOne(db, sql: "SELECT (SELECT count(*) FROM recipe) + (SELECT count(*) FROM project) + (SELECT count(*) FROM log)") == 0
                let session = StoreSession(db: db, report: report, keepGoing: keepGoing, fresh: fresh)
                defer { activity = session.writer.activity }
                // Into an empty store, the log table's secondary indexes are built once at the end
                // (a sort) rather than row by row: the same indexes, from the same SQL text.
                let deferred = fresh ? try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'log' AND sql IS NOT NULL") : []
                for index in deferred { try db.execute(sql: "DROP INDEX \(index["name"] as String)") }
                try body(session)
                try session.settlePending()
                for index in deferred { try db.execute(sql: index["sql"] as String) }
                if let run {
                    try session.writer.writeRun(version: run.version, inputs: run.inputs, db: db)
                }
                counts = session.writer.counts
            }
        } catch let error as DatabaseError {
            throw StoreError(error, path: path, activity: activity)
        }
        return counts
    }
}

/// Issues the upserts of one batch and counts the rows: each row once, however often it is
/// written (a tag shared by several records is one row).
struct BatchWriter {
    /// Rows many records share (a tag, a catalog item, attachment bytes) are counted once each;
    /// the others belong to one record each and are counted as written.
    private static let sharedTables: Set<String> = ["tag", "technique", "attachment_content", "catalog_item", "import_run"]
    private var written: [String: Set<String>] = [:]
    private var tallies: [String: Int] = [:]
    private var statements: [String: Statement] = [:]
    var counts: [String: Int] { tallies.merging(written.mapValues(\.count)) { a, b in a + b } }
    var activity: String?
    /// The store held no records when the session began: nothing to replace, so no deletes.
    var fresh = false

    /// Runs one record's writes in a savepoint, so that with `keepGoing` a failure loses only it.
    mutating func guarded(_ source: SourceRef, keepGoing: Bool, report: ReportBuilder?, db: Database,
                          _ body: (inout BatchWriter) throws -> Void) throws {
        activity = "writing \(source.entity) \(source.key ?? "")"
        guard keepGoing else { return try body(&self) }
        let saved = (written, tallies)
        try db.execute(sql: "SAVEPOINT record")
        do {
            try body(&self)
            try db.execute(sql: "RELEASE SAVEPOINT record")
        } catch let error as DatabaseError {
            try db.execute(sql: "ROLLBACK TO SAVEPOINT record")
            try db.execute(sql: "RELEASE SAVEPOINT record")
            (written, tallies) = saved
            report?.rejected(ConversionError(.invalidValue("cannot be stored: \(error.message ?? "\(error.resultCode)")"),
                                             at: RecordLocation(file: source.file, key: source.key)))
        }
    }

    mutating func upsert(_ table: String, _ values: KeyValuePairs<String, (any DatabaseValueConvertible)?>,
                         conflict: String = "id", db: Database) throws {
        let signature = table + "|" + conflict + "|" + values.map(\.key).joined(separator: ",")
        let statement: Statement
        if let cached = statements[signature] { statement = cached } else {
            let columns = values.map(\.key)
            let updates = columns.filter { !conflict.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.contains($0) }
                .map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
            let sql = "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
                + " ON CONFLICT(\(conflict)) DO " + (updates.isEmpty ? "NOTHING" : "UPDATE SET \(updates)")
            statement = try db.makeStatement(sql: sql)
            statements[signature] = statement
        }
        try statement.execute(arguments: StatementArguments(values.map(\.value)))
        guard Self.sharedTables.contains(table) else {
            tallies[table, default: 0] += 1
            return
        }
        let keyColumns = conflict.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let key = values.filter { keyColumns.contains($0.key) }.map { $0.value.map { "\($0.databaseValue)" } ?? "NULL" }.joined(separator: "\u{1F}")
        written[table, default: []].insert(key)
    }

    func delete(_ table: String, where column: String, _ id: String, db: Database) throws {
        guard !fresh else { return }
        try db.cachedStatement(sql: "DELETE FROM \(table) WHERE \(column) = ?").execute(arguments: [id])
    }

    static func json(_ object: JSONObject) -> String { JSONWriter.string(.object(object)) }

    static func flag(_ value: Bool?) -> Int64? { value.map { $0 ? 1 : 0 } }

    mutating func insertContent(sha256: String, data: Data, db: Database) throws {
        try upsert("attachment_content", ["sha256": sha256, "data": data], conflict: "sha256", db: db)
    }

    mutating func write(_ item: CatalogItem, db: Database) throws {
        try upsert("catalog_item", [
            "natural_key": item.naturalKey, "source_app": item.source.app.rawValue, "source_file": item.source.file,
            "name": item.name, "manufacturer": item.manufacturer, "code": item.code, "extras": Self.json(item.extras),
        ], conflict: "natural_key", db: db)
    }

    mutating func writeRun(version: String, inputs: JSONValue, db: Database) throws {
        let inputsText = JSONWriter.string(inputs)
        let countsText = JSONWriter.string(.object(JSONObject(counts.sorted { $0.key < $1.key }.map { ($0.key, .integer($0.value)) })))
        try upsert("import_run", ["id": StableID.make("import-run", version, inputsText), "ferry_version": version,
                                   "inputs": inputsText, "counts": countsText], db: db)
    }
}
