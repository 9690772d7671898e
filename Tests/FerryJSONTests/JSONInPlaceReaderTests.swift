import FerryJSON
import FerryTestSupport
import Foundation
import Testing

/// Reading in place takes plain JSON member by member and gives up on anything else; what it
/// takes, ``JSONReader`` reads the same.
@Suite struct JSONInPlaceReaderTests {
    /// Every member of a flat or nested object of strings and numbers, as text, and the length read.
    static func members(_ text: String) -> (members: [String], length: Int)? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer -> ([String], Int)? in
            var reader = JSONInPlaceReader(buffer)
            var found: [String] = []
            func object(_ prefix: String) throws(JSONInPlaceReader.GiveUp) {
                try reader.beginObject()
                while let key = try reader.nextKey() {
                    let name = prefix + String(decoding: key, as: UTF8.self)
                    switch reader.peekValue() {
                    case UInt8(ascii: "{"): try object(name + ".")
                    case UInt8(ascii: "\""): found.append("\(name)=\"\(String(decoding: try reader.string(), as: UTF8.self))\"")
                    default: found.append("\(name)=\(String(decoding: try reader.number(), as: UTF8.self))")
                    }
                }
            }
            do {
                try object("")
                return (found, reader.position)
            } catch {
                return nil
            }
        }
    }

    /// What JSONReader reads of the same text, as the same list.
    static func readerMembers(_ text: String) throws -> [String] {
        func flatten(_ object: JSONObject, _ prefix: String) -> [String] {
            object.members.flatMap { member -> [String] in
                switch member.value {
                case .object(let inner): return flatten(inner, prefix + member.key + ".")
                case .string(let text): return ["\(prefix)\(member.key)=\"\(text)\""]
                case .number(let number): return ["\(prefix)\(member.key)=\(number.text)"]
                default: return ["\(prefix)\(member.key)=?"]
                }
            }
        }
        return flatten(try #require(try JSONReader().read(Array(text.utf8)).object), "")
    }

    @Test(arguments: [
        #"{"id":"A1","n":12.5,"neg":-0.25,"e":1E+3,"z":0,"s":{"t":"x y","u":-7}}"#,
        "{ \"a\" :\t\"caf\u{E9} \u{2615}\" ,\r\n \"b\" : {\n} , \"c\":\"\"}",
        #"{}"#,
    ])
    func plainObjectsReadAsJSONReaderReadsThem(text: String) throws {
        let read = try #require(Self.members(text))
        #expect(read.members == (try Self.readerMembers(text)))
        #expect(read.length == text.utf8.count)
    }

    @Test func theLengthEndsAtTheClosingBraceWhateverFollows() throws {
        #expect(Self.members(#"{"a":1}, {"b":2}]"#)?.length == 7)
        #expect(Self.members("{\"a\":\"x\"}\n{\"a\"")?.length == 9)
    }

    /// Each of these is JSON the reader leaves to JSONReader: valid but not plain (escapes, a
    /// key with a non-ASCII letter, literals), or not JSON at all (it never decides an error).
    @Test(arguments: [
        #"{"a":"x\/y"}"#, #"{"a":"line\nbreak"}"#, #"{"caf\u00e9":1}"#, "{\"caf\u{E9}\":1}", #"{"a":true}"#, #"{"a":null}"#,
        #"{"a":[1]}"#, "{\"a\":\"tab\there\"}", #"{"a":01}"#, #"{"a":1.}"#, #"{"a":.5}"#, #"{"a":1e}"#, #"{"a":+1}"#,
        #"{"a":1,}"#, #"{"a":1 "b":2}"#, #"{"a" 1}"#, #"{a:1}"#, #"{"a":1"#, #"{"a":"open"#, #"["a"]"#, "",
    ])
    func itGivesUpOnAnythingNotPlain(text: String) {
        #expect(Self.members(text) == nil, "\(text)")
    }

    @Test func invalidUTF8InAStringIsLeftToJSONReader() {
        var bytes = Array(#"{"a":"xx"}"#.utf8)
        bytes[6] = 0xC3
        bytes[7] = 0x28
        let taken = bytes.withUnsafeBufferPointer { buffer -> Bool in
            var reader = JSONInPlaceReader(buffer)
            do {
                try reader.beginObject()
                _ = try reader.nextKey()
                _ = try reader.string()
                return true
            } catch {
                return false
            }
        }
        #expect(!taken)
        #expect(throws: JSONReadError.self) { try JSONReader().read(bytes) }
    }

    /// Numbers read in place keep JSONNumber's value, bit for bit, or are left to it.
    @Test func shortDecimalsOfBytesAreJSONNumbersDoubles() throws {
        var generator = SplitMix(seed: 7)
        for _ in 0..<20_000 {
            // Up to 40 digits: past 19 the digits overflowed a 64-bit integer before being counted.
            let digits = Int(generator.next() % 40) + 1
            var text = generator.next() % 4 == 0 ? "-" : ""
            text += String(generator.next() % 9 + 1)
            for _ in 1..<digits { text += String(generator.next() % 10) }
            if generator.next() % 2 == 0 {
                let point = Int(generator.next() % UInt64(text.count - (text.hasPrefix("-") ? 1 : 0))) + (text.hasPrefix("-") ? 1 : 0) + 1
                if point < text.count { text.insert(".", at: text.index(text.startIndex, offsetBy: point)) }
            }
            let bytes = Array(text.utf8)
            let inPlace = bytes.withUnsafeBufferPointer { JSONNumber.shortDecimal($0) }
            let expected = try #require(try JSONReader().read(bytes).number?.double)
            if let inPlace {
                #expect(inPlace.bitPattern == expected.bitPattern, "\(text)")
            } else {
                #expect(digits > 15, "\(text) is a plain decimal of at most 15 digits")
            }
        }
    }
}
