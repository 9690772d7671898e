import FerryTestSupport
import Foundation
import Testing

/// Convert parks links to records not seen yet in SQLite's temporary folder; a folder without
/// room for them fails the conversion with the folder named, and no store appears.
@Suite struct ConvertTemporarySpaceTests {
    let directory = TemporaryDirectory("ferry-convert-tmp")

    @Test(.enabled(if: ExportTemporarySpaceTests.canMountPrivately, "needs unshare(1) and user namespaces"))
    func aFullTemporaryFolderFailsTheConversionAndNamesIt() throws {
        // 12,000 logs naming recipes that never come, in batches of 5,000: 1.3 MB of parked links.
        var lines: [String] = []
        for number in 0..<12_000 {
            lines.append(#"{"summary":{"id":"\#(String(format: "%08X-0000-4000-8000-000000000000", number))","method":"v60","rating":3,"recipeId":"\#(String(format: "%08X-1111-4111-8111-111111111111", number))","recipeNameAtBrew":"R","timestamp":782639100}}"#)
        }
        let input = try directory.write(lines.joined(separator: "\n"), to: "logs.ndjson")
        let roomy = directory.url.appendingPathComponent("roomy.ferry").path
        let normal = try CommandRunner.ferry(["convert", input, "--from", "brewguide", "--to", roomy])
        #expect(normal.status == 0, "\(normal.stderr)")

        let tiny = directory.url.appendingPathComponent("tiny")
        try FileManager.default.createDirectory(at: tiny, withIntermediateDirectories: true)
        let store = directory.url.appendingPathComponent("cramped.ferry").path
        let script = "mount -t tmpfs -o size=64k none '\(tiny.path)' && SQLITE_TMPDIR='\(tiny.path)' exec '\(CommandRunner.ferry)' convert '\(input)' --from brewguide --to '\(store)'"
        let result = try CommandRunner.run("/usr/bin/unshare", ["-rm", "/bin/sh", "-c", script])
        #expect(result.status != 0)
        #expect(result.stderr.contains("parked links (temporary file in \(tiny.path))") && result.stderr.contains("No space left on device"),
                "\(result.stderr)")
        #expect(result.stderr.contains("error: \(store): "), "the store named, not its temporary file: \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: store))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == ["logs.ndjson", "roomy.ferry", "tiny"])
    }
}
