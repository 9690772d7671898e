import FerryJSON
import FerryTestSupport
import Foundation
import Testing

/// Lines read in bounded memory are the file's lines, numbered as a split of the whole file
/// numbers them, whatever the buffer's size; an object is skipped to its end by brackets and strings.
@Suite struct NDJSONLinesTests {
    static func lines(of text: String, chunkSize: Int) throws -> [(String, Int)] {
        let directory = TemporaryDirectory()
        let path = try directory.write(text, to: "records.ndjson")
        var lines: [(String, Int)] = []
        try NDJSONLines(path: path, chunkSize: chunkSize).forEach { bytes, number in
            lines.append((String(decoding: bytes, as: UTF8.self), number))
        }
        return lines
    }

    @Test(arguments: [16, 17, 64, 1 << 20])
    func linesAreTheFilesLinesAcrossEveryBuffer(_ chunkSize: Int) throws {
        let long = String(repeating: "é", count: 100)
        let text = "{\"a\":1}\n\n  \n{\"b\":\"\(long)\"}\r\n{\"c\":[1,2,3]}\nlast without a break"
        let read = try Self.lines(of: text, chunkSize: chunkSize)
        // By bytes: as characters, "\r\n" is one and would not split.
        let split = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        #expect(read.map(\.0) == split)
        #expect(read.map(\.1) == Array(1...split.count))
    }

    /// Cut at every byte, a file's two ranges give each line once, whole, to the range it starts
    /// in: numbered on from the first range's count, at the offsets where the lines start.
    @Test(arguments: [16, 1 << 20])
    func rangesShareTheLinesOfTheWhole(_ chunkSize: Int) throws {
        let long = String(repeating: "é", count: 40)
        let text = "{\"a\":1}\n\n  \n{\"b\":\"\(long)\"}\r\n{\"c\":[1,2,3]}\nlast without a break"
        let directory = TemporaryDirectory()
        let path = try directory.write(text, to: "records.ndjson")
        let bytes = Array(text.utf8)
        let whole = try Self.lines(of: text, chunkSize: chunkSize)
        for cut in 0...bytes.count + 1 {
            var lines: [(String, Int)] = []
            var counted = 0
            for range in [0..<cut, cut..<Int.max] {
                let before = counted
                counted += try NDJSONLines(path: path, chunkSize: chunkSize).forEach(startingIn: range) { line, number, offset in
                    #expect(range.contains(offset), "cut \(cut): a line starting at \(offset)")
                    #expect(Array(bytes[offset..<offset + line.count]) == Array(line), "cut \(cut)")
                    lines.append((String(decoding: line, as: UTF8.self), before + number))
                }
            }
            #expect(lines.map(\.0) == whole.map(\.0), "cut \(cut)")
            #expect(lines.map(\.1) == whole.map(\.1), "cut \(cut)")
            #expect(counted == whole.count, "cut \(cut)")
        }
    }

    @Test func aFileEndingInALineBreakHasNoEmptyLastLine() throws {
        let read = try Self.lines(of: "one\ntwo\n", chunkSize: 16)
        #expect(read.map(\.0) == ["one", "two"])
        #expect(try Self.lines(of: "", chunkSize: 16).isEmpty)
    }

    @Test func aMissingFileIsNamed() {
        let failure = #expect(throws: NDJSONLines.Failure.self) { try NDJSONLines(path: "/nonexistent/records.ndjson").forEach { _, _ in } }
        #expect(failure?.path == "/nonexistent/records.ndjson")
        #expect(failure?.reason.isEmpty == false)
    }

    /// Quotes, brackets and braces inside strings, escaped quotes and backslashes are no ends.
    @Test func skippingAnObjectEndsAtItsOwnBrace() throws {
        let text = #"{"values":{"a":"}]\"{","b":["\\",{"c":"\\\""}],"d":{}},"id":"x"}"#
        let bytes = Array(text.utf8)
        let id = try bytes.withUnsafeBufferPointer { buffer -> String in
            var reader = JSONInPlaceReader(buffer)
            try reader.beginObject()
            #expect(try reader.nextKey().map { String(decoding: $0, as: UTF8.self) } == "values")
            try reader.skipContainerUnchecked()
            #expect(try reader.nextKey().map { String(decoding: $0, as: UTF8.self) } == "id")
            let id = String(decoding: try reader.string(), as: UTF8.self)
            #expect(try reader.nextKey() == nil)
            #expect(reader.position == bytes.count)
            return id
        }
        #expect(id == "x")
        // Unterminated, or not a container: given up.
        for broken in [#"{"values":{"a":"}"#, #"{"values":"text"}"#] {
            let gaveUp = Array(broken.utf8).withUnsafeBufferPointer { buffer -> Bool in
                var reader = JSONInPlaceReader(buffer)
                do {
                    try reader.beginObject()
                    _ = try reader.nextKey()
                    try reader.skipContainerUnchecked()
                    return false
                } catch {
                    return true
                }
            }
            #expect(gaveUp, "\(broken)")
        }
    }
}
