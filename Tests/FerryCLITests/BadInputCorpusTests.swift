import FerryTestSupport
import Foundation
import Testing

/// The bad-input corpus (`Tests/BadInputs/`, plus inputs too large to keep in git, made here):
/// each input gives one specific error naming the file and, where there is one, the record and
/// field, and a non-zero exit; nothing is written. With `--keep-going` the good records arrive.
@Suite struct BadInputCorpusTests {
    let directory = TemporaryDirectory("ferry-bad-inputs")

    struct Case: CustomTestStringConvertible, Sendable {
        var file: String
        var message: String
        var testDescription: String { file }
    }

    static let corpus = "Tests/BadInputs"
    static let cases: [Case] = [
        Case(file: "empty.ndjson", message: "record 1: malformed JSON: line 1, column 1: no JSON value (the input is empty)"),
        Case(file: "utf16-bom.json", message: "record 1: malformed JSON: line 1, column 1: UTF-16 text; JSON files must be UTF-8"),
        Case(file: "truncated.json", message: "field \"[1]\": malformed JSON: line 1, column 168: the JSON ends too early (truncated?)"),
        Case(file: "invalid-utf8.json", message: "field \"[1].summary.method\": malformed JSON: line 1, column 67: text is not valid UTF-8"),
        Case(file: "wrong-types.ndjson",
             message: "record 2: id C0C0C0C0-1111-4222-8333-444444444444: field \"doseGrams\": expected a number, found string \"fifteen\""),
        Case(file: "out-of-range.ndjson",
             message: "record 2: id C1C1C1C1-1111-4222-8333-444444444444: field \"summary.timestamp\": expected a date, found number 1e400"),
        Case(file: "duplicate-ids.ndjson",
             message: "record 3: id B9B9B9B9-1111-4222-8333-444444444444: field \"id\": duplicate id B9B9B9B9-1111-4222-8333-444444444444 (first seen at record 1)"),
    ]

    var store: String { directory.url.appendingPathComponent("out.ferry").path }

    func convert(_ input: String, _ options: String...) throws -> CommandResult {
        try CommandRunner.ferry(["convert", input, "--from", "brewguide", "--to", store] + options, in: TestPaths.packageRoot)
    }

    func logIDs() throws -> [String] {
        try StoreFixtures.strings(store, "SELECT id FROM log ORDER BY id")
    }

    @Test(arguments: cases)
    func eachBadInputGivesItsErrorAndWritesNothing(bad: Case) throws {
        let input = "\(Self.corpus)/\(bad.file)"
        let before = try Data(contentsOf: TestPaths.packageRoot.appendingPathComponent(input))
        let result = try convert(input)
        #expect(result.status == 65)
        #expect(result.stderr == "ferry: error: \(input): \(bad.message)\n")
        #expect(!FileManager.default.fileExists(atPath: store))
        #expect(StoreFixtures.listing(directory.path).isEmpty)
        #expect(try Data(contentsOf: TestPaths.packageRoot.appendingPathComponent(input)) == before)
    }

    @Test(arguments: cases.filter { $0.file != "empty.ndjson" && $0.file != "utf16-bom.json" })
    func withKeepGoingTheGoodRecordsArrive(bad: Case) throws {
        let result = try convert("\(Self.corpus)/\(bad.file)", "--keep-going")
        #expect(result.status == 1)
        #expect(result.stderr.contains("ferry: rejected: \(Self.corpus)/\(bad.file): \(bad.message)\n"))
        let good = bad.file == "wrong-types.ndjson" || bad.file == "out-of-range.ndjson" || bad.file == "duplicate-ids.ndjson"
            ? ["B9B9B9B9-1111-4222-8333-444444444444", "BAB0BAB0-1111-4222-8333-444444444444"]
            : ["B9B9B9B9-1111-4222-8333-444444444444"]
        #expect(try logIDs() == good)
        #expect(try StoreFixtures.integrityProblems(store).isEmpty)
    }

    @Test func aByteOrderMarkIsAccepted() throws {
        let result = try convert("\(Self.corpus)/bom.json")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try logIDs() == ["B9B9B9B9-1111-4222-8333-444444444444"])
    }

    /// A link to a record that never came is not lost: the log arrives, its link is emptied and
    /// the id kept in extras, and the warning names the file, record and field.
    @Test func aDanglingReferenceIsNamedAndItsIdKept() throws {
        let result = try convert("\(Self.corpus)/dangling-reference.ndjson")
        #expect(result.status == 0)
        #expect(result.stderr.contains("""
            ferry: warning: dangling-reference.ndjson: BrewLog B9B9B9B9-1111-4222-8333-444444444444: \
            recipe_id B0B0B0B0-1111-4222-8333-444444444444 names no record; link left empty
            """))
        #expect(try StoreFixtures.strings(store, "SELECT coalesce(recipe_id, '') || '|' || json_extract(extras, '$.danglingReferences.recipe_id') FROM log")
                == ["|B0B0B0B0-1111-4222-8333-444444444444"])
    }

    @Test func nesting100000DeepIsRefusedWithAShortMessage() throws {
        let input = try directory.write(String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000), to: "deep.json")
        let result = try convert(input)
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("ferry: error: \(input): field \"[0][0]"))
        #expect(result.stderr.hasSuffix("malformed JSON: line 1, column 513: nested deeper than 512 levels\n"))
        #expect(result.stderr.count < 400)
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    /// A 10 MB note is data and arrives whole; a 10 MB id is refused, quoted only in part.
    @Test func tenMegabyteStrings() throws {
        let record = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("\(Self.corpus)/dangling-reference.ndjson"), encoding: .utf8)
        let note = String(repeating: "n", count: 10_000_000)
        let big = try directory.write(record.replacingOccurrences(of: "\"doseGrams\"", with: "\"note\":\"\(note)\",\"doseGrams\""), to: "note.ndjson")
        let accepted = try convert(big)
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(try StoreFixtures.strings(store, "SELECT length(note) FROM log") == ["10000000"])

        try FileManager.default.removeItem(atPath: store)
        let id = String(repeating: "y", count: 10_000_000)
        let badID = try directory.write(record.replacingOccurrences(of: "B9B9B9B9-1111-4222-8333-444444444444", with: id), to: "id.ndjson")
        let refused = try convert(badID)
        #expect(refused.status == 65)
        #expect(refused.stderr.hasPrefix("ferry: error: \(badID): record 1: field \"summary.id\": expected a UUID, found string \"yyyy"))
        #expect(refused.stderr.count < 400)
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    /// Damaged pages anywhere in a Core Data store are found when it is opened, not read as
    /// missing tables.
    @Test(arguments: [["dump"], ["convert", "--to", "OUT"]])
    func aCorruptStoreIsNamedAsDamaged(command: [String]) throws {
        var bytes = try Data(contentsOf: TestPaths.samples.appendingPathComponent("brewguide/BrewGuide.store"))
        for page in stride(from: 4096, to: bytes.count, by: 4096) {
            bytes.replaceSubrange((page + 8)..<(page + 200), with: Data(repeating: 0xA5, count: 192))
        }
        let input = try directory.write(bytes, to: "corrupt.store")
        let arguments = [command[0], input] + command.dropFirst().map { $0 == "OUT" ? store : $0 }
        let result = try CommandRunner.ferry(arguments, in: TestPaths.packageRoot)
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("ferry: error: \(input): damaged SQLite database: On tree page "))
        #expect(!result.stderr.contains("\n*"))
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test func aModelThatDoesNotDescribeTheStoreIsRefused() throws {
        let result = try CommandRunner.ferry(["dump", "Samples/brewguide/BrewGuide.store", "--model", modelFixture("Garden.xcdatamodeld")],
                                             in: TestPaths.packageRoot)
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("ferry: error: Samples/brewguide/BrewGuide.store: the model does not describe this store: "))
    }

    @Test(arguments: ["billion-laughs.xml", "xxe.xml", "external-dtd.xml", "undefined-entity.xml"])
    func xmlWithDTDsOrEntitiesIsRefused(name: String) throws {
        let result = try CommandRunner.ferry(["inspect", modelFixture("Bad/\(name)")], in: TestPaths.packageRoot)
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("ferry: error: \(modelFixture("Bad/\(name)")): "))
        #expect(result.stdout.isEmpty)
    }

    /// Archive attacks through the commands (every attack class is in BundleAttackTests).
    @Test(arguments: [("/tmp/ferry-corpus-escape", TarBuilder.Kind.file, "", "an absolute path"),
                      ("bag/../../ferry-corpus-escape", .file, "", "climbs out"),
                      ("bag/data/link", .symbolicLink, "/etc/passwd", "a symbolic link")])
    func hostileArchivesAreRefusedByVerifyAndImport(name: String, kind: TarBuilder.Kind, link: String, detail: String) throws {
        var tar = TarBuilder()
        tar.add("bag/bagit.txt", Array("BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n".utf8))
        tar.add(name, Array("payload".utf8), kind: kind, link: link)
        let bundle = try directory.write(Data(tar.archive), to: "bag.tar")
        let verify = try CommandRunner.ferry(["verify", bundle], in: TestPaths.packageRoot)
        #expect(verify.status == 1)
        #expect(verify.stdout.contains(detail), "\(verify.stdout)")
        let imported = try CommandRunner.ferry(["import", bundle, "--to", store], in: TestPaths.packageRoot)
        #expect(imported.status == 65)
        #expect(imported.stderr.contains(detail), "\(imported.stderr)")
        #expect(!FileManager.default.fileExists(atPath: store))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/ferry-corpus-escape"))
    }
}
