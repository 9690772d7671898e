import FerryCanonical
import FerryJSON
import FerryCoreData
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
                // Into an empty store, the keys of logs, snapshots, recipes and their steps, lines
                // and tags (schema v2 and v4) and every index the schema declares are built once
                // at the end (a sort) rather than row by row: the same indexes, from the same SQL
                // text. A material line updates seven indexes, and row by row in random UUID order
                // they were most of converting a site's recipes. (The recipe key is built earlier
                // if the session looks a recipe up by id: ``StoreSession/deferredRecipeKey``.)
                // Without those keys, SQLite cannot check the foreign keys that name them, so they
                // are off for this transaction (SQLite allows the switch only outside one) and
                // every foreign key is checked before it commits.
                let deferred = fresh ? try Row.fetchAll(db, sql: """
                    SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY rowid
                    """) : []
                // A part's key may fail on rows sharing it and be built again after they are folded
                // (``build(_:db:phase:report:)``): SQLite undoes the failed statement only with a
                // journal. (It stays in memory after the session: the store then holds records.)
                if fresh, try String.fetchOne(db, sql: "PRAGMA journal_mode")?.lowercased() == "off" {
                    try db.execute(sql: "PRAGMA journal_mode = MEMORY")
                }
                defer { if !deferred.isEmpty { try? db.execute(sql: "PRAGMA foreign_keys = ON") } }
                if !deferred.isEmpty { try db.execute(sql: "PRAGMA foreign_keys = OFF") }
                try db.inTransaction {
                    // Read before anything is written: the file's header is still the last commit's.
                    let counter = try RecordDigests.begin(db)
                    // A store without records keeps no digest either (its logs' digests go in by plain inserts).
                    if fresh { try RecordDigests.forgetAll(db) }
                    // Created in the transaction: a rollback takes them away, a commit after they are dropped.
                    try RecordDigests.watchPartsChangingOwner(db)
                    try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
                    // Every row this session writes is bound by `RowBinder`, which holds each value to
                    // its column's CHECK in Swift (``ColumnRules``); SQLite evaluating them again took
                    // half of a conversion's SQL time. Only this session's statements skip them.
                    try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
                    defer { try? db.execute(sql: "PRAGMA ignore_check_constraints = OFF") }
                    let session = try StoreSession(db: db, report: report, keepGoing: keepGoing, fresh: fresh, keepsDigests: !readOnce)
                    session.refusesDuplicateLogs = deferred.contains { isUnique($0) }
                    session.deferredRecipeKey = deferred.first { $0["name"] == Self.recipeKey }?["sql"]
                    defer { session.stopTakingLogs() }
                    defer { activity = phase ?? session.writer.activity }
                    for index in deferred { try db.execute(sql: "DROP INDEX \(index["name"] as String)") }
                    try body(session)
                    // An index is built by a sort that may use as much memory as the page cache, on
                    // top of it: the bulk load's large cache is given back first. The keys come
                    // before settling links, which looks records up by id; the other indexes after,
                    // so that links settled late do not update them row by row.
                    let keys = deferred.filter { isUnique($0) && !(session.recipeKeyBuilt && $0["name"] == Self.recipeKey) }
                    let others = !readOnce ? deferred.filter { !isUnique($0) } : []
                    if !deferred.isEmpty { try db.execute(sql: "PRAGMA cache_size = -8192; PRAGMA threads = \(Self.sortThreads)") }
                    defer { if !deferred.isEmpty { try? db.execute(sql: "PRAGMA threads = 0") } }
                    try build(keys, db: db, phase: &phase, report: report)
                    try session.settlePending()
                    try build(others, db: db, phase: &phase, report: report)
                    if let run {
                        try session.writer.writeRun(version: run.version, inputs: run.inputs, db: db)
                    }
                    // A store read once has its foreign keys checked by its reader, beside the copy
                    // it makes (``CanonicalStore/structuralCheck(_:foreignKeys:)``), on the idle core.
                    if !deferred.isEmpty, !readOnce, let dangling = try ForeignKeyCheck.dangling(db) {
                        phase = "checking foreign keys"
                        throw StoreError(.integrity([dangling]), path: path, activity: phase)
                    }
                    try RecordDigests.stopWatching(db)
                    try RecordDigests.stamp(db, counter: counter)
                    counts = session.writer.counts
                    report?.changes(session.writer.changesByTable)
                    return .commit
                }
            }
        } catch let error as DatabaseError {
            throw StoreError(error, path: path, activity: activity)
        }
        return counts
    }

    /// Helper threads SQLite's sorter may use to build the indexes: once reading has ended the
    /// other cores are idle.
    static let sortThreads = max(0, min(ProcessInfo.processInfo.activeProcessorCount, 8) - 1)

    private func isUnique(_ index: Row) -> Bool {
        (index["sql"] as String).hasPrefix("CREATE UNIQUE INDEX")
    }

    /// The recipe key's index, built during a new store's session when it is needed there
    /// (``StoreSession/deferredRecipeKey``).
    static let recipeKey = "\(RecipeTable.table)_\(RecipeTable.id.name)"

    /// A key built after the rows fails on a duplicate (conversions into a new store do not claim
    /// log ids, see ``StoreSession/refusesDuplicateLogs``): the error then names the index, not the
    /// last record written. A recipe's parts are the exception: a step's or line's id may come
    /// from the source, where two records can share one. Rows sharing a key are folded into one
    /// first, as upserts would have left them (``foldRowsSharing(_:in:db:)``), and the report
    /// says so.
    private func build(_ indexes: [Row], db: Database, phase: inout String?, report: ReportBuilder?) throws {
        for index in indexes {
            phase = "building the index \(index["name"] as String)"
            do {
                try db.execute(sql: index["sql"] as String)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                let table: String = index["tbl_name"]
                guard let key = Self.foldedParts[table] else {
                    throw StoreError(.duplicateKey(error.message ?? "\(error.resultCode)"), path: path, activity: phase)
                }
                let folded = try foldRowsSharing(key, in: table, db: db)
                report?.warning("\(table): \(folded) row\(folded == 1 ? "" : "s") had the key of an earlier row; each key was kept once, "
                                + "in the first row's place with the last row's values, as converting into a store that holds them does")
                try db.execute(sql: index["sql"] as String)
            }
        }
        phase = nil
    }

    /// A recipe's parts, keyed by a UNIQUE index built after a new store's rows: their keys' columns.
    static let foldedParts: [String: [String]] = [
        RecipeStepTable.table: [RecipeStepTable.id.name], MaterialLineTable.table: [MaterialLineTable.id.name],
        NameTables.recipeTag.table: NameTables.recipeTag.key.map(\.name),
    ]

    /// Leaves the rows of `table` that share `key` as upserts by that key leave them: one row, in
    /// the first one's place, with the last one's values.
    /// - Returns: how many rows were folded into an earlier one.
    private func foldRowsSharing(_ key: [String], in table: String, db: Database) throws -> Int {
        let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table]).filter { !key.contains($0) }
        let (keyList, valueList) = (key.map(\.quotedDatabaseIdentifier).joined(separator: ", "), columns.map(\.quotedDatabaseIdentifier).joined(separator: ", "))
        let sameKey = key.map { "later.\($0.quotedDatabaseIdentifier) = \(table).\($0.quotedDatabaseIdentifier)" }.joined(separator: " AND ")
        try db.execute(sql: "CREATE INDEX ferry_fold ON \(table)(\(keyList))")
        try db.execute(sql: """
            UPDATE \(table) SET (\(valueList)) = (SELECT \(valueList) FROM \(table) later WHERE \(sameKey) ORDER BY later.rowid DESC LIMIT 1)
            WHERE rowid IN (SELECT min(rowid) FROM \(table) GROUP BY \(keyList) HAVING count(*) > 1)
            """)
        try db.execute(sql: "DELETE FROM \(table) WHERE rowid NOT IN (SELECT min(rowid) FROM \(table) GROUP BY \(keyList))")
        let folded = db.changesCount
        try db.execute(sql: "DROP INDEX ferry_fold")
        return folded
    }
}
