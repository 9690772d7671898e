@testable import FerryCanonical
@testable import FerryConvert
import FerryJSON
import FerryTestSupport
import Foundation
import Testing

/// Brew logs read in place from a stream must come out exactly as the general reading makes
/// them (the JSON tree and the field reader), with the same reports; the records it leaves must
/// still convert, or fail, as before.
@Suite struct BrewLogInPlaceTests {
    let directory = TemporaryDirectory("ferry-in-place")

    static let sample = #"{"doseGrams":15,"grindLabel":"medium","note":"Slightly bright","summary":{"id":"B9B9B9B9-1111-4222-8333-444444444444","method":"v60","rating":4,"recipeId":"B0B0B0B0-1111-4222-8333-444444444444","recipeNameAtBrew":"V60 Balanced","tasteTag":"too_sour","timestamp":782639100},"targetYieldGrams":250,"waterTemperatureCelsius":94}"#

    static func read(_ text: String) -> (made: BrewLogInPlace, length: Int)? {
        Array(text.utf8).withUnsafeBufferPointer { BrewLogInPlace.read($0) }
    }

    @Test func theAppsOwnRecordIsReadInPlace() throws {
        let (log, length) = try #require(Self.read(Self.sample + "\n"))
        #expect(length == Self.sample.utf8.count)
        #expect(log.id == "B9B9B9B9-1111-4222-8333-444444444444" && log.recipeID == "B0B0B0B0-1111-4222-8333-444444444444")
        #expect(log.timestamp == 782639100 && log.rating == 4 && log.tasteTag == "too_sour" && log.method == "v60")
        #expect(log.recipeName == "V60 Balanced" && log.note == "Slightly bright")
        #expect(log.dose == 15 && log.yield == 250 && log.temperature == 94 && log.grind == "medium")
        let flat = #"{"id":"B9B9B9B9-1111-4222-8333-444444444444","recipeNameAtBrew":"R","doseGrams":16.5,"note":"n"}"#
        #expect(Self.read(flat)?.made.dose == 16.5)
    }

    /// Each is a record the general reading makes something else of (extras, another id, an
    /// error, a recipe): it is left to it.
    @Test(arguments: [
        ("another key, kept in extras", #"{"summary":{"id":"B9B9B9B9-1111-4222-8333-444444444444","brewer":"me"}}"#),
        ("a key twice", #"{"summary":{"id":"B9B9B9B9-1111-4222-8333-444444444444","rating":4,"rating":5}}"#),
        ("a lower-case id", #"{"summary":{"id":"b9b9b9b9-1111-4222-8333-444444444444"}}"#),
        ("no id", #"{"summary":{"rating":4}}"#),
        ("a rating out of range", #"{"summary":{"id":"B9B9B9B9-1111-4222-8333-444444444444","rating":6}}"#),
        ("a rating as a decimal", #"{"summary":{"id":"B9B9B9B9-1111-4222-8333-444444444444","rating":4.0}}"#),
        ("a null", #"{"summary":{"id":"B9B9B9B9-1111-4222-8333-444444444444","tasteTag":null}}"#),
        ("an escape", #"{"summary":{"id":"B9B9B9B9-1111-4222-8333-444444444444"},"note":"a\/b"}"#),
        ("a date as text", #"{"summary":{"id":"B9B9B9B9-1111-4222-8333-444444444444","timestamp":"2025-01-01"}}"#),
        ("a number as text", #"{"summary":{"id":"B9B9B9B9-1111-4222-8333-444444444444"},"doseGrams":"15"}"#),
        ("an enum as an object", #"{"summary":{"id":"B9B9B9B9-1111-4222-8333-444444444444","method":{"rawValue":"v60"}}}"#),
        ("a note in both places", #"{"summary":{"id":"B9B9B9B9-1111-4222-8333-444444444444","note":"a"},"note":"b"}"#),
        ("parameters in both places", #"{"summary":{"id":"B9B9B9B9-1111-4222-8333-444444444444","grindLabel":"fine"},"doseGrams":15}"#),
        ("parameters beside without the dose", #"{"summary":{"id":"B9B9B9B9-1111-4222-8333-444444444444"},"targetYieldGrams":250}"#),
        ("a summary that is no object", #"{"summary":"x","recipeNameAtBrew":"R","id":"B9B9B9B9-1111-4222-8333-444444444444"}"#),
        ("a flat record without a recipe name", #"{"id":"B9B9B9B9-1111-4222-8333-444444444444","rating":4}"#),
        ("a recipe", #"{"recipe":{"id":"B0B0B0B0-1111-4222-8333-444444444444","defaultDose":15}}"#),
        ("16 digits", #"{"summary":{"id":"B9B9B9B9-1111-4222-8333-444444444444","timestamp":782639100.1234567}}"#),
        ("an exponent", #"{"summary":{"id":"B9B9B9B9-1111-4222-8333-444444444444","timestamp":7.8e8}}"#),
    ])
    func recordsItDoesNotTakeWholeAreLeft(what: String, record: String) {
        #expect(Self.read(record) == nil, "\(what)")
    }

    /// Inputs `make fuzz` found, kept: each converts streamed as read whole (the first, a dose of
    /// 70 digits, trapped reading its number before it was fixed).
    @Test(arguments: TestPaths.files(under: TestPaths.packageRoot.appendingPathComponent("Tests/FuzzRegressions/brewlog")) { _ in true })
    func fuzzFindingsConvertTheSameBothWays(path: String) throws {
        let record = try Data(contentsOf: URL(fileURLWithPath: path))
        let input = try directory.write(Data("[".utf8) + record + Data("]".utf8), to: "fuzz-\(URL(fileURLWithPath: path).lastPathComponent)")
        let streamed = ConversionContext(report: ReportBuilder(store: "s.ferry", dryRun: false), keepGoing: true)
        try BrewGuideNormalizer(context: streamed).convert(streaming: input)
        let whole = ConversionContext(report: ReportBuilder(store: "s.ferry", dryRun: false), keepGoing: true)
        try BrewGuideNormalizer(context: whole).convert(try JSONDocuments.read(input))
        #expect(streamed.batch.logs == whole.batch.logs && streamed.batch.logs.count == 1)
    }

    @Test func aNumberOfManyDigitsIsReadNotTrapped() throws {
        let record = #"{"summary":{"id":"B9B9B9B9-1111-4222-8333-444444444444","rating":4,"recipeNameAtBrew":"V","timestamp":782611200},"doseGrams":123456789012345678901234}"#
        #expect(Self.read(record) == nil, "past 15 digits, left to the general reading")
        let input = try directory.write(record, to: "many-digits.ndjson")
        let context = ConversionContext(report: ReportBuilder(store: "s.ferry", dryRun: false), keepGoing: false)
        try BrewGuideNormalizer(context: context).convert(streaming: input)
        #expect(context.batch.logs.first?.snapshot?.parameters["dose"]?["value"] == .double(Double("123456789012345678901234")!))
    }

    /// Thousands of records of every shape and value the general reading knows, in one file:
    /// converted streaming (records read in place where they can be) and read whole (every one
    /// by the general reading), the logs and the report are the same.
    @Test(arguments: [(seed: UInt64(1), pretty: false), (seed: 2, pretty: true), (seed: 3, pretty: false)])
    func readingInPlaceMakesWhatTheGeneralReadingMakes(seed: UInt64, pretty: Bool) throws {
        var generator = RecordGenerator(seed: seed, pretty: pretty)
        let records = (0..<3_000).map { _ in generator.record() }
        let path = try directory.write("[\n" + records.joined(separator: ",\n") + "\n]", to: "logs-\(seed).json")
        let taken = records.filter { Self.read($0) != nil }.count
        #expect(taken > 1_200 && taken < 2_400, "both readings are exercised: \(taken) of 3,000 read in place")

        let streamed = ConversionContext(report: ReportBuilder(store: "s.ferry", dryRun: false), keepGoing: true)
        try BrewGuideNormalizer(context: streamed).convert(streaming: path)
        let whole = ConversionContext(report: ReportBuilder(store: "s.ferry", dryRun: false), keepGoing: true)
        try BrewGuideNormalizer(context: whole).convert(try JSONDocuments.read(path))

        #expect(streamed.batch.logs.count == whole.batch.logs.count)
        for (made, expected) in zip(streamed.batch.logs, whole.batch.logs) where made != expected {
            Issue.record("\(made.id): \(made) is not \(expected)")
            break
        }
        #expect(streamed.batch.recipes == whole.batch.recipes)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let (madeReport, expectedReport) = (streamed.report.finish(), whole.report.finish())
        #expect(String(decoding: try encoder.encode(madeReport), as: UTF8.self) == String(decoding: try encoder.encode(expectedReport), as: UTF8.self))
        #expect(madeReport.rejected.count > 50, "bad records are among them: \(madeReport.rejected.count)")
    }
}

/// Brew log records as BrewGuide's encoder writes them, and as other writers and damaged files
/// give them: every field sometimes absent, in another type, null, escaped, out of range.
struct RecordGenerator {
    var random: SplitMix
    let pretty: Bool
    var ids: [String] = []
    /// Half the records have only the usual values and places, as the app writes them.
    var usual = true

    init(seed: UInt64, pretty: Bool) {
        random = SplitMix(seed: seed)
        self.pretty = pretty
    }

    mutating func next() -> UInt64 { random.next() }

    mutating func percent(_ chance: UInt64) -> Bool { next() % 100 < chance }
    mutating func pick<T>(_ choices: [T]) -> T { choices[Int(next() % UInt64(choices.count))] }

    mutating func uuid() -> String {
        let hex = (0..<4).map { _ in String(format: "%08X", UInt32(truncatingIfNeeded: next())) }.joined()
        let chars = Array(hex)
        return "\(String(chars[0..<8]))-\(String(chars[8..<12]))-4\(String(chars[13..<16]))-8\(String(chars[17..<20]))-\(String(chars[20..<32]))"
    }

    /// A value for a field: the usual, or in the other records sometimes one of the others.
    mutating func value(_ usualValue: String, _ others: [String]) -> String {
        usual || percent(80) ? usualValue : pick(others)
    }

    mutating func record() -> String {
        usual = percent(50)
        var id = uuid()
        if !usual, percent(5), let earlier = ids.last { id = earlier }   // a duplicate, refused
        ids.append(id)
        var summary: [(String, String)] = []
        var beside: [(String, String)] = []
        func maybe(_ chance: UInt64, _ key: String, _ value: String, into list: inout [(String, String)]) {
            if percent(chance) { list.append((key, value)) }
        }
        maybe(97, "id", value("\"\(id)\"", ["\"\(id.lowercased())\"", "42", "null", "\"not-a-uuid\""]), into: &summary)
        let seconds = 700_000_000 + Int(next() % 50_000_000)
        maybe(95, "timestamp", value(pick(["\(seconds)", "\(seconds).25", "\(seconds).5"]),
                                     ["\"2024-05-01T08:00:00Z\"", "7.0e8", "\(seconds).123456789", "1714550400", "1714550400000", "-5", "null", "\"\(seconds)\"", "true"]),
              into: &summary)
        maybe(90, "method", value("\"v60\"", ["\"chemex\"", "{\"rawValue\":\"v60\"}", "60", "null", "\"\""]), into: &summary)
        maybe(95, "recipeNameAtBrew", value("\"Recipe \(next() % 200)\"", ["\"Caf\u{E9} \u{2615} \(next() % 9)\"", #""A \"quoted\" name""#, "\"\"", "42", "null"]),
              into: &summary)
        maybe(90, "rating", value("\(next() % 5 + 1)", ["0", "6", "4.0", "\"4\"", "null", "-1", "3e0", "2.5"]), into: &summary)
        maybe(40, "tasteTag", value(pick(["\"too_bitter\"", "\"too_sour\"", "\"too_weak\"", "\"too_strong\""]), ["\"too_hot\"", "null", "7"]),
              into: &summary)
        maybe(85, "recipeId", value("\"\(pick(["B0B0B0B0-1111-4222-8333-444444444444", uuid()]))\"", ["\"\(uuid().lowercased())\"", "\"x\"", "null"]),
              into: &summary)
        let parameters: [(String, String)] = [
            ("doseGrams", value(pick(["15", "16.5", "\(12 + next() % 10).\(next() % 10)"]), ["\"15\"", "true", "null", "1.5e1", "-0"])),
            ("targetYieldGrams", value(pick(["250", "260"]), ["\"250\"", "null"])),
            ("waterTemperatureCelsius", value(pick(["94", "93.5"]), ["null", "\"hot\""])),
            ("grindLabel", value(pick(["\"medium\"", "\"fine\"", "\"coarse\""]), ["\"powder\"", "null", "{\"rawValue\":\"fine\"}"])),
        ]
        let note = value(pick(["\"Brew note \(next() % 1000), bright\"", "\"\""]),
                         ["\"line\\nbreak\"", "\"http:\\/\\/example.com\\/x\"", "\"\u{C9}t\u{E9} \u{1F600}\"", "null", "12", "\"tab\\there\""])
        let flat = percent(25)
        if flat {
            for parameter in parameters where percent(80) { summary.append(parameter) }
            maybe(50, "note", note, into: &summary)
        } else {
            let placement = usual ? 9 : next() % 10
            for (index, parameter) in parameters.enumerated() where percent(80) {
                switch placement {
                case 0: summary.append(parameter)                                   // all in the summary
                case 1: if index % 2 == 0 { beside.append(parameter) } else { summary.append(parameter) }   // split
                default: beside.append(parameter)                                   // as the app writes them
                }
            }
            let where_ = usual ? next() % 7 : next() % 10
            if where_ < 5 { beside.append(("note", note)) } else if where_ < 7 { summary.append(("note", note)) } else if where_ == 7 {
                beside.append(("note", note))
                summary.append(("note", "\"also\""))
            }
        }
        if !usual, percent(8) { if flat { summary.append(("brewer", "\"me\"")) } else { beside.append(("brewer", "\"me\"")) } }
        if !usual, percent(4) { summary.append(("extra", "{\"nested\":[1,2,{\"x\":null}]}")) }
        if flat { return object(summary) }
        if !usual, percent(6) { return object([("summary", "\"not an object\"")] + summary) }
        if !usual, percent(4) { return object([("recipe", object([("id", "\"\(uuid())\""), ("name", "\"R\""), ("defaultDose", "15")]))]) }
        return object(beside + [("summary", object(summary))])
    }

    mutating func object(_ members: [(String, String)]) -> String {
        var shuffled = members
        for index in shuffled.indices.reversed() where index > 0 {
            shuffled.swapAt(index, Int(next() % UInt64(index + 1)))
        }
        let space = pretty ? "\n    " : ""
        let colon = pretty ? " : " : ":"
        return "{" + space + shuffled.map { "\"\($0.0)\"\(colon)\($0.1)" }.joined(separator: "," + space) + (pretty ? "\n  " : "") + "}"
    }
}

/// A snapshot's parameters as JSON: the recipe's order, each entry's members in key order, and
/// a name given twice (no reader gives one, but the function takes any list) in its first place
/// with its last value, as setting an object's member does.
@Suite struct SnapshotParameterTests {
    @Test func parametersKeepTheirOrderAndALaterValueReplacesAnEarlier() {
        let parameters = [RecipeParameter(name: "dose", value: 15.3, unit: "g"), RecipeParameter(name: "grind", text: "fine"),
                          RecipeParameter(name: "yield", value: 250, unit: "g"), RecipeParameter(name: "dose", value: 16, unit: "g")]
        let object = LogSnapshot.parameters(of: parameters)
        var expected = JSONObject()
        for parameter in parameters {
            var entry = JSONObject()
            if let text = parameter.text { entry["text"] = .string(text) }
            if let unit = parameter.unit { entry["unit"] = .string(unit) }
            if let value = parameter.value { entry["value"] = .double(value) }
            expected[parameter.name] = .object(entry)
        }
        #expect(object == expected)
        #expect(object.keys == ["dose", "grind", "yield"])
        #expect(JSONWriter.string(.object(object), sortedKeys: false)
                == #"{"dose":{"unit":"g","value":16},"grind":{"text":"fine"},"yield":{"unit":"g","value":250}}"#)
    }
}
