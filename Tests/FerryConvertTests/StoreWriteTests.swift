import FerryCanonical
import FerryConvert
import FerryJSON
import FerryStore
import FerryTestSupport
import Foundation
import GRDB
import Testing

/// Rows are bound straight through SQLite's C API: every value must land in its column with
/// its type, and a row SQLite refuses must be named, not lost.
@Suite struct StoreWriteTests {
    let directory = TemporaryDirectory("ferry-store-write")

    func log(_ id: String, title: String?) -> Log {
        var log = Log(id: id, source: SourceRef(app: .brewguide, entity: "BrewLog", key: id, file: "logs.json"), kind: "brew",
                      createdAt: "2024-05-01T08:00:00Z", modifiedAt: "2024-05-01T08:00:00Z")
        log.title = title
        log.rating = 4.5
        log.durationSeconds = 210
        log.note = ""
        log.extras = JSONObject([("grinder", "Comandante"), ("clicks", 24)])
        return log
    }

    /// A new store in the test's folder with a report on it.
    func newStore(_ name: String) throws -> (store: CanonicalStore, report: ReportBuilder) {
        let path = directory.url.appendingPathComponent(name).path
        return (try CanonicalStore(path: path), ReportBuilder(store: path, dryRun: false))
    }

    @Test func valuesLandInTheirColumnsWithTheirTypes() throws {
        let store = try CanonicalStore(path: directory.url.appendingPathComponent("values.ferry").path)
        var batch = CanonicalBatch()
        batch.logs = [log("A1A1A1A1-1111-4222-8333-444444444444", title: "Morning V60 — Ethiopia ☕️")]
        let counts = try store.write(batch)
        #expect(counts["log"] == 1)
        let row = try store.read { try Row.fetchOne($0, sql: "SELECT title, typeof(rating), rating, duration_seconds, note, typeof(note), extras, recipe_id FROM log")! }
        try store.close()
        #expect(row[0] as String == "Morning V60 — Ethiopia ☕️")
        #expect(row[1] as String == "real" && row[2] as Double == 4.5 && row[3] as Double == 210)
        #expect(row[4] as String == "" && row[5] as String == "text", "an empty string is text, not NULL")
        #expect(row[6] as String == #"{"clicks":24,"grinder":"Comandante"}"#, "extras are written with sorted keys")
        #expect(row[7] as String? == nil)
    }

    @Test func aRowSQLiteRefusesIsRejectedAloneWithKeepGoingAndStopsTheWriteWithout() throws {
        var batch = CanonicalBatch()
        batch.logs = [log("B1B1B1B1-1111-4222-8333-444444444444", title: "kept"), log("not-a-uuid", title: "refused")]

        let (store, report) = try newStore("keep-going.ferry")
        let counts = try store.write(batch, report: report, keepGoing: true)
        #expect(counts["log"] == 1)
        let rejected = report.finish().rejected
        #expect(rejected.count == 1)
        #expect(rejected.first?.key == "not-a-uuid")
        #expect(rejected.first?.message.contains("CHECK constraint failed") == true, "\(rejected)")
        #expect(try store.read { try String.fetchAll($0, sql: "SELECT title FROM log") } == ["kept"])
        try store.close()

        let strictPath = directory.url.appendingPathComponent("strict.ferry").path
        let strict = try CanonicalStore(path: strictPath)
        #expect {
            try strict.write(batch)
        } throws: { error in
            "\(error)".contains("CHECK constraint failed") && "\(error)".contains("not-a-uuid")
        }
        #expect(try strict.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM log") } == 0, "all or nothing")
        try strict.close()
    }

    /// Links of two kinds parked in turn (logs naming a recipe among logs naming a project) are
    /// counted per kind: the report lists the first thousand, taking each kind's in turn, and
    /// counts the rest. Fewer recipe links than the list holds shows a kind counted as the other.
    @Test func danglingLinksOfKindsInTurnAreCountedPerKind() throws {
        let (store, report) = try newStore("kinds-in-turn.ferry")
        let context = ConversionContext(report: report, keepGoing: false)
        let logs: [Log] = (1...2_600).map { number in
            var made = log(String(format: "%08X-1111-4222-8333-444444444444", number), title: "log")
            if number % 9 == 0 { made.recipeID = String(format: "%08X-2222-4222-8333-444444444444", number) }
            if number % 2 == 1 { made.projectID = String(format: "%08X-3333-4222-8333-444444444444", number) }
            return made
        }
        let recipes = logs.filter { $0.recipeID != nil }.count, projects = logs.filter { $0.projectID != nil }.count
        _ = try store.session(report: report) { session in
            for batch in stride(from: 0, to: logs.count, by: 700) {
                context.batch.logs = Array(logs[batch..<min(batch + 700, logs.count)])
                try session.flush(context)
            }
            try session.finish(context)
        }
        let result = report.finish()
        #expect(recipes < ReportBuilder.listLimit && projects > ReportBuilder.listLimit)
        #expect(result.danglingReferences.filter { $0.field == "recipe_id" }.count == recipes)
        #expect(result.danglingReferences.filter { $0.field == "project_id" }.count == ReportBuilder.listLimit - recipes)
        #expect(result.omitted["danglingReferences"] == recipes + projects - ReportBuilder.listLimit, "\(result.omitted)")
        try store.close()
    }

    /// A log the store refuses leaves no parked link behind: past the listed ones, the dangling
    /// links counted are those of stored logs only.
    @Test func aRefusedLogLeavesNoDanglingLinkToCount() throws {
        let (store, report) = try newStore("refused-link.ferry")
        let context = ConversionContext(report: report, keepGoing: true)
        var logs: [Log] = (1...ReportBuilder.listLimit + 1).map { number in
            var kept = log(String(format: "%08X-1111-4222-8333-444444444444", number), title: "kept")
            kept.recipeID = String(format: "%08X-2222-4222-8333-444444444444", number)
            return kept
        }
        var refused = log("not-a-uuid", title: "refused")
        refused.recipeID = "D3D3D3D3-1111-4222-8333-444444444444"
        logs.insert(refused, at: 3)
        _ = try store.session(report: report, keepGoing: true) { session in
            context.batch.logs = logs
            try session.flush(context)
            try session.finish(context)
        }
        let result = report.finish()
        #expect(result.rejected.map(\.key) == ["not-a-uuid"])
        #expect(result.danglingReferences.count == ReportBuilder.listLimit)
        #expect(!result.danglingReferences.contains { $0.value.hasPrefix("D3D3D3D3") })
        #expect(result.omitted["danglingReferences"] == 1, "\(result.omitted)")
        try store.close()
    }
}
