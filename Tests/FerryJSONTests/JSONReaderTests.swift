@testable import FerryJSON
import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

private func read(_ text: String) throws(JSONReadError) -> JSONValue {
    try JSONReader().read(Array(text.utf8))
}

private func failure(_ text: String) -> JSONReadError? {
    do { _ = try read(text); return nil } catch { return error }
}

@Suite struct JSONReaderTests {
    @Test func readsEveryKindOfValue() throws {
        let value = try read(#" {"s": "a\"b\\c\/d\u00e9\ud83d\ude00", "n": -12.5e3, "t": true, "f": false, "z": null, "a": [1, [], {}]} "#)
        #expect(value["s"] == .string("a\"b\\c/dé😀"))
        #expect(value["n"]?.number?.text == "-12.5e3")
        #expect(value["n"]?.number?.double == -12500)
        #expect(value["t"] == true && value["f"] == false && value["z"] == .null)
        #expect(value["a"] == [1, .array([]), .object(JSONObject())])
        #expect(value.object?.keys == ["s", "n", "t", "f", "z", "a"])
    }

    /// Strings are checked as ASCII eight bytes at a time: a byte that is not ASCII is found at
    /// every offset of a word, and is refused or kept as UTF-8 says.
    @Test func nonASCIIIsFoundAtEveryOffset() throws {
        for length in 1..<20 {
            for position in 0..<length {
                var invalid = Array(repeating: UInt8(ascii: "a"), count: length)
                invalid[position] = 0xFF
                #expect(throws: JSONReadError.self, "length \(length), 0xFF at \(position)") {
                    try JSONReader().read([UInt8(ascii: "\"")] + invalid + [UInt8(ascii: "\"")])
                }
                var valid = Array(repeating: UInt8(ascii: "a"), count: length)
                valid.replaceSubrange(position...position, with: Array("é".utf8))
                let value = try JSONReader().read([UInt8(ascii: "\"")] + valid + [UInt8(ascii: "\"")])
                #expect(value == .string(String(decoding: valid, as: UTF8.self)))
            }
        }
    }

    @Test func numbersKeepTheirText() throws {
        #expect(try read("0.1").number?.text == "0.1")
        #expect(try read("9007199254740993").number?.int64 == 9007199254740993)
        #expect(try read("3.0").number?.int64 == 3)
        #expect(try read("3.5").number?.int64 == nil)
        #expect(try read("782611200").number?.isInteger == true)
    }

    /// Plain decimals take a fast path; it must give the very double `strtod` gives, bit for bit.
    @Test func numbersReadAsDoublesExactlyAsStrtodReadsThem() throws {
        var generator = SystemRandomNumberGenerator()
        var texts = ["0", "-0", "-0.0", "94", "12.5", "0.1", "0.3", "123456789012345", "1234567890123456",
                     "99999999999999.9", "0.000000000000001", "-7.25", "1e3", "2.5E-3", "12345678901234567890"]
        for _ in 0..<20_000 {
            let digits = String(UInt64.random(in: 0...999_999_999_999_999_999, using: &generator)).prefix(Int.random(in: 1...18))
            let point = Int.random(in: 0...digits.count)
            let text = point == digits.count ? String(digits) : "\(digits.prefix(point).isEmpty ? "0" : String(digits.prefix(point))).\(digits.dropFirst(point))"
            texts.append(Bool.random() ? "-" + text : text)
        }
        for text in texts {
            let number = try #require(try read(text).number)
            #expect(number.double?.bitPattern == Double(text)?.bitPattern, "\(text)")
        }
    }

    @Test func appleEncoderOutputIsRead() throws {
        // JSONEncoder escapes "/" and writes whole doubles without ".0".
        let value = try read(#"[{"url":"https:\/\/example.com\/boro-fish-tutorial","dateAdded":782611200}]"#)
        #expect(value.array?.first?["url"] == "https://example.com/boro-fish-tutorial")
    }

    @Test(arguments: [
        ("", JSONReadError.Kind.empty, "line 1, column 1: no JSON value (the input is empty)"),
        ("   \n ", .empty, "line 2, column 2: no JSON value (the input is empty)"),
        (#"[{"a": 1}, {"a": "#, .unexpectedEnd, "line 1, column 18, at [1].a: the JSON ends too early (truncated?)"),
        (#"{"a": 1,}"#, .unexpectedCharacter("'}', expected a key in quotes"), "line 1, column 9: unexpected '}', expected a key in quotes"),
        (#"{"a": 1, "a": 2}"#, .duplicateKey("a"), #"line 1, column 10: duplicate key "a""#),
        ("[1] x", .trailingContent, "line 1, column 5: content after the JSON value"),
        ("[01]", .invalidNumber, "line 1, column 3, at [0]: malformed number"),
        ("[1.]", .invalidNumber, "line 1, column 4, at [0]: malformed number"),
        ("[-]", .invalidNumber, "line 1, column 3, at [0]: malformed number"),
        (#"["\x"]"#, .invalidEscape, "line 1, column 4, at [0]: invalid escape sequence in a string"),
        (#"["\ud800x"]"#, .unpairedSurrogate, #"line 1, column 9, at [0]: unpaired UTF-16 surrogate in a \u escape"#),
        ("[\"a\tb\"]", .controlCharacterInString, "line 1, column 4, at [0]: unescaped control character in a string"),
        ("[tru]", .unexpectedCharacter("'t'"), "line 1, column 2, at [0]: unexpected 't'"),
        ("{\"items\": [{\"na me\": NaN}]}", .unexpectedCharacter("'N'"), #"line 1, column 22, at items[0]["na me"]: unexpected 'N'"#),
    ])
    func malformedInputIsLocated(text: String, kind: JSONReadError.Kind, description: String) {
        let error = failure(text)
        #expect(error?.kind == kind)
        #expect(error?.description == description)
    }

    @Test func invalidUTF8IsRefused() {
        let bytes: [UInt8] = Array(#"{"a": ""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        #expect(throws: JSONReadError.self) { try JSONReader().read(bytes) }
        do { _ = try JSONReader().read(bytes) } catch { #expect(error.kind == .invalidUTF8 && error.path == ".a") }
    }

    @Test func byteOrderMarks() throws {
        #expect(try JSONReader().read([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)) == [1])
        #expect(throws: JSONReadError.self) { try JSONReader().read([0xFF, 0xFE, 0x5B, 0x00, 0x5D, 0x00]) }
    }

    @Test func deepNestingIsRefusedWithoutExhaustingTheStack() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(failure(deep)?.kind == .tooDeep(limit: 512))
        let fine = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect(failure(fine) == nil)
    }

    @Test func largeStringsRoundTrip() throws {
        let big = String(repeating: "é", count: 5_000_000)
        #expect(try read("[\"\(big)\"]").array?.first?.string?.count == 5_000_000)
    }

    @Test func duplicateKeysCanBeAllowed() throws {
        var reader = JSONReader()
        reader.allowsDuplicateKeys = true
        #expect(try reader.read(Array(#"{"a": 1, "a": 2}"#.utf8)).object?.count == 2)
    }

    /// Up to 64 ASCII keys are told apart by slot and then by text, past that by a hashed set:
    /// both catch a duplicate, and keys that share a slot are not taken for one.
    @Test func manyMembersStillCatchDuplicates() {
        for size in [30, 63, 64, 65, 200] {
            let members = (0..<size).map { "\"k\($0)\": \($0)" }.joined(separator: ", ")
            #expect(failure("{\(members)}") == nil, "\(size)")
            #expect(failure("{\(members), \"k17\": 0}")?.kind == .duplicateKey("k17"), "\(size)")
            #expect(failure("{\(members), \"k\(size - 1)\": 0}")?.kind == .duplicateKey("k\(size - 1)"), "\(size)")
        }
        #expect(JSONReader.keySlot("axb") == JSONReader.keySlot("ayb"))
        #expect(failure(#"{"axb": 1, "ayb": 2, "azb": 3}"#) == nil)
        #expect(failure(#"{"axb": 1, "ayb": 2, "axb": 3}"#)?.kind == .duplicateKey("axb"))
    }

    /// A key that is not ASCII among many ASCII ones: compared as Swift compares strings, whichever comes first.
    @Test func aKeyThatIsNotASCIIAfterManyIsStillComparedAsText() {
        let members = (0..<20).map { "\"k\($0)\": \($0)" }.joined(separator: ", ")
        #expect(failure("{\(members), \"\u{212A}\": 1, \"K\": 2}")?.kind == .duplicateKey("K"))
        #expect(failure("{\(members), \"K\": 1, \"\u{212A}\": 2}")?.kind == .duplicateKey("\u{212A}"))
        #expect(failure("{\(members), \"caf\u{E9}\": 1, \"k3\": 2}")?.kind == .duplicateKey("k3"))
    }

    /// Plain ASCII keys of different lengths are told apart without comparing their text; a key
    /// that is escaped or not ASCII is still compared as Swift compares strings, as in the
    /// hashed set past a dozen members: a Kelvin sign is a duplicate of "K", a precomposed "é"
    /// of "e" and a combining acute.
    @Test func duplicatesAreFoundWhateverTheKeysLengthOrSpelling() {
        #expect(failure(#"{"method": 1, "rating": 2, "recipeId": 3, "tasteTag": 4}"#) == nil)
        #expect(failure(#"{"method": 1, "rating": 2, "method": 3}"#)?.kind == .duplicateKey("method"))
        #expect(failure(#"{"id": 1, "a": 2, "a": 3}"#)?.kind == .duplicateKey("a"))
        #expect(failure(#"{"a": 1, "a": 2}"#)?.kind == .duplicateKey("a"))
        #expect(failure(#"{"K": 1, "K": 2}"#)?.kind == .duplicateKey("\u{212A}"))
        #expect(failure(#"{"x": 0, "K": 1, "K": 2}"#)?.kind == .duplicateKey("K"))
        #expect(failure("{\"caf\u{E9}\": 1, \"cafe\u{301}\": 2}")?.kind == .duplicateKey("cafe\u{301}"))
        #expect(failure(#"{"Ka": 1, "K": 2, "KK": 3}"#) == nil)
    }

    /// Members of nested objects are gathered above their parent's: neither sees the other's keys.
    @Test func nestedObjectsKeepTheirOwnMembers() throws {
        let members = (0..<30).map { "\"k\($0)\": {\"k\($0)\": \($0), \"k\($0 + 1)\": [{\"k0\": 0}]}" }.joined(separator: ", ")
        let value = try read("{\(members), \"last\": {}}")
        let object = try #require(value.object)
        #expect(object.keys == (0..<30).map { "k\($0)" } + ["last"])
        #expect(object["k7"]?["k8"]?.array?.first?["k0"]?.number?.text == "0")
        #expect(object["last"]?.object?.isEmpty == true)
        #expect(failure("{\(members), \"k29\": 1}")?.kind == .duplicateKey("k29"))
    }

    @Test(.needsCorpus, arguments: TestPaths.files(under: TestPaths.corpus.appendingPathComponent("seedapps")) { $0.hasSuffix(".json") })
    func everySeedAppJSONFileAgreesWithFoundation(path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let ours = try JSONReader().read(Array(data))
        let theirs = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        #expect(count(ours) == count(theirs))
    }

    /// Counts the leaves, as a shape comparison between two independent parsers.
    private func count(_ value: JSONValue) -> Int {
        switch value {
        case .array(let elements): return elements.reduce(0) { $0 + count($1) }
        case .object(let object): return object.members.reduce(0) { $0 + count($1.value) }
        default: return 1
        }
    }

    private func count(_ value: Any) -> Int {
        if let array = value as? [Any] { return array.reduce(0) { $0 + count($1) } }
        if let dictionary = value as? [String: Any] { return dictionary.values.reduce(0) { $0 + count($1) } }
        return 1
    }
}
