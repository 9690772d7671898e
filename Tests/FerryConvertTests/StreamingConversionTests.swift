import FerryCanonical
import FerryConvert
import FerryCoreData
import FerryJSON
import FerryStore
import FerryTestSupport
import FerryArchive
import Foundation
import GRDB
import Testing

/// Large inputs are written batch by batch: the store must be exactly what converting the
/// whole batch at once gives, links to records that come later must hold, and links to records
/// that never come must be emptied and reported, as without batches.
@Suite struct StreamingConversionTests {
    let directory = TemporaryDirectory("ferry-streaming")

    func convert(_ inputs: [String], _ name: String, batchSize: Int) throws -> (store: String, report: ConversionReport) {
        let store = directory.url.appendingPathComponent(name).path
        let report = try ConversionJob(inputs: inputs, store: store, options: ConversionOptions(batchSize: batchSize, openArchive: ArchiveReader.opener)).run()
        return (store, report)
    }

    @Test(arguments: [1, 2, 7])
    func batchesOfAnySizeGiveTheSameStore(batchSize: Int) throws {
        let whole = try convert([TestPaths.samples.path], "whole.ferry", batchSize: 1_000_000)
        let batched = try convert([TestPaths.samples.path], "batched.ferry", batchSize: batchSize)
        // The digests differ where links were settled late, which forgets them (ConvertAgainTests).
        let expected = try TableContents(path: whole.store).withoutFerrysOwnTables, found = try TableContents(path: batched.store).withoutFerrysOwnTables
        #expect(expected == found, "\(expected.differences(from: found))")
        #expect(batched.report.counts == whole.report.counts)
        #expect(batched.report.danglingReferences.count == whole.report.danglingReferences.count)
        #expect(batched.report.reconstructedSnapshots.count == whole.report.reconstructedSnapshots.count)
    }

    /// Logs read (and written) before the recipe they name still link to it and get their
    /// snapshot filled from it; a log naming a recipe that never comes is emptied and reported.
    @Test func linksToRecordsThatComeLaterHold() throws {
        let recipe = "C0C0C0C0-1111-4222-8333-444444444444"
        let missing = "DEADBEEF-1111-4222-8333-444444444444"
        let logs = try directory.write("""
            {"summary":{"id":"C1C1C1C1-1111-4222-8333-444444444444","method":"v60","rating":4,"recipeId":"\(recipe)","recipeNameAtBrew":"Later","timestamp":782639100}}
            {"summary":{"id":"C2C2C2C2-1111-4222-8333-444444444444","method":"v60","rating":3,"recipeId":"\(missing)","recipeNameAtBrew":"Gone","timestamp":782639200}}
            {"summary":{"id":"C3C3C3C3-1111-4222-8333-444444444444","method":"v60","rating":5,"recipeId":"\(recipe)","recipeNameAtBrew":"Later","timestamp":782639300},"doseGrams":17}
            """, to: "in/a-logs.ndjson")
        let recipes = try directory.write("""
            [{"recipe":{"id":"\(recipe)","name":"Later","method":"v60","defaultDose":15,"defaultTargetYield":250,"defaultWaterTemperature":94,"defaultGrindLabel":"medium"}}]
            """, to: "in/b-recipes.json")
        let whole = try convert([logs, recipes], "whole.ferry", batchSize: 1_000)
        let batched = try convert([logs, recipes], "batched.ferry", batchSize: 1)
        let wholeContents = try TableContents(path: whole.store).withoutFerrysOwnTables
        let batchedContents = try TableContents(path: batched.store).withoutFerrysOwnTables
        #expect(wholeContents == batchedContents, "\(wholeContents.differences(from: batchedContents))")

        let queue = try DatabaseQueue(path: batched.store)
        let rows = try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT l.id, l.recipe_id, l.extras, s.parameters, s.is_reconstructed FROM log l JOIN log_snapshot s ON s.log_id = l.id ORDER BY l.id")
        }
        try queue.close()
        #expect(rows.count == 3)
        #expect(rows[0]["recipe_id"] as String? == recipe)
        #expect((rows[0]["parameters"] as String).contains("\"dose\":{\"unit\":\"g\",\"value\":15}"), "\(rows[0])")
        #expect(rows[0]["is_reconstructed"] as Int64 == 1)
        #expect(rows[1]["recipe_id"] as String? == nil)
        #expect((rows[1]["extras"] as String).contains(missing))
        #expect((rows[2]["parameters"] as String).contains("\"dose\":{\"unit\":\"g\",\"value\":17}"), "the log's own dose wins")
        #expect(batched.report.danglingReferences.map(\.value) == [missing])
        #expect(batched.report.reconstructedSnapshots.count == whole.report.reconstructedSnapshots.count)
    }

    /// Reports list the first thousand of a kind and count the rest.
    @Test func aLargeArrayIsReadInBatchesAndItsReportStaysSmall() throws {
        var text = "["
        for number in 0..<2_500 {
            if number > 0 { text += "," }
            text += #"{"summary":{"id":"\#(String(format: "%08X-0000-4000-8000-000000000000", number))","method":"v60","rating":3,"#
                + #""recipeId":"\#(String(format: "%08X-1111-4111-8111-111111111111", number % 7))","recipeNameAtBrew":"R","timestamp":782639100},"doseGrams":15}"#
        }
        let input = try directory.write(text + "]", to: "in/logs.json")
        let result = try convert([input], "large.ferry", batchSize: 400)
        #expect(result.report.counts["log"] == 2_500 && result.report.counts["log_snapshot"] == 2_500)
        #expect(result.report.inputs.map(\.records) == [2_500], "records of every batch are counted, not only the last")
        #expect(result.report.danglingReferences.count == ReportBuilder.listLimit)
        #expect(result.report.omitted["danglingReferences"] == 1_500)
        #expect(result.report.danglingReferences.map(\.record) == (0..<1_000).map { String(format: "BrewLog %08X-0000-4000-8000-000000000000", $0) },
                "the first thousand, in the input's order")
        let queue = try DatabaseQueue(path: result.store)
        #expect(try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM log WHERE recipe_id IS NULL AND extras LIKE '%danglingReferences%'") } == 2_500)
        try queue.close()
    }
}

extension StreamingConversionTests {
    /// Logs naming seven recipes, of which three come after all of them: every link to those
    /// three is restored and its snapshot filled, however many were parked before, and the rest
    /// are emptied, listed in order and counted.
    @Test func thousandsOfParkedLinksSettleWhenSomeRecordsComeLast() throws {
        var logs = ""
        for number in 0..<2_500 {
            logs += #"{"summary":{"id":"\#(String(format: "%08X-0000-4000-8000-000000000000", number))","method":"v60","rating":3,"#
                + #""recipeId":"\#(String(format: "%08X-1111-4111-8111-111111111111", number % 7))","recipeNameAtBrew":"R","timestamp":782639100}}"# + "\n"
        }
        let recipes = (0..<3).map { #"{"recipe":{"id":"\#(String(format: "%08X-1111-4111-8111-111111111111", $0))","name":"Recipe \#($0)","method":"v60","defaultDose":\#(15 + $0)}}"# }
        let inputs = [try directory.write(logs, to: "late/a-logs.ndjson"), try directory.write("[" + recipes.joined(separator: ",") + "]", to: "late/b-recipes.json")]
        let result = try convert(inputs, "late.ferry", batchSize: 300)
        let linked = (0..<2_500).filter { $0 % 7 < 3 }.count
        let queue = try DatabaseQueue(path: result.store)
        defer { try? queue.close() }
        try queue.read { (db: Database) throws in
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM log WHERE recipe_id IS NOT NULL AND extras NOT LIKE '%danglingReferences%'") == linked)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM log WHERE recipe_id IS NULL AND extras LIKE '%danglingReferences%'") == 2_500 - linked)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM log_snapshot WHERE is_reconstructed = 1 AND parameters LIKE '%\"dose\"%'") == linked)
            #expect(try Int.fetchOne(db, sql: """
                SELECT count(*) FROM log l JOIN log_snapshot s ON s.log_id = l.id
                WHERE l.recipe_id = '00000002-1111-4111-8111-111111111111' AND s.parameters LIKE '%"value":17%'
                """) == (0..<2_500).filter { $0 % 7 == 2 }.count)
        }
        let listed = (0..<2_500).filter { $0 % 7 >= 3 }.prefix(ReportBuilder.listLimit)
        #expect(result.report.danglingReferences.map(\.record) == listed.map { String(format: "BrewLog %08X-0000-4000-8000-000000000000", $0) })
        #expect(result.report.omitted["danglingReferences"] == 2_500 - linked - ReportBuilder.listLimit)
    }
}

/// The progress a streamed input reports: records and bytes that only grow, ending at the whole file.
@Suite struct ConversionProgressTests {
    final class Updates: @unchecked Sendable {
        let lock = NSLock()
        var all: [ConversionProgress] = []
        func add(_ update: ConversionProgress) { lock.withLock { all.append(update) } }
    }

    @Test func progressGrowsToTheWholeFile() throws {
        let directory = TemporaryDirectory("ferry-progress")
        var text = ""
        for number in 0..<10_000 {
            text += #"{"summary":{"id":"\#(String(format: "%08X-0000-4000-8000-000000000000", number))","method":"v60","rating":3,"recipeNameAtBrew":"R","timestamp":782639100}}"# + "\n"
        }
        let input = try directory.write(text, to: "logs.ndjson")
        let updates = Updates()
        var options = ConversionOptions(batchSize: 3_000, openArchive: ArchiveReader.opener)
        options.progress = { @Sendable update in updates.add(update) }
        _ = try ConversionJob(inputs: [input], store: directory.url.appendingPathComponent("p.ferry").path, options: options).run()
        let records = updates.all.map(\.records)
        #expect(records.first == 0)
        #expect(records.contains(4_096) && records.contains(8_192))
        #expect(records.last == 10_000)
        #expect(records == records.sorted())
        #expect(updates.all.last?.bytesRead == text.utf8.count && updates.all.last?.totalBytes == text.utf8.count)
    }
}

/// Past a number of ids held in memory, claimed ids move to a temporary file of their own:
/// duplicates are told the same, with where the first was seen, and memory stays flat.
@Suite struct ClaimLedgerTests {
    let directory = TemporaryDirectory("ferry-claims")

    func logs(duplicating pairs: [Int: Int], count: Int = 30) throws -> String {
        var lines: [String] = []
        for number in 1...count {
            let id = String(format: "%08X-0000-4000-8000-000000000000", pairs[number] ?? number)
            lines.append(#"{"summary":{"id":"\#(id)","method":"v60","rating":3,"recipeNameAtBrew":"R","timestamp":782639100}}"#)
        }
        return try directory.write(lines.joined(separator: "\n"), to: "logs-\(pairs.keys.sorted()).ndjson")
    }

    func failure(_ input: String, held: Int) -> String {
        var options = ConversionOptions(batchSize: 7, openArchive: ArchiveReader.opener)
        options.claimsInMemory = held
        do {
            _ = try ConversionJob(inputs: [input], store: directory.url.appendingPathComponent("s-\(held).ferry").path, options: options).run()
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: [[25: 2], [28: 26], [30: 29]])
    func duplicatesAreToldTheSameWhereverTheFirstIsKept(pairs: [Int: Int]) throws {
        let input = try logs(duplicating: pairs)
        let inMemory = failure(input, held: 1 << 18)
        #expect(inMemory.contains("duplicate id") && inMemory.contains("first seen at record \(pairs.values.first!)"), "\(inMemory)")
        #expect(failure(input, held: 4) == inMemory)
        #expect(failure(input, held: 1) == inMemory)
    }

    /// Into a new store log ids are not claimed while reading (the store's key refuses the
    /// duplicate after the rows); the error must be the one a claim gives into a store that
    /// has records, where every id is claimed as it is read.
    @Test(arguments: [[25: 2], [28: 26], [30: 29]])
    func aDuplicateLogIntoANewStoreIsToldAsIntoAStoreWithRecords(pairs: [Int: Int]) throws {
        let input = try logs(duplicating: pairs)
        let fresh = directory.url.appendingPathComponent("fresh-\(pairs.keys.sorted()).ferry").path
        let intoNew = error(converting: [input], into: fresh, held: 4)
        #expect(!FileManager.default.fileExists(atPath: fresh), "no store appears")
        let existing = directory.url.appendingPathComponent("existing-\(pairs.keys.sorted()).ferry").path
        let recipe = try directory.write(#"{"recipe":{"id":"0A0A0A0A-0000-4000-8000-000000000000","name":"V60","defaultDose":15,"method":"v60"}}"#,
                                         to: "recipe.ndjson")
        _ = try ConversionJob(inputs: [recipe], store: existing, options: ConversionOptions(openArchive: ArchiveReader.opener)).run()
        let intoExisting = error(converting: [input], into: existing, held: 4)
        #expect(intoNew.contains("record \(pairs.keys.first!): id ") && intoNew.contains("first seen at record \(pairs.values.first!)"), "\(intoNew)")
        #expect(intoNew == intoExisting)
    }

    /// A record that fails after a duplicate log id: the duplicate is told, as a claim would have
    /// stopped the conversion there first; a record that fails before it is told instead.
    @Test func theFirstFailureInTheInputIsToldWhenADuplicateLogWasNotClaimed() throws {
        var lines = try String(contentsOfFile: logs(duplicating: [5: 2], count: 9), encoding: .utf8).split(separator: "\n").map(String.init)
        lines[7] = lines[7].replacingOccurrences(of: #""rating":3"#, with: #""rating":"three""#)
        let badAfter = try directory.write(lines.joined(separator: "\n"), to: "bad-after.ndjson")
        let store = directory.url.appendingPathComponent("order.ferry").path
        #expect(error(converting: [badAfter], into: store, held: 1 << 17).hasSuffix("duplicate id 00000002-0000-4000-8000-000000000000 (first seen at record 2)"))
        lines[2] = lines[2].replacingOccurrences(of: #""rating":3"#, with: #""rating":"three""#)
        let badBefore = try directory.write(lines.joined(separator: "\n"), to: "bad-before.ndjson")
        #expect(error(converting: [badBefore], into: store, held: 1 << 17) == #"\#(badBefore): record 3: id 00000003-0000-4000-8000-000000000000: field "summary.rating": expected an integer, found string "three""#)
    }

    @Test func logIDsCheckedByTheStoreAreNotClaimedAndOtherIDsStillAre() throws {
        let context = ConversionContext(report: ReportBuilder(store: "s.ferry", dryRun: false), keepGoing: false)
        context.logIDsCheckedByStore = true
        let id = "0B0B0B0B-0000-4000-8000-000000000000"
        try context.claim(id, table: "log", at: RecordLocation(file: "a.ndjson", record: 1))
        try context.claim(id, table: "log", at: RecordLocation(file: "a.ndjson", record: 2))
        try context.claim(id, table: "recipe", at: RecordLocation(file: "a.ndjson", record: 3))
        let error = try #require(throws: ConversionError.self) {
            try context.claim(id, table: "recipe", at: RecordLocation(file: "a.ndjson", record: 4))
        }
        #expect(error.kind == .duplicateID(id, firstRecord: 3))
    }

    func error(converting inputs: [String], into store: String, held: Int) -> String {
        var options = ConversionOptions(batchSize: 7, openArchive: ArchiveReader.opener)
        options.claimsInMemory = held
        do {
            _ = try ConversionJob(inputs: inputs, store: store, options: options).run()
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test func keepGoingRejectsOnlyTheDuplicateAndTheStoreHasTheRest() throws {
        let input = try logs(duplicating: [25: 2, 27: 11])
        var options = ConversionOptions(keepGoing: true, batchSize: 7, openArchive: ArchiveReader.opener)
        options.claimsInMemory = 3
        let store = directory.url.appendingPathComponent("keep-going.ferry").path
        let report = try ConversionJob(inputs: [input], store: store, options: options).run()
        #expect(report.rejected.map(\.record) == [25, 27])
        #expect(report.counts["log"] == 28)
        let queue = try DatabaseQueue(path: store)
        #expect(try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM log") } == 28)
        try queue.close()
    }
}
