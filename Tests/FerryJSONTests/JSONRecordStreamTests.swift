import FerryJSON
import FerryTestSupport
import Foundation
import Testing

/// Record-by-record reading: a record that is not JSON fails alone; a broken structure ends the file.
@Suite struct JSONRecordStreamTests {
    let directory = TemporaryDirectory("ferry-json-stream")

    func read(_ text: String, name: String) throws -> (values: [String], failures: [(record: Int?, recoverable: Bool)]) {
        let stream = try JSONRecordStream(path: try directory.write(text, to: name), chunkSize: 8)
        var values: [String] = [], failures: [(Int?, Bool)] = []
        while !stream.isFinished {
            do {
                guard let record = try stream.next() else { break }
                values.append(JSONWriter.string(record.value))
            } catch {
                failures.append((error.record, error.recoverable))
            }
        }
        return (values, failures)
    }

    func graph(_ text: String, chunkSize: Int = 1 << 20) throws -> (stream: JSONRecordStream, values: [String]) {
        let stream = try JSONRecordStream(path: try directory.write(text, to: "graph-\(text.count).jsonld"), chunkSize: chunkSize, elementsOf: "@graph")
        var values: [String] = []
        while let record = try stream.next() { values.append("\(record.number):\(JSONWriter.string(record.value))") }
        return (stream, values)
    }

    /// JSON-LD's many nodes: the graph's elements are the records, the rest of the document is kept.
    @Test func aGraphsNodesAreTheRecordsAndTheDocumentsOtherMembersAreKept() throws {
        let (stream, values) = try graph("""
            {"@context": {"@vocab": "https://schema.org/"},
             "@graph": [{"@type": "WebPage"}, {"@type": "Recipe", "name": "A"}],
             "name": "after"}
            """)
        #expect(values == [#"1:{"@type":"WebPage"}"#, #"2:{"@type":"Recipe","name":"A"}"#])
        #expect(stream.isEnclosed && stream.isArray)
        #expect(JSONWriter.string(.object(stream.enclosingMembers)) == #"{"@context":{"@vocab":"https://schema.org/"},"name":"after"}"#)
    }

    /// What the graph mode cannot open as it is (a number before the graph, members past the
    /// first chunk, a graph that is no list, an array at the top) is read as before: one record each.
    /// Numbers, texts and literals before the graph are read as members too.
    @Test func scalarsBeforeTheGraphAreMembers() throws {
        let (stream, values) = try graph(#"{"version": 2, "live": true, "name": "x", "none": null, "@graph": [{"a": 1}]}"#)
        #expect(stream.isEnclosed && values == [#"1:{"a":1}"#])
        #expect(JSONWriter.string(.object(stream.enclosingMembers)) == #"{"live":true,"name":"x","none":null,"version":2}"#)
    }

    @Test func aSecondGraphOrAKeyTwiceIsRefused() throws {
        #expect(throws: JSONRecordStream.Failure.self) { _ = try graph(#"{"@graph": [{"a": 1}], "@graph": [{"b": 2}]}"#) }
        #expect(throws: JSONRecordStream.Failure.self) { _ = try graph(#"{"k": 1, "@graph": [], "k": 2}"#) }
    }

    @Test(arguments: [
        #"{"@graph": {"a": 1}}"#,
        #"{"other": [1, 2]}"#,
    ])
    func aDocumentTheGraphModeCannotOpenIsOneRecord(text: String) throws {
        let (stream, values) = try graph(text)
        #expect(!stream.isEnclosed)
        #expect(values.count == 1 && values[0].hasPrefix("1:{"))
    }

    /// Nothing, or only white space: no record, and no object to open.
    @Test(arguments: ["", "  \n", "{", "{\"@graph\""])
    func aFileWithNoDocumentOrHalfOfOneIsAFailureNotACrash(text: String) throws {
        let stream = try JSONRecordStream(path: try directory.write(text, to: "short-\(text.count).jsonld"), elementsOf: "@graph")
        #expect(throws: JSONRecordStream.Failure.self) { _ = try stream.next() }
        #expect(!stream.isEnclosed)
    }

    @Test func aGraphCutShortOrWithBrokenMembersAfterItFails() throws {
        #expect(throws: JSONRecordStream.Failure.self) { _ = try graph(#"{"@graph": [{"a": 1}], "b" 2}"#) }
        #expect(throws: JSONRecordStream.Failure.self) { _ = try graph(#"{"@graph": [{"a": 1}]"#) }
        #expect(throws: JSONRecordStream.Failure.self) { _ = try graph(#"{"@graph": [{"a": 1}]} {"#) }
    }

    @Test func aBadRecordInNDJSONFailsAloneAndTheNextOnesAreRead() throws {
        let (values, failures) = try read("{\"a\":1}\n{\"a\":tru}\n{\"a\":3}\n", name: "lines.ndjson")
        #expect(values == [#"{"a":1}"#, #"{"a":3}"#])
        #expect(failures.map(\.record) == [2] && failures.map(\.recoverable) == [true])
    }

    @Test func aBadElementOfAnArrayFailsAlone() throws {
        let (values, failures) = try read("[{\"a\":1}, {\"a\":01}, {\"a\":3}]", name: "array.json")
        #expect(values == [#"{"a":1}"#, #"{"a":3}"#])
        #expect(failures.map(\.record) == [2] && failures.map(\.recoverable) == [true])
    }

    @Test func aTruncatedFileEndsAtTheBreakKeepingWhatCameBefore() throws {
        let (values, failures) = try read("[{\"a\":1}, {\"a\":2}, {\"a\":", name: "cut.json")
        #expect(values == [#"{"a":1}"#, #"{"a":2}"#])
        #expect(failures.count == 1 && failures[0].recoverable == false)
    }

    /// Keys come from a cache kept across records: keys that share its slot (same length, first,
    /// middle and last byte) must still come out as written, record after record, and so must
    /// escaped and non-ASCII keys, which bypass it.
    @Test func keysThatShareACacheSlotStayApart() throws {
        let lines = (0..<4).map { index in
            index % 2 == 0 ? #"{"aXbcde":\#(index),"aYbcde":\#(index),"caf\u00e9":1,"é":2}"#
                           : #"{"aYbcde":\#(index),"aZbcde":\#(index)}"#
        }
        let (values, failures) = try read(lines.joined(separator: "\n"), name: "slots.ndjson")
        #expect(failures.isEmpty)
        #expect(values == [#"{"aXbcde":0,"aYbcde":0,"café":1,"é":2}"#, #"{"aYbcde":1,"aZbcde":1}"#,
                           #"{"aXbcde":2,"aYbcde":2,"café":1,"é":2}"#, #"{"aYbcde":3,"aZbcde":3}"#])
    }

    /// Members are gathered on a stack kept across records: a record that fails inside nested
    /// objects must leave nothing behind for the next, and a nested object's keys are not its parent's.
    @Test func aRecordFailingInsideNestedObjectsLeavesNothingForTheNext() throws {
        let text = """
            {"a":{"b":{"c":1,"d":[1,{"e":2}],"f":tru}}}
            {"b":{"a":1},"a":{"b":2}}
            {"x":{"y":1},"y":2,"x":3}
            {"z":1}
            """
        let (values, failures) = try read(text, name: "nested.ndjson")
        #expect(values == [#"{"a":{"b":2},"b":{"a":1}}"#, #"{"z":1}"#])
        #expect(failures.map(\.record) == [1, 3] && failures.allSatisfy(\.recoverable))
    }

    /// Line numbers come from the scan that finds a record's end across reads of the file (4-byte
    /// reads), or from the reader that reads a whole object in place (one read): the same either way.
    @Test(arguments: [4, 1 << 20])
    func recordsKeepTheLineTheyStartOn(chunkSize: Int) throws {
        let text = "[\n  {\n    \"a\": \"x\\\"y\"\n  },\n\n  {\"a\": 2},\n  3,\n  {\"b\":\n[1,\n2]}\n]\n"
        let stream = try JSONRecordStream(path: try directory.write(text, to: "pretty-\(chunkSize).json"), chunkSize: chunkSize)
        var lines: [Int] = []
        while let record = try stream.next() { lines.append(record.line) }
        #expect(lines == [2, 6, 7, 8])
    }

    /// Objects whole in the buffer are read in place; values spread over reads of the file,
    /// scalars and bad records are bounded by the structural scan instead: the same results.
    @Test func linesValuesOverLinesAndValuesSharingALineAllRead() throws {
        let text = "{\"a\":1}\r\n{\"a\":\n  2}\n{\"a\":3} {\"a\":4}\n\"five\"\n6\n{\"a\":tru}\n{\"a\":7}"
        let stream = try JSONRecordStream(path: try directory.write(text, to: "mixed.ndjson"), chunkSize: 8)
        var values: [String] = [], lines: [Int] = [], failures: [String] = []
        while !stream.isFinished {
            do {
                guard let record = try stream.next() else { break }
                values.append(JSONWriter.string(record.value))
                lines.append(record.line)
            } catch {
                failures.append("record \(error.record ?? 0): \(error.error)")
            }
        }
        #expect(values == [#"{"a":1}"#, #"{"a":2}"#, #"{"a":3}"#, #"{"a":4}"#, #""five""#, "6", #"{"a":7}"#])
        #expect(lines == [1, 2, 4, 4, 5, 6, 8])
        #expect(failures == ["record 7: line 7, column 6, at a: unexpected 't'"])
    }

    /// Records a caller reads in place keep their numbers and lines, and the others come as
    /// `next()` gives them, errors included: taken or not, the stream goes on as without it.
    /// Small reads leave records cut at the buffer's end, which the caller cannot take whole.
    @Test(arguments: [8, 64, 1 << 20])
    func recordsReadInPlaceKeepTheirNumbersAndLines(chunkSize: Int) throws {
        let text = "[\n{\"take\":1},\n{\"keep\":2},\n  {\"take\":\n3}, \"four\",{\"take\":tru},\n{\"take\":6}\n]"
        let path = try directory.write(text, to: "in-place-\(chunkSize).json")
        let stream = try JSONRecordStream(path: path, chunkSize: chunkSize)
        var seen: [String] = []
        while !stream.isFinished {
            var taken: String?
            do {
                let next = try stream.next { bytes -> Int? in
                    guard let (members, length) = JSONInPlaceReaderTests.members(String(decoding: bytes, as: UTF8.self)),
                          members.first?.hasPrefix("take=") == true else { return nil }
                    taken = members[0]
                    return length
                }
                switch next {
                case .readInPlace(let number, let line)?: seen.append("\(number)@\(line) in place \(taken!)")
                case .record(let record)?: seen.append("\(record.number)@\(record.line) \(JSONWriter.string(record.value))")
                case nil: break
                }
            } catch {
                seen.append("\(error.record ?? 0) failed")
            }
        }
        // As next() reads the same file, with what was read in place written back as its record.
        var plain: [String] = []
        let again = try JSONRecordStream(path: path, chunkSize: chunkSize)
        while !again.isFinished {
            do {
                guard let record = try again.next() else { break }
                plain.append("\(record.number)@\(record.line) \(JSONWriter.string(record.value))")
            } catch {
                plain.append("\(error.record ?? 0) failed")
            }
        }
        #expect(seen.map { $0.replacingOccurrences(of: " in place take=", with: #" {"take":"#) + ($0.contains(" in place ") ? "}" : "") } == plain)
        #expect(plain == ["1@2 {\"take\":1}", #"2@3 {"keep":2}"#, "3@4 {\"take\":3}", #"4@5 "four""#, "5 failed", "6@6 {\"take\":6}"])
        if chunkSize == 1 << 20 {
            #expect(seen.filter { $0.contains(" in place ") }.count == 3, "\(seen)")
        }
    }

    @Test func aMissingCommaBetweenElementsEndsTheFile() throws {
        let (values, failures) = try read("[{\"a\":1} {\"a\":2}]", name: "comma.json")
        #expect(values == [#"{"a":1}"#])
        #expect(failures.count == 1 && failures[0].recoverable == false)
    }
}
