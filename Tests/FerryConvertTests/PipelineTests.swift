import FerryCanonical
@testable import FerryConvert
import FerryJSON
@testable import FerryStore
import FerryTestSupport
import FerryArchive
import Foundation
import GRDB
import Testing

/// A streamed conversion reads on one thread while the store's thread links and writes: the
/// store and the report must be exactly what one thread gives, and the first failure of either
/// side must end both, with nothing written.
@Suite struct PipelineTests {
    let directory = TemporaryDirectory("ferry-pipeline")
    static let recipe = "E0E0E0E0-1111-4222-8333-444444444444"

    /// `count` brew logs: every third names the recipe that comes in a later file, the other fifths
    /// a recipe that never comes (267 in 2,000); `broken` gets a rating out of range.
    func logs(_ count: Int, broken: Int? = nil) throws -> String {
        var lines: [String] = []
        for number in 1...count {
            let id = String(format: "%08X-2222-4333-8444-555555555555", number)
            let target = number % 3 == 0 ? Self.recipe : number % 5 == 0 ? String(format: "%08X-9999-4999-8999-999999999999", number) : nil
            let link = target.map { #","recipeId":"\#($0)""# } ?? ""
            let rating = number == broken ? 9 : number % 5 + 1
            lines.append(#"{"summary":{"id":"\#(id)","method":"v60","rating":\#(rating),"recipeNameAtBrew":"R\#(number)","timestamp":\#(782639100 + number)\#(link)},"doseGrams":\#(12 + number % 7)}"#)
        }
        return try directory.write(lines.joined(separator: "\n"), to: "in-\(count)-\(broken ?? 0)/a-logs.ndjson")
    }

    func recipes() throws -> String {
        try directory.write("""
            [{"recipe":{"id":"\(Self.recipe)","name":"Later","method":"v60","defaultDose":15,"defaultTargetYield":250,"defaultWaterTemperature":94,"defaultGrindLabel":"medium"}}]
            """, to: "recipes/b-recipes.json")
    }

    @Test func oneThreadOrTwoGiveTheSameStoreAndReport() throws {
        let inputs = [try logs(2_000), try recipes()]
        // keepGoing converts on one thread; without it, reading and writing overlap.
        let one = directory.url.appendingPathComponent("one.ferry").path
        let two = directory.url.appendingPathComponent("two.ferry").path
        let oneReport = try ConversionJob(inputs: inputs, store: one, options: ConversionOptions(keepGoing: true, batchSize: 50, openArchive: ArchiveReader.opener)).run()
        let twoReport = try ConversionJob(inputs: inputs, store: two, options: ConversionOptions(batchSize: 50, openArchive: ArchiveReader.opener)).run()
        let expected = try TableContents(path: one), found = try TableContents(path: two)
        #expect(expected == found, "\(expected.differences(from: found))")
        #expect(twoReport.counts["log"] == 2_000)
        #expect(twoReport.danglingReferences == oneReport.danglingReferences && twoReport.danglingReferences.count == 267)
        #expect(twoReport.reconstructedSnapshots.map(\.log) == oneReport.reconstructedSnapshots.map(\.log))
        #expect(twoReport.inputs.map(\.records) == [2_000, 1])
        // The logs' rows are taken on a third thread and played a batch later: still in input order.
        let order = "SELECT id FROM log ORDER BY rowid"
        #expect(try DatabaseQueue(path: one).read { try String.fetchAll($0, sql: order) }
                == DatabaseQueue(path: two).read { try String.fetchAll($0, sql: order) })
    }

    @Test func aBadRecordManyBatchesInFailsTheWholeConversion() throws {
        let input = try logs(2_000, broken: 1_501)
        let store = directory.url.appendingPathComponent("broken.ferry").path
        #expect {
            try ConversionJob(inputs: [input], store: store, options: ConversionOptions(batchSize: 50, openArchive: ArchiveReader.opener)).run()
        } throws: { error in
            "\(error)".contains("record 1501") && "\(error)".contains("rating 9 is not between 1 and 5")
        }
        #expect(!FileManager.default.fileExists(atPath: store))
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.contains("broken") }
        #expect(left.isEmpty, "\(left)")
    }

    /// A batch the store refuses ends the reading thread at its next hand-over; the store's error
    /// is the one thrown, and nothing is written.
    @Test func aWriteFailureStopsTheReadingThread() throws {
        let path = directory.url.appendingPathComponent("refused.ferry").path
        let store = try CanonicalStore(path: path)
        let handedOver = Counter()
        @Sendable func log(_ id: String) -> Log {
            Log(id: id, source: SourceRef(app: .brewguide, entity: "BrewLog", key: id, file: "logs.ndjson"), kind: "brew",
                createdAt: "2024-05-01T08:00:00Z", modifiedAt: "2024-05-01T08:00:00Z")
        }
        #expect {
            try store.session { session in
                let context = try BatchPipeline.run(into: session) { sink in
                    let context = ConversionContext(report: ReportBuilder(store: path, dryRun: false), keepGoing: false)
                    for number in 1...200 {
                        context.batch.logs = [log(number == 2 ? "not-a-uuid" : String(format: "%08X-1111-4222-8333-444444444444", number))]
                        try sink.flush(context)
                        handedOver.add()
                    }
                    return context
                }
                try session.finish(context)
            }
        } throws: { error in
            // The log's rows were played after the next batch was linked; the error still names it.
            "\(error)".contains("CHECK constraint failed: log.id") && "\(error)".contains("writing BrewLog not-a-uuid")
        }
        #expect(handedOver.value < 200, "the reading thread went on after the store failed")
        #expect(try store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM log") } == 0)
        try store.close()
    }
}

extension PipelineTests {
    /// A log's rows are played while the next batch is read and linked, yet every row is written in
    /// the order one thread writes it: a bad log fails before a bad recipe of the batch after it.
    @Test func theFirstFailureIsTheOneOfTheEarliestRecord() throws {
        let path = directory.url.appendingPathComponent("order.ferry").path
        let store = try CanonicalStore(path: path)
        @Sendable func source(_ entity: String, _ key: String) -> SourceRef {
            SourceRef(app: .brewguide, entity: entity, key: key, file: "in.json")
        }
        #expect {
            try store.session { session in
                let context = try BatchPipeline.run(into: session) { sink in
                    let context = ConversionContext(report: ReportBuilder(store: path, dryRun: false), keepGoing: false)
                    context.batch.logs = [Log(id: "bad-log", source: source("BrewLog", "bad-log"), kind: "brew",
                                              createdAt: "2024-05-01T08:00:00Z", modifiedAt: "2024-05-01T08:00:00Z")]
                    try sink.flush(context)
                    context.batch.recipes = [Recipe(id: "bad-recipe", source: source("Recipe", "bad-recipe"), kind: "coffee",
                                                    createdAt: "2024-05-01T08:00:00Z", modifiedAt: "2024-05-01T08:00:00Z")]
                    try sink.flush(context)
                    return context
                }
                try session.finish(context)
            }
        } throws: { error in
            "\(error)".contains("writing BrewLog bad-log") && !"\(error)".contains("bad-recipe")
        }
        try store.close()
    }
}

/// A count shared by two threads.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func add() { lock.withLock { count += 1 } }
}
