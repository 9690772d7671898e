import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

/// `ferry convert` as a user runs it: the README's command on the samples, the report file,
/// exit statuses and one-line errors.
@Suite struct ConvertCommandTests {
    let directory = TemporaryDirectory("ferry-cli-convert")

    @Test func samplesConvertWithASummaryAndAValidReport() throws {
        let store = directory.url.appendingPathComponent("demo.ferry").path
        let reportPath = directory.url.appendingPathComponent("report.json").path
        let result = try ferry("convert", "Samples", "--to", store, "--report", reportPath)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("ferry: Samples/molten/Boro Fish.molten: molten .molten export, 1 record\n"))
        #expect(result.stderr.contains("ferry: skipped Samples/roots/tasks_cache_backup_1758000000.json: a conflict or backup copy of tasks.json; name it to convert it\n"))
        #expect(result.stderr.contains("ferry: wrote 8 recipe, 25 project, 14 log, 5 catalog_item to \(store)"))
        let report = try Data(contentsOf: URL(fileURLWithPath: reportPath))
        if JSONSchemaCheck.isAvailable {
            #expect(try JSONSchemaCheck.errors(in: report, schema: "conversion-report.schema.json").isEmpty)
        }
        let object = try JSONSerialization.jsonObject(with: report) as? [String: Any]
        #expect(object?["format"] as? String == "ferry.conversion/1")
        #expect((object?["counts"] as? [String: Int])?["log_snapshot"] == 13)
        // Again: the same store, and now a backup of it.
        let again = try ferry("convert", "Samples", "--to", store)
        #expect(again.status == 0)
        #expect(again.stderr.contains("ferry: backed up the store to \(store).backups/demo-"))
    }

    @Test func badInputExitsWithOneSpecificLine() throws {
        let truncated = try directory.write(#"[{"id":"11111111-2222-4333-8444-555555555555","title":"A"},{"id""#, to: "roots/tasks.json")
        let store = directory.url.appendingPathComponent("out.ferry").path
        let result = try ferry("convert", truncated, "--to", store)
        #expect(result.status == 65)
        #expect(result.stderr == "ferry: error: \(truncated): field \"[1]\": malformed JSON: line 1, column 65: the JSON ends too early (truncated?)\n")
        #expect(!FileManager.default.fileExists(atPath: store))
        let missing = try ferry("convert", "Samples/nothing.json", "--to", store)
        #expect(missing.status == 66 && missing.stderr == "ferry: error: Samples/nothing.json: cannot be read: no such file or directory\n")
        let nowhere = try ferry("convert", "Samples/roots", "--to", directory.url.appendingPathComponent("no/such/folder/x.ferry").path)
        #expect(nowhere.status == 73 && nowhere.stderr.contains("cannot create the store: the folder"))
    }

    @Test func keepGoingKeepsTheGoodRecordsAndExitsWithOne() throws {
        let lines = [
            #"{"summary":{"id":"B9B9B9B9-1111-4222-8333-444444444444","rating":4,"recipeNameAtBrew":"V60","timestamp":782611200}}"#,
            #"{"summary":{"id":"B8B8B8B8-1111-4222-8333-444444444444","rating":"five","recipeNameAtBrew":"V60","timestamp":782611200}}"#,
        ]
        let input = try directory.write(lines.joined(separator: "\n"), to: "brews.ndjson")
        let store = directory.url.appendingPathComponent("out.ferry").path
        let strict = try ferry("convert", input, "--to", store)
        #expect(strict.status == 65 && !FileManager.default.fileExists(atPath: store))
        let lenient = try ferry("convert", input, "--to", store, "--keep-going")
        #expect(lenient.status == 1)
        #expect(lenient.stderr.contains(#"ferry: rejected: \#(input): record 2: id B8B8B8B8-1111-4222-8333-444444444444: field "summary.rating": expected an integer, found string "five""#))
        #expect(lenient.stderr.contains("ferry: wrote 0 recipe, 0 project, 1 log, 0 catalog_item"))
    }

    @Test func helpDescribesConvert() throws {
        let result = try ferry("help", "convert")
        #expect(result.status == 0)
        for option in ["--to <store>", "--from <from>", "--model <model>", "--report <file>", "--dry-run", "--keep-going", "--epoch <epoch>"] {
            #expect(result.stdout.contains(option), "\(option)")
        }
        let words = result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("(values: auto, photoapp, brewguide, molten, forager, roots, paprika, tandoor, beanconqueror, mealie, cooklang, nextcloud, schema-org; default: auto)"))
    }

    @Test(.needsCorpus) func asCoreDataWritesAStoreOfTheModelAndReportsWhatItLeftOut() throws {
        let store = directory.url.appendingPathComponent("Roots.sqlite").path
        _ = try directory.write(try String(contentsOf: TestPaths.corpus.appendingPathComponent(
            "seedapps/roots/SharedCore__Persistence__Roots.xcdatamodeld__Roots.xcdatamodel__contents"), encoding: .utf8),
            to: "Roots.xcdatamodeld/Roots.xcdatamodel/contents")
        let bundle = directory.url.appendingPathComponent("Roots.xcdatamodeld").path
        let reportPath = directory.url.appendingPathComponent("report.json").path
        let result = try ferry("convert", "Samples/roots", "--to", store, "--as", "core-data", "--model", bundle, "--report", reportPath)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("ferry: wrote them as a Core Data store of \(bundle): 14 objects (4 Assignment, 3 Attachment, 3 Course, 2 Semester, 2 TimerSession)\n"))
        #expect(result.stderr.contains("ferry: not in the model: project kind study-plan (1×): Roots' model has no entity for these records\n"))
        let report = try Data(contentsOf: URL(fileURLWithPath: reportPath))
        if JSONSchemaCheck.isAvailable {
            #expect(try JSONSchemaCheck.errors(in: report, schema: "conversion-report.schema.json").isEmpty)
        }
        let dumped = try ferry("dump", store, "--model", bundle, "--entity", "Semester")
        #expect(dumped.status == 0)
        // Core Data would open it as it is, with the model and through the cache Ferry wrote into it.
        for arguments in [["check", store, "--model", bundle], ["check", store]] {
            let checked = try CommandRunner.ferry(arguments, in: TestPaths.packageRoot)
            #expect(checked.status == 0 && checked.stdout.hasSuffix("no findings: Core Data opens and reads this store as it is\n"), "\(checked.stdout)")
        }
        #expect(dumped.stdout.split(separator: "\n").count == 2)
        // The canonical model needs no --model; --input-model belongs to --as core-data only.
        let canonical = try ferry("convert", "Samples/roots", "--to", directory.url.appendingPathComponent("Ferry.sqlite").path, "--as", "core-data")
        #expect(canonical.status == 0 && canonical.stderr.contains("as a Core Data store of Ferry.xcdatamodeld: "))
        let misplaced = try ferry("convert", "Samples/roots", "--to", store, "--input-model", bundle)
        #expect(misplaced.status == 64)
        let unmapped = try ferry("convert", "Samples/roots", "--to", directory.url.appendingPathComponent("F.sqlite").path, "--as", "core-data",
                                 "--model", "Formats/legacy/Forager.xcdatamodel")
        #expect(unmapped.status == 65 && unmapped.stderr.hasPrefix("ferry: error: Formats/legacy/Forager.xcdatamodel: Ferry writes converted data into the models of Roots (Semester"))
    }

    /// A version of Roots' model without `Assignment.dueDate`: every due date is reported as
    /// having no place, none lost in silence (another read of the same column does not hide it).
    @Test func anAttributeTheModelLacksIsReportedNotLost() throws {
        let source = TestPaths.packageRoot.appendingPathComponent("Formats/legacy/Roots.xcdatamodeld/Roots.xcdatamodel/contents")
        let text = try String(contentsOf: source, encoding: .utf8).components(separatedBy: "\n")
            .filter { !$0.contains("\"dueDate\"") }.joined(separator: "\n")
        let model = directory.url.appendingPathComponent("NoDue.xcdatamodeld/NoDue.xcdatamodel")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        try text.write(to: model.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        let report = directory.url.appendingPathComponent("nodue-report.json").path
        let result = try ferry("convert", "Samples/roots", "--as", "core-data", "--model", model.deletingLastPathComponent().path,
                               "--to", directory.url.appendingPathComponent("nodue.sqlite").path, "--report", report)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
        let notMapped = ((json?["coreData"] as? [String: Any])?["notMapped"] as? [[String: Any]]) ?? []
        let due = notMapped.filter { ($0["from"] as? String)?.hasPrefix("project.") == true && (($0["from"] as? String)?.contains("due") ?? false) }
        let dueCount = due.reduce(0) { $0 + (($1["count"] as? Int) ?? 0) }
        // As many as the assignments that have a due date in the canonical store.
        let canonical = directory.url.appendingPathComponent("roots-due.ferry").path
        #expect(try ferry("convert", "Samples/roots", "--to", canonical).status == 0)
        let expected = try StoreFixtures.strings(canonical, "SELECT count(*) FROM project WHERE kind = 'assignment' AND due_at IS NOT NULL")
        #expect(expected != ["0"] && ["\(dueCount)"] == expected, "\(due)")
    }
}
