import FerryCanonical
import FerryJSON
import Foundation
import GRDB

/// One write transaction that takes batches as a conversion fills them, so
/// that a million records never sit in memory at once. Links a batch makes to records not seen
/// yet are kept, parked in a temporary table, and settled before commit: emptied (and reported)
/// when their record never came, snapshots filled when it came late.
public final class StoreSession {
    let db: Database
    var writer = BatchWriter()
    let report: ReportBuilder?
    let keepGoing: Bool
    /// Links to records not seen yet, kept until the session settles them.
    private var parkedFile = ParkedLinkFile()
    /// Links parked, by table and field (snapshots aside).
    private var parkedLinks: [LinkKind: Int] = [:]
    struct LinkKind: Hashable {
        let table: String
        let field: String
    }
    private static let pendingLink = UpsertShape("temp.ferry_pending_link", ["tbl", "id", "field", "target", "target_table", "with_snapshot"],
                                                 conflict: nil)
    /// Lookups of records outside the batch, kept until the next write changes the store.
    private var snapshotCache: [String: LogSnapshot?] = [:]
    private var existsCache: [String: Bool] = [:]
    /// The recipes and projects this session wrote. In a store that was empty when the session
    /// began they are the only ones, so a link to anything else is answered without a query
    /// (a million logs naming recipes that never come would otherwise cost two queries each).
    private var writtenRecipes: Set<String> = []
    private var writtenProjects: Set<String> = []
    /// Whether a recipe or a project is in the store: held before the session, or written by it.
    /// Without one, every parked link dangles, and they are counted without a pass.
    private var holdsTargets: Bool
    /// Takes the logs' rows on a thread of its own (``takeLogsApart()``).
    private var logTaker: LogRowTaker?
    /// The store was empty, so the key of its logs is built after the rows: a duplicate log id
    /// fails the session then (``StoreError/Kind/duplicateKey(_:)``) without being claimed first.
    public internal(set) var refusesDuplicateLogs = false
    /// Into a store that was empty, the recipe key's SQL while it is still to be built: built
    /// once the session first needs a recipe by id (a log's snapshot of one, a recipe written
    /// twice), and kept up from then on, rather than at the end. A site's recipes never need it.
    var deferredRecipeKey: String?
    private(set) var recipeKeyBuilt = false

    /// - Parameter keepsDigests: whether records' digests are kept (not in a store read once).
    init(db: Database, report: ReportBuilder?, keepGoing: Bool, fresh: Bool, keepsDigests: Bool = true) throws {
        self.db = db
        self.report = report
        self.keepGoing = keepGoing
        writer.fresh = fresh
        writer.keepsDigests = keepsDigests
        holdsTargets = try !fresh && Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(RecipeTable.table)) OR EXISTS (SELECT 1 FROM \(ProjectTable.table))") == true
    }

    /// Writes a whole batch; it must already be linked.
    public func write(_ batch: CanonicalBatch) throws {
        _ = try writeReturningRejected(batch)
    }

    /// Writes a whole batch; returns the ids of the projects and logs rejected (`keepGoing`).
    private func writeReturningRejected(_ batch: CanonicalBatch) throws -> Set<String> {
        var rejected: Set<String> = []
        for (sha256, data) in batch.attachmentContents.sorted(by: { $0.key < $1.key }) {
            try writer.insertContent(sha256: sha256, data: data, db: db)
        }
        for item in batch.catalog {
            try writer.guarded(item.source, keepGoing: keepGoing, report: report, db: db) { try $0.write(item, db: db) }
        }
        for recipe in batch.recipes {
            let again = writer.fresh && writtenRecipes.contains(recipe.id)
            // Upserted again by its id, which the key decides.
            if again { try buildRecipeKey() }
            if try writer.guarded(recipe.source, keepGoing: keepGoing, report: report, db: db, { try $0.write(recipe, again: again, db: db) }) {
                holdsTargets = true
                if writer.fresh { writtenRecipes.insert(recipe.id) }
            }
        }
        for project in batch.projects {
            if try writer.guarded(project.source, keepGoing: keepGoing, report: report, db: db, { try $0.write(project, db: db) }) {
                holdsTargets = true
                if writer.fresh { writtenProjects.insert(project.id) }
            } else {
                rejected.insert(project.id)
            }
        }
        // Looked up ahead, unless a log of the batch has parts of its own: one could take over a
        // part a later log of the batch holds, whose digest would then be forgotten after it was
        // read (``RecordDigests/watchPartsChangingOwner(_:)``).
        let lookAhead = !writer.fresh && batch.logs.count > 1 && !batch.logs.contains { !$0.materials.isEmpty || !$0.attachments.isEmpty }
        let stored = lookAhead ? try RecordDigests.storedInKeyOrder(.log, ids: batch.logs.map(\.id), db: db) : nil
        for (index, log) in batch.logs.enumerated() {
            if try !writer.guarded(log.source, keepGoing: keepGoing, report: report, db: db, { try $0.write(log, stored: stored?[index], db: db) }) {
                rejected.insert(log.id)
            }
        }
        return rejected
    }

    /// Records written, to be freed on the thread that made them (see `BatchPipeline`): freeing a
    /// batch of recipes was a tenth of the store's thread.
    public struct Spent {
        /// The logs of a batch before, when their rows were taken on their own thread.
        public var logs: [Log]?
        public var recipes: [Recipe]
    }

    /// Links and writes a batch taken out of a conversion that goes on; parks its links to
    /// records not seen yet.
    /// - Returns: the records written, to be freed on the thread that made them.
    @discardableResult
    public func flush(_ batch: consuming CanonicalBatch, report: ReportBuilder) throws -> Spent {
        var spent: [Log]?
        // The batch is linked in place: a second reference to it would make the linker copy
        // every record first (copy on write).
        let pending = try SnapshotLinker().link(&batch, report: report, existing: self, provisional: true)
        if let logTaker {
            // Linking reads recipes and projects only, so it may run before the logs before are
            // played; they are played before this batch's other records, as on one thread.
            let logs = batch.logs
            batch.logs = []
            if case (var rows, let written)? = logTaker.exchange(consume logs) {
                try writer.play(&rows, db: db)
                logTaker.recycle(rows)
                spent = written
            }
        }
        let rejected = try writeReturningRejected(batch)
        // Only links of rows that are in the store are parked, so settling never looks a row up
        // to know whether it is there.
        try park(rejected.isEmpty ? pending : pending.filter { !rejected.contains($0.id) })
        snapshotCache.removeAll(keepingCapacity: true)
        existsCache.removeAll(keepingCapacity: true)
        return Spent(logs: spent, recipes: batch.recipes)
    }

    /// Links and writes the rest of a conversion, and empties its batch.
    public func finish(_ batch: inout CanonicalBatch, report: ReportBuilder) throws {
        // Once links are parked, the last batch's are parked too, rather than reported now: the
        // report then lists the links that dangle in the order of the input.
        let pending = try SnapshotLinker().link(&batch, report: report, existing: self, provisional: parkedFile.count > 0)
        if let logTaker {
            self.logTaker = nil
            let (last, counted) = logTaker.finish()
            if var last { try writer.play(&last, db: db) }
            writer.absorbCounts(of: counted)
        }
        let rejected = try writeReturningRejected(batch)
        batch = CanonicalBatch()
        try park(rejected.isEmpty ? pending : pending.filter { !rejected.contains($0.id) })
    }

    /// From now on, while this thread writes a batch, the logs' rows of the next are taken on a
    /// thread of their own (``LogRowTaker``). Only into a store that was empty and without
    /// `keepGoing`: no old rows to delete, no record rejected alone.
    package func takeLogsApart() {
        guard writer.fresh, !keepGoing, logTaker == nil else { return }
        logTaker = LogRowTaker(keepsDigests: writer.keepsDigests)
    }

    /// Ends the log-taking thread, if any, without waiting for it (the session ends).
    func stopTakingLogs() {
        logTaker?.stop()
        logTaker = nil
    }

    private func park(_ pending: [SnapshotLinker.PendingLink]) throws {
        // Read where they lie, and counted a run of one kind at a time: copying each link and
        // hashing its kind's two names for every one were half of parking a million.
        var run: (kind: LinkKind, count: Int)?
        try pending.withUnsafeBufferPointer { pending in
            var index = 0
            while index < pending.count {
                let link = pending.baseAddress! + index
                // A brew log's recipe link and its snapshot wait for the same recipe: one row says
                // both, which halves the rows parked for a log file whose recipes are elsewhere.
                let withSnapshot = link.pointee.field != "snapshot" && index + 1 < pending.count && {
                    let following = link + 1
                    return following.pointee.field == "snapshot" && following.pointee.table == link.pointee.table
                        && following.pointee.id == link.pointee.id && following.pointee.target == link.pointee.target
                        && following.pointee.targetTable == link.pointee.targetTable
                }()
                try parkedFile.append(ParkedLink(table: link.pointee.table, id: link.pointee.id, field: link.pointee.field,
                                                 target: link.pointee.target, targetTable: link.pointee.targetTable, withSnapshot: withSnapshot))
                if link.pointee.field != "snapshot" {
                    if let current = run, current.kind.table == link.pointee.table, current.kind.field == link.pointee.field {
                        run!.count += 1
                    } else {
                        if let current = run { parkedLinks[current.kind, default: 0] += current.count }
                        run = (LinkKind(table: link.pointee.table, field: link.pointee.field), 1)
                    }
                }
                index += withSnapshot ? 2 : 1
            }
        }
        if let current = run { parkedLinks[current.kind, default: 0] += current.count }
    }

    /// Settles parked links before commit: a snapshot whose source came later is filled from it;
    /// a link whose record came later is restored; a link whose record never came stays empty,
    /// its id kept in `extras.danglingReferences`, and is reported.
    func settlePending() throws {
        guard parkedFile.count > 0 else { return }
        // With no recipe and no project in the store (a log file converted alone, into a new
        // store or again), no parked link has a record to find: only the links the report lists
        // are read back, and two passes over a million parked links are spared.
        let noTargets = !holdsTargets
        try loadParkedLinks(onlyListed: noTargets)
        if !noTargets {
            try settleLateTargets()
        }
        // With no record to find, every parked link dangles: their count is known without a pass.
        try reportDanglingLinks(counted: noTargets ? parkedLinks : nil)
        try db.execute(sql: "DROP TABLE temp.ferry_pending_link")
        parkedFile = ParkedLinkFile()
    }

    /// Reads the parked links back into a temporary table, in the order they were parked: all of
    /// them, or, when every one dangles, the first the report lists of each kind.
    private func loadParkedLinks(onlyListed: Bool) throws {
        // `with_snapshot`: the row's snapshot waits for the same record as its link.
        try db.execute(sql: """
            CREATE TEMP TABLE IF NOT EXISTS ferry_pending_link (tbl TEXT, id TEXT, field TEXT, target TEXT, target_table TEXT,
                                                                with_snapshot INTEGER NOT NULL DEFAULT 0)
            """)
        try db.execute(sql: "DELETE FROM temp.ferry_pending_link")
        // Snapshots alone are parked (no link to list): with nothing to resolve, none is read.
        guard !onlyListed || !parkedLinks.isEmpty else { return }
        var (player, tape) = (RowPlayer(), RowTape())
        var listed: [LinkKind: Int] = [:]
        var kindsToList = parkedLinks.count
        try parkedFile.forEach { link in
            if onlyListed {
                guard link.field != "snapshot" else { return true }
                let kind = LinkKind(table: link.table, field: link.field)
                let count = listed[kind, default: 0]
                guard count < ReportBuilder.listLimit else { return true }
                listed[kind] = count + 1
                if count + 1 == ReportBuilder.listLimit { kindsToList -= 1 }
            }
            _ = tape.add(Self.pendingLink) { row in
                row.add(link.table)
                row.add(link.id)
                row.add(link.field)
                row.add(link.target)
                row.add(link.targetTable)
                row.add(link.withSnapshot)
            }
            if tape.rows.count >= 5_000 { try player.play(&tape, db: db) }
            return !onlyListed || kindsToList > 0
        }
        try player.play(&tape, db: db)
    }

    /// Fills the snapshots and restores the links whose record came after them.
    private func settleLateTargets() throws {
        let late = try Row.fetchCursor(db, sql: """
            SELECT p.id, p.target, p.target_table FROM temp.ferry_pending_link p
            WHERE (p.field = 'snapshot' OR p.with_snapshot) AND \(Self.targetExists)
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
            typealias Snapshot = LogSnapshotTable
            try db.execute(sql: """
                UPDATE \(Snapshot.table) SET \(Snapshot.title) = ?, \(Snapshot.method) = ?, \(Snapshot.kind) = ?, \(Snapshot.parameters) = ?,
                       \(Snapshot.isReconstructed) = 1, \(Snapshot.reconstructedFields) = ? WHERE \(Snapshot.logID) = ?
                """,
                           arguments: [snapshot.title, snapshot.method, snapshot.kind, BatchWriter.json(snapshot.parameters),
                                       JSONWriter.string(.array(snapshot.reconstructedFields.map { .string($0) })), log])
            try RecordDigests.forget(.log, id: log, db: db)
        }
        try restoreLateLinks()
    }
}

extension StoreSession: ExistingRecords {
    public func recipeExists(_ id: String) throws -> Bool { try exists("recipe", id) }
    public func projectExists(_ id: String) throws -> Bool { try exists("project", id) }

    private func exists(_ table: String, _ id: String) throws -> Bool {
        // A store with no recipe and no project: a million logs naming recipes that never come
        // ask a million times.
        guard holdsTargets else { return false }
        if writer.fresh { return (table == "recipe" ? writtenRecipes : writtenProjects).contains(id) }
        let key = table + id
        if let known = existsCache[key] { return known }
        let found = try ExistingQueries.exists(db, table, id)
        existsCache[key] = found
        return found
    }

    public func recipeSnapshot(_ id: String) throws -> LogSnapshot? {
        try snapshot("r", id, written: writtenRecipes) { db, id in
            try buildRecipeKey()
            return try ExistingQueries.recipeSnapshot(db, id)
        }
    }

    /// Builds the recipe key now, when it is still to be built (``deferredRecipeKey``).
    private func buildRecipeKey() throws {
        guard let sql = deferredRecipeKey else { return }
        deferredRecipeKey = nil
        try db.execute(sql: sql)
        recipeKeyBuilt = true
    }

    public func projectSnapshot(_ id: String) throws -> LogSnapshot? {
        try snapshot("p", id, written: writtenProjects, query: ExistingQueries.projectSnapshot)
    }

    private func snapshot(_ kind: String, _ id: String, written: Set<String>,
                          query: (Database, String) throws -> LogSnapshot?) throws -> LogSnapshot? {
        if !holdsTargets || writer.fresh && !written.contains(id) { return nil }
        if let cached = snapshotCache[kind + id] { return cached }
        let snapshot = try query(db, id)
        snapshotCache[kind + id] = snapshot
        return snapshot
    }
}
