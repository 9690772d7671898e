import Foundation
import Testing

/// Compares output with a golden file. `FERRY_RECORD=1` rewrites the file and fails the test,
/// so that a recording is never mistaken for a pass.
public enum Golden {
    public static func check(_ actual: String, against file: URL,
                             sourceLocation: SourceLocation = #_sourceLocation) throws {
        if ProcessInfo.processInfo.environment["FERRY_RECORD"] == "1" {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: file)
            Issue.record("recorded \(file.lastPathComponent); run again without FERRY_RECORD", sourceLocation: sourceLocation)
            return
        }
        guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
            Issue.record("missing golden file \(file.path); run with FERRY_RECORD=1 to create it", sourceLocation: sourceLocation)
            return
        }
        if expected != actual {
            let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
            let index = Array(zip(expectedLines, actualLines)).firstIndex { $0 != $1 } ?? min(expectedLines.count, actualLines.count)
            let want = index < expectedLines.count ? String(expectedLines[index]) : "<end>"
            let got = index < actualLines.count ? String(actualLines[index]) : "<end>"
            Issue.record("\(file.lastPathComponent) differs at line \(index + 1): expected \(want), got \(got)",
                         sourceLocation: sourceLocation)
        }
    }
}
