import FerryJSON
import Testing

@Suite struct JSONWriterTests {
    @Test func compactSortedOutput() {
        let value: JSONValue = ["z": 1, "a": ["x", .null, true], "m": ["k": "v/w"]]
        #expect(JSONWriter.string(value) == #"{"a":["x",null,true],"m":{"k":"v/w"},"z":1}"#)
        #expect(JSONWriter.string(value, sortedKeys: false) == #"{"z":1,"a":["x",null,true],"m":{"k":"v/w"}}"#)
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
