import FerryCanonical
import FerryStore
import FerryTestSupport
import Foundation
import GRDB
import Testing

/// The record digests' edges, written through the store's own API: what must make a record be
/// written again although the rows it would get are the ones its digest was taken of.
@Suite struct RecordDigestTests {
    let directory = TemporaryDirectory("ferry-record-digests")

    static let recipeA = "A0A0A0A0-1111-4222-8333-444444444444"
    static let recipeB = "B0B0B0B0-1111-4222-8333-444444444444"
    static let sharedStep = "C0C0C0C0-1111-4222-8333-444444444444"

    func recipe(_ id: String, steps: [String]) -> Recipe {
        var recipe = Recipe(id: id, source: SourceRef(app: .brewguide, entity: "Recipe", key: id, file: "recipes.json"), kind: "brew",
                            createdAt: "2024-05-01T08:00:00Z", modifiedAt: "2024-05-01T08:00:00Z")
        recipe.title = "Recipe \(id.prefix(2))"
        recipe.steps = steps.enumerated().map { position, step in
            var made = RecipeStep(id: step, position: position)
            made.instruction = "Pour"
            return made
        }
        return recipe
    }

    func write(_ recipes: [Recipe], into store: CanonicalStore) throws -> RecordChanges? {
        var batch = CanonicalBatch()
        batch.recipes = recipes
        let report = ReportBuilder(store: store.path, dryRun: false)
        try store.write(batch, report: report)
        return report.finish().changes["recipe"]
    }

    func owner(of step: String, in store: CanonicalStore) throws -> String? {
        try store.read { try String.fetchOne($0, sql: "SELECT recipe_id FROM recipe_step WHERE id = ?", arguments: [step]) }
    }

    /// Step ids come from the input: a recipe can take over another's step. The one that lost it
    /// no longer has the rows its digest was taken of, and must be written again when its input
    /// still has the step.
    @Test func aRecordWhosePartAnotherTookIsWrittenAgain() throws {
        let store = try CanonicalStore(path: directory.url.appendingPathComponent("steps.ferry").path)
        defer { try? store.close() }
        #expect(try write([recipe(Self.recipeA, steps: [Self.sharedStep]), recipe(Self.recipeB, steps: [Self.sharedStep])], into: store)
                == RecordChanges(new: 2))
        #expect(try owner(of: Self.sharedStep, in: store) == Self.recipeB)

        // B lets the step go; A, unchanged in its input, must get it back.
        let changes = try write([recipe(Self.recipeA, steps: [Self.sharedStep]), recipe(Self.recipeB, steps: [])], into: store)
        #expect(try owner(of: Self.sharedStep, in: store) == Self.recipeA, "the recipe that lost its step was skipped as unchanged")
        #expect(changes == RecordChanges(changed: 2))
        #expect(try write([recipe(Self.recipeA, steps: [Self.sharedStep]), recipe(Self.recipeB, steps: [])], into: store)
                == RecordChanges(unchanged: 2))
    }

    /// Two logs of one batch with the same attachment id: the later one holds it, as after a
    /// conversion into a new store, however often the same logs are written again.
    @Test func aPartTwoLogsOfABatchShareEndsWithTheLaterOne() throws {
        let store = try CanonicalStore(path: directory.url.appendingPathComponent("shared-attachment.ferry").path)
        defer { try? store.close() }
        let photo = "D0D0D0D0-1111-4222-8333-444444444444"
        let logs = ["E1E1E1E1-1111-4222-8333-444444444444", "E2E2E2E2-1111-4222-8333-444444444444"].map { id in
            var log = Log(id: id, source: SourceRef(app: .brewguide, entity: "BrewLog", key: id, file: "logs.json"), kind: "brew",
                          createdAt: "2024-05-01T08:00:00Z", modifiedAt: "2024-05-01T08:00:00Z")
            var attachment = Attachment(id: photo, position: 0)
            attachment.name = "cup.jpg"
            log.attachments = [attachment]
            return log
        }
        for _ in 0..<3 {
            var batch = CanonicalBatch()
            batch.logs = logs
            try store.write(batch)
            #expect(try store.read { try String.fetchOne($0, sql: "SELECT log_id FROM attachment WHERE id = ?", arguments: [photo]) } == logs[1].id)
        }
    }

    /// A store read once (`convert --as core-data`'s temporary one) keeps no digest, and writes
    /// and counts the same rows as any new store: recipes (one written twice), and logs taken on
    /// a thread of their own as a conversion takes them.
    @Test func aStoreReadOnceKeepsNoDigestAndTheSameRows() throws {
        var batch = CanonicalBatch()
        batch.recipes = [recipe(Self.recipeA, steps: [Self.sharedStep]), recipe(Self.recipeB, steps: []), recipe(Self.recipeA, steps: [])]
        batch.logs = (1...5).map { number in
            let id = "E\(number)E\(number)E\(number)E\(number)-1111-4222-8333-444444444444"
            var log = Log(id: id, source: SourceRef(app: .brewguide, entity: "BrewLog", key: id, file: "logs.json"), kind: "brew",
                          createdAt: "2024-05-01T08:00:00Z", modifiedAt: "2024-05-01T08:00:00Z")
            log.rating = Double(number)
            return log
        }
        let rows = "SELECT 'log', id, rating FROM log UNION ALL SELECT 'recipe', id, title FROM recipe UNION ALL SELECT 'step', id, recipe_id FROM recipe_step ORDER BY 1, 2"
        var results: [(changes: [String: RecordChanges], digests: Int, rows: [Row])] = []
        for readOnce in [false, true] {
            let path = directory.url.appendingPathComponent("once-\(readOnce).ferry").path
            let store = try CanonicalStore(path: path, bulk: true, readOnce: readOnce)
            defer { try? store.close() }
            let report = ReportBuilder(store: path, dryRun: false)
            try store.session(report: report) { session in
                session.takeLogsApart()
                try session.write(batch)
            }
            let digests = try store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM ferry_record_digest") ?? -1 }
            results.append((report.finish().changes, digests, try store.read { try Row.fetchAll($0, sql: rows) }))
        }
        #expect(results[0].digests == 7, "a new store keeps a digest a record (the recipe written twice, once)")
        #expect(results[1].digests == 0)
        #expect(results[1].changes == results[0].changes)
        #expect(results[1].changes["recipe"] == RecordChanges(new: 2, changed: 1) && results[1].changes["log"] == RecordChanges(new: 5))
        // Five logs and two recipes: A's later version, without its step, is the one kept.
        #expect(results[1].rows == results[0].rows && results[0].rows.count == 7, "\(results[0].rows)")
    }

    /// WAL commits leave the header's change counter alone: a store in WAL mode never trusts a
    /// digest, whichever session wrote it.
    @Test func aStoreInWALModeTrustsNoDigest() throws {
        let path = directory.url.appendingPathComponent("wal.ferry").path
        let store = try CanonicalStore(path: path)
        defer { try? store.close() }
        #expect(try write([recipe(Self.recipeA, steps: [])], into: store) == RecordChanges(new: 1))
        #expect(try write([recipe(Self.recipeA, steps: [])], into: store) == RecordChanges(unchanged: 1))
        try store.read { db in _ = try Int.fetchOne(db, sql: "SELECT 1") }
        let wal = try DatabaseQueue(path: path)
        try wal.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = WAL") }
        try wal.close()
        let reopened = try CanonicalStore(path: path)
        defer { try? reopened.close() }
        for _ in 0..<2 {
            #expect(try write([recipe(Self.recipeA, steps: [])], into: reopened) == RecordChanges(changed: 1))
        }
        #expect(try reopened.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM ferry_record_digest_stamp") } == 0)
    }

    /// A rejected record's rows, taken before it failed, are not played with the next record's.
    @Test func aRecordRejectedIntoAStoreThatHoldsRecordsLeavesNoRow() throws {
        let store = try CanonicalStore(path: directory.url.appendingPathComponent("keep-going.ferry").path)
        defer { try? store.close() }
        _ = try write([recipe(Self.recipeA, steps: [])], into: store)
        var batch = CanonicalBatch()
        batch.recipes = [recipe(Self.recipeA, steps: []), recipe("not-a-uuid", steps: []), recipe(Self.recipeB, steps: [])]
        let report = ReportBuilder(store: store.path, dryRun: false)
        try store.write(batch, report: report, keepGoing: true)
        let made = report.finish()
        #expect(made.rejected.map(\.key) == ["not-a-uuid"])
        #expect(made.changes["recipe"] == RecordChanges(new: 1, unchanged: 1))
        #expect(try store.read { try String.fetchAll($0, sql: "SELECT id FROM recipe ORDER BY id") } == [Self.recipeA, Self.recipeB])
    }
}
