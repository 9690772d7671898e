import FerryCanonical
import FerryJSON
import Foundation
import GRDB

/// One write transaction that takes batches as a conversion fills them (``BatchSink``), so
/// that a million records never sit in memory at once. Links a batch makes to records not seen
/// yet are kept, parked in a temporary table, and settled before commit: emptied (and reported)
/// when their record never came, snapshots filled when it came late.
public final class StoreSession: BatchSink {
    let db: Database
    var writer = BatchWriter()
    let report: ReportBuilder?
    let keepGoing: Bool
    private var parked = false
    private var parking = UpsertStatements()
    private var claiming = false
    private var claimStatements = UpsertStatements()
    private static let pendingLink = UpsertShape("temp.ferry_pending_link", ["tbl", "id", "field", "target", "target_table"], conflict: nil)
    /// Lookups of records outside the batch, kept until the next write changes the store.
    private var snapshotCache: [String: LogSnapshot?] = [:]
    private var existsCache: [String: Bool] = [:]
    /// The recipes and projects this session wrote. In a store that was empty when the session
    /// began they are the only ones, so a link to anything else is answered without a query
    /// (a million logs naming recipes that never come would otherwise cost two queries each).
    private var writtenRecipes: Set<String> = []
    private var writtenProjects: Set<String> = []

    init(db: Database, report: ReportBuilder?, keepGoing: Bool, fresh: Bool) {
        self.db = db
        self.report = report
        self.keepGoing = keepGoing
        writer.fresh = fresh
    }

    /// Writes a whole batch; it must already be linked.
    public func write(_ batch: CanonicalBatch) throws {
        for (sha256, data) in batch.attachmentContents.sorted(by: { $0.key < $1.key }) {
            try writer.insertContent(sha256: sha256, data: data, db: db)
        }
        for item in batch.catalog {
            try writer.guarded(item.source, keepGoing: keepGoing, report: report, db: db) { try $0.write(item, db: db) }
        }
        for recipe in batch.recipes {
            if try writer.guarded(recipe.source, keepGoing: keepGoing, report: report, db: db, { try $0.write(recipe, db: db) }), writer.fresh {
                writtenRecipes.insert(recipe.id)
            }
        }
        for project in batch.projects {
            if try writer.guarded(project.source, keepGoing: keepGoing, report: report, db: db, { try $0.write(project, db: db) }), writer.fresh {
                writtenProjects.insert(project.id)
            }
        }
        for log in batch.logs {
            try writer.guarded(log.source, keepGoing: keepGoing, report: report, db: db) { try $0.write(log, db: db) }
        }
    }

    /// Links and writes what the conversion holds so far, parks links to records not seen yet,
    /// and empties the batch.
    public func flush(_ context: ConversionContext) throws {
        let pending = SnapshotLinker().link(context, existing: self, provisional: true)
        try write(context.batch)
        try park(pending)
        context.batch = CanonicalBatch()
        snapshotCache.removeAll(keepingCapacity: true)
        existsCache.removeAll(keepingCapacity: true)
    }

    /// Links and writes the rest of a conversion.
    public func finish(_ context: ConversionContext) throws {
        SnapshotLinker().link(context, existing: self)
        try write(context.batch)
        context.batch = CanonicalBatch()
    }

    private func park(_ pending: [SnapshotLinker.PendingLink]) throws {
        guard !pending.isEmpty else { return }
        if !parked {
            try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS ferry_pending_link (tbl TEXT, id TEXT, field TEXT, target TEXT, target_table TEXT)")
            try db.execute(sql: "DELETE FROM temp.ferry_pending_link")
            parked = true
        }
        for link in pending {
            _ = try parking.run(Self.pendingLink, db: db) { row in
                row.add("tbl", link.table)
                row.add("id", link.id)
                row.add("field", link.field)
                row.add("target", link.target)
                row.add("target_table", link.targetTable)
            }
        }
    }

    /// Settles parked links before commit: a snapshot whose source came later is filled from it;
    /// a link whose record came later is restored; a link whose record never came stays empty,
    /// its id kept in `extras.danglingReferences`, and is reported.
    func settlePending() throws {
        guard parked else { return }
        let late = try Row.fetchCursor(db, sql: """
            SELECT p.id, p.target, p.target_table FROM temp.ferry_pending_link p
            WHERE p.field = 'snapshot' AND ((p.target_table = 'recipe' AND EXISTS (SELECT 1 FROM recipe WHERE id = p.target))
               OR (p.target_table = 'project' AND EXISTS (SELECT 1 FROM project WHERE id = p.target)))
            """)
        var filled: [(String, LogSnapshot)] = []
        while let row = try late.next() {
            let log: String = row[0], target: String = row[1], table: String = row[2]
            guard var snapshot = try ExistingQueries.logSnapshot(db, log: log),
                  let current = table == "recipe" ? try ExistingQueries.recipeSnapshot(db, target) : try ExistingQueries.projectSnapshot(db, target)
            else { continue }
            let before = snapshot
            SnapshotLinker.reconstruct(&snapshot, log: log, from: current, report: report ?? ReportBuilder(store: "", dryRun: false))
            if snapshot != before { filled.append((log, snapshot)) }
        }
        for (log, snapshot) in filled {
            try db.execute(sql: "UPDATE log_snapshot SET title = ?, method = ?, kind = ?, parameters = ?, is_reconstructed = 1, reconstructed_fields = ? WHERE log_id = ?",
                           arguments: [snapshot.title, snapshot.method, snapshot.kind, BatchWriter.json(snapshot.parameters),
                                       JSONWriter.string(.array(snapshot.reconstructedFields.map { .string($0) })), log])
        }
        try restoreLateLinks()
        try reportDanglingLinks()
        parking = UpsertStatements()
        try db.execute(sql: "DROP TABLE temp.ferry_pending_link")
        parked = false
    }
}

extension StoreSession {
    private static let linkFields = [("log", "recipe_id", "recipe"), ("log", "project_id", "project"),
                                     ("project", "recipe_id", "recipe"), ("project", "parent_id", "project")]

    /// Links written empty because their record had not come yet, whose record came: set, and
    /// their ids taken out of `extras.danglingReferences` again. Chunk by chunk, in bounded memory.
    private func restoreLateLinks() throws {
        var after: Int64 = 0
        while true {
            let rows = try Row.fetchAll(db, sql: """
                SELECT p.rowid, p.tbl, p.id, p.field, p.target FROM temp.ferry_pending_link p
                WHERE p.rowid > ? AND p.field != 'snapshot'
                  AND ((p.target_table = 'recipe' AND EXISTS (SELECT 1 FROM recipe WHERE id = p.target))
                    OR (p.target_table = 'project' AND EXISTS (SELECT 1 FROM project WHERE id = p.target)))
                ORDER BY p.rowid LIMIT 10000
                """, arguments: [after])
            guard let last = rows.last else { return }
            after = last[0]
            for row in rows {
                let table: String = row[1], id: String = row[2], field: String = row[3], target: String = row[4]
                guard Self.linkFields.contains(where: { $0.0 == table && $0.1 == field }),
                      let text = try String.fetchOne(db, sql: "SELECT extras FROM \(table) WHERE id = ?", arguments: [id])
                else { continue }
                var extras = (try? JSONReader().read(Array(text.utf8)).object) ?? JSONObject()
                SnapshotLinker.forgetDangling(&extras, field)
                try db.execute(sql: "UPDATE \(table) SET \(field) = ?, extras = ? WHERE id = ?",
                               arguments: [target, BatchWriter.json(extras), id])
            }
        }
    }

    /// Reports the links whose record never came: the first of them listed, the rest counted.
    private func reportDanglingLinks() throws {
        guard let report else { return }
        for (table, field, target) in Self.linkFields {
            let dangling = """
                FROM temp.ferry_pending_link p JOIN \(table) t ON t.id = p.id
                WHERE p.tbl = '\(table)' AND p.field = '\(field)' AND NOT EXISTS (SELECT 1 FROM \(target) WHERE id = p.target)
                """
            var listed = 0
            let rows = try Row.fetchCursor(db, sql: "SELECT t.source_file, t.source_entity, t.source_key, p.target \(dangling) ORDER BY p.rowid LIMIT \(ReportBuilder.listLimit)")
            while let row = try rows.next() {
                report.dangling(file: row[0], record: "\(row[1] as String) \(row[2] as String? ?? "")", field: field, value: row[3],
                                action: SnapshotLinker.danglingAction)
                listed += 1
            }
            guard listed == ReportBuilder.listLimit else { continue }
            let total = try Int.fetchOne(db, sql: "SELECT count(*) \(dangling)") ?? 0
            report.omitted("danglingReferences", total - listed)
        }
    }
}

/// Claimed ids past what the conversion holds in memory, in a temporary table of this
/// transaction: it goes with the transaction, whatever its end.
extension StoreSession: ClaimLedger {
    private static let claim = UpsertShape("temp.ferry_claim", ["tbl", "high", "low", "file", "record"], conflict: nil)

    public func keep(_ claims: [ClaimedID]) throws {
        if !claiming {
            try db.execute(sql: """
                CREATE TEMP TABLE IF NOT EXISTS ferry_claim (tbl TEXT NOT NULL, high INTEGER NOT NULL, low INTEGER NOT NULL,
                  file INTEGER NOT NULL, record INTEGER NOT NULL, PRIMARY KEY (tbl, high, low)) WITHOUT ROWID;
                DELETE FROM temp.ferry_claim;
                """)
            claiming = true
        }
        // In key order the b-tree is appended to rather than split at random places.
        for claim in claims.sorted(by: { ($0.table, $0.high, $0.low) < ($1.table, $1.high, $1.low) }) {
            _ = try claimStatements.run(Self.claim, db: db) { row in
                row.add("tbl", claim.table)
                row.add("high", Int64(bitPattern: claim.high))
                row.add("low", Int64(bitPattern: claim.low))
                row.add("file", Int64(claim.file))
                row.add("record", Int64(claim.record))
            }
        }
    }

    public func firstClaim(table: String, high: UInt64, low: UInt64) throws -> (file: UInt32, record: UInt32)? {
        guard claiming else { return nil }
        let statement = try db.cachedStatement(sql: "SELECT file, record FROM temp.ferry_claim WHERE tbl = ? AND high = ? AND low = ?")
        guard let row = try Row.fetchOne(statement, arguments: [table, Int64(bitPattern: high), Int64(bitPattern: low)]) else { return nil }
        return (UInt32(truncatingIfNeeded: row[0] as Int64), UInt32(truncatingIfNeeded: row[1] as Int64))
    }

    /// Drops the ledger at the end of the session.
    func finishClaims() throws {
        guard claiming else { return }
        claimStatements = UpsertStatements()
        try db.execute(sql: "DROP TABLE temp.ferry_claim")
        claiming = false
    }
}

extension StoreSession: ExistingRecords {
    public func recipeExists(_ id: String) -> Bool { exists("recipe", id) }
    public func projectExists(_ id: String) -> Bool { exists("project", id) }

    private func exists(_ table: String, _ id: String) -> Bool {
        if writer.fresh { return (table == "recipe" ? writtenRecipes : writtenProjects).contains(id) }
        let key = table + id
        if let known = existsCache[key] { return known }
        let found = (try? ExistingQueries.exists(db, table, id)) ?? false
        existsCache[key] = found
        return found
    }

    public func recipeSnapshot(_ id: String) -> LogSnapshot? {
        if writer.fresh, !writtenRecipes.contains(id) { return nil }
        if let cached = snapshotCache["r" + id] { return cached }
        let snapshot = (try? ExistingQueries.recipeSnapshot(db, id)) ?? nil
        snapshotCache["r" + id] = snapshot
        return snapshot
    }

    public func projectSnapshot(_ id: String) -> LogSnapshot? {
        if writer.fresh, !writtenProjects.contains(id) { return nil }
        if let cached = snapshotCache["p" + id] { return cached }
        let snapshot = (try? ExistingQueries.projectSnapshot(db, id)) ?? nil
        snapshotCache["p" + id] = snapshot
        return snapshot
    }
}
