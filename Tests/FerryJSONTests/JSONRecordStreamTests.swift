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

    @Test func aMissingCommaBetweenElementsEndsTheFile() throws {
        let (values, failures) = try read("[{\"a\":1} {\"a\":2}]", name: "comma.json")
        #expect(values == [#"{"a":1}"#])
        #expect(failures.count == 1 && failures[0].recoverable == false)
    }
}
