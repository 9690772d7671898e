import Foundation
import FerryJSON
import Testing

@Suite struct JSONWriterTests {
    @Test func compactSortedOutput() {
        let value: JSONValue = ["z": 1, "a": ["x", .null, true], "m": ["k": "v/w"]]
        #expect(JSONWriter.string(value) == #"{"a":["x",null,true],"m":{"k":"v/w"},"z":1}"#)
        #expect(JSONWriter.string(value, sortedKeys: false) == #"{"z":1,"a":["x",null,true],"m":{"k":"v/w"}}"#)
    }

    /// A writer kept from value to value remembers the key order of the last object it sorted;
    /// objects with other keys, or the same keys in another order, must still come out sorted,
    /// and so must keys that differ only late, or where one is the other's prefix.
    @Test func aWriterKeptAcrossValuesSortsEveryObject() {
        var writer = JSONWriter()
        var bytes: [UInt8] = []
        let values: [JSONValue] = [
            .object(JSONObject([("dose", 1), ("yield", 2), ("waterTemperature", 3), ("grind", 4)])),
            .object(JSONObject([("dose", 5), ("yield", 6), ("waterTemperature", 7), ("grind", 8)])),
            .object(JSONObject([("yield", 9), ("dose", 10), ("waterTemperature", 11), ("grind", 12)])),
            .object(JSONObject([("dose", 13), ("yield", 14), ("waterTemperature", 15)])),
            .object(JSONObject([("ab", 1), ("a", 2), ("abd", 3), ("abc", 4), ("é", 5), ("z", 6)])),
            .object(JSONObject([("dose", 16), ("yield", 17), ("waterTemperature", 18), ("grind", 19)])),
        ]
        for value in values {
            writer.append(value, to: &bytes)
            bytes.append(0x0A)
        }
        #expect(String(decoding: bytes, as: UTF8.self) == """
            {"dose":1,"grind":4,"waterTemperature":3,"yield":2}
            {"dose":5,"grind":8,"waterTemperature":7,"yield":6}
            {"dose":10,"grind":12,"waterTemperature":11,"yield":9}
            {"dose":13,"waterTemperature":15,"yield":14}
            {"a":2,"ab":1,"abc":4,"abd":3,"z":6,"é":5}
            {"dose":16,"grind":19,"waterTemperature":18,"yield":17}

            """)
    }

    @Test func prettyOutput() {
        #expect(JSONWriter.string(["b": [1, 2], "a": [:] as JSONValue, "c": []], pretty: true) == """
            {
              "a": {},
              "b": [
                1,
                2
              ],
              "c": []
            }
            """)
    }

    @Test func stringsAreEscapedMinimally() {
        #expect(JSONWriter.string("a\"b\\c\n\t\u{01}é😀/") == #""a\"b\\c\n\t\u0001é😀/""#)
    }

    /// Text past its first escape is escaped a piece at a time: escapes on either side of a
    /// piece's end, and a long run without any after one, read back as written.
    @Test func longTextWithEscapesAcrossPiecesReadsBack() throws {
        var text = "plain start "
        for index in 0..<3_000 {
            text += index % 7 == 0 ? "\"" : index % 11 == 0 ? "\n" : index % 13 == 0 ? "\u{01}" : index % 17 == 0 ? "\\" : "é"
            text += String(repeating: "x", count: index % 5)
        }
        text += String(repeating: "y", count: 5_000)
        for value in [text, "\"" + text, text + "\""] {
            let written = JSONWriter.string(.string(value))
            #expect(!written.utf8.contains { $0 < 0x20 })
            #expect(try JSONReader().read(Array(written.utf8)).string == value)
        }
    }

    @Test func escapesAtEitherEndAndEveryControlByte() throws {
        #expect(JSONWriter.string("") == #""""#)
        #expect(JSONWriter.string("\"") == #""\"""#)
        #expect(JSONWriter.string("\n\u{1F}x\\") == #""\n\u001fx\\""#)
        for byte in 0..<0x20 {
            let text = "a" + String(UnicodeScalar(UInt8(byte))) + "b"
            let written = JSONWriter.string(.string(text))
            #expect(!written.utf8.contains { $0 < 0x20 }, "control byte \(byte) is escaped")
            #expect(try JSONReader().read(Array(written.utf8)).string == text)
        }
    }

    /// The escaper skips eight bytes at a time: specials at every offset of a word, next to
    /// multi-byte UTF-8 (whose high bytes must not hide a special nor count as one), and in texts
    /// of every length around a word read back as written.
    @Test func escapesAtEveryOffsetOfAWord() throws {
        let specials = ["\"", "\\", "\n", "\u{00}", "\u{1F}", "\u{7F}", "é", "😀", " ", "~"]
        var random = SystemRandomNumberGenerator()
        for length in 0..<40 {
            for special in specials {
                for position in 0...length {
                    var characters = (0..<length).map { _ in ["a", "Z", "ü", "✓", "0", "]"].randomElement(using: &random)! }
                    characters.insert(special, at: position)
                    let text = characters.joined()
                    let written = JSONWriter.string(.string(text))
                    #expect(try JSONReader().read(Array(written.utf8)).string == text)
                    #expect(!written.utf8.contains { $0 < 0x20 })
                    #expect(written == Self.naivelyEscaped(text), "\(text.debugDescription)")
                }
            }
        }
    }

    /// JSON string syntax byte by byte, the way the writer did before it skipped words.
    static func naivelyEscaped(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    @Test func keysInOrderOrNotGiveTheSameText() {
        let ordered = JSONValue.object(JSONObject([("a", 2), ("ab", 1), ("b", 3)]))
        let shuffled = JSONValue.object(JSONObject([("ab", 1), ("b", 3), ("a", 2)]))
        #expect(JSONWriter.string(ordered) == #"{"a":2,"ab":1,"b":3}"#)
        #expect(JSONWriter.string(shuffled) == JSONWriter.string(ordered))
    }

    /// Keys sort by their UTF-8 bytes, whatever order they come in: every permutation of these
    /// gives the one text.
    @Test func keysSortByTheirBytesFromEveryOrder() {
        let keys = ["b", "", "é", "Z", "aa", "a", "☕️", "a\u{0}"]
        let expected = "{" + keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            .enumerated().map { "\(JSONWriter.string(.string($0.element))):\($0.offset)" }.joined(separator: ",") + "}"
        let values = Dictionary(uniqueKeysWithValues: keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            .enumerated().map { ($0.element, $0.offset) })
        var order = Array(keys.indices)
        for round in 0..<200 {
            order.shuffle()
            let object = JSONValue.object(JSONObject(order.map { (keys[$0], .integer(values[keys[$0]]!)) }))
            #expect(JSONWriter.string(object) == expected, "round \(round)")
        }
        #expect(expected.hasPrefix(#"{"":0,"Z":1,"a":2,"a\u0000":3,"aa":4,"b":5,"é":6"#), "\(expected)")
    }

    @Test func doublesUseTheShortestRoundTripText() throws {
        #expect(JSONWriter.string(.double(0.1)) == "0.1")
        #expect(JSONWriter.string(.double(526927588.940283)) == "526927588.940283")
        #expect(JSONWriter.string(.double(3)) == "3")
        #expect(JSONWriter.string(.double(1e300)) == "1e+300")
        #expect(JSONWriter.string(.double(.nan)) == #""NaN""#)
        #expect(try JSONReader().read(Array(JSONWriter.string(.double(1e-7)).utf8)).number?.double == 1e-7)
    }

    @Test func writtenJSONReadsBackEqual() throws {
        let value: JSONValue = ["name": "Ünïcode ✓", "list": [1, "two", ["three": .null]], "flag": false]
        for pretty in [false, true] {
            var writer = JSONWriter(sortedKeys: false, pretty: pretty)
            writer.write(value)
            #expect(try JSONReader().read(writer.bytes) == value)
        }
    }
}
