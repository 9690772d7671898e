import FerryTestSupport
import Foundation
import Testing

/// Export sorts each table in SQLite's temporary folder; a folder without room for that makes
/// it walk the key's index instead, for the same bundle, not fail.
@Suite struct ExportTemporarySpaceTests {
    let directory = TemporaryDirectory("ferry-export-tmp")

    /// A private mount namespace (unshare(1), no privileges needed where user namespaces are
    /// allowed) gives the test a tiny file system of its own. Some sandboxes allow the namespace
    /// but not the mount, so the probe mounts one.
    static let canMountPrivately: Bool = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
        let probe = TemporaryDirectory("ferry-mount-probe")
        let script = "mount -t tmpfs -o size=64k none '\(probe.url.path)' && touch '\(probe.url.path)/x'"
        return (try? CommandRunner.run("/usr/bin/unshare", ["-rm", "/bin/sh", "-c", script]).status) == 0
    }()

    @Test(.enabled(if: canMountPrivately, "needs unshare(1) and user namespaces"))
    func aFullTemporaryFolderGivesTheSameBundle() throws {
        // 20,000 brew logs: the log table (about 6 MB) is larger than the sorter's memory.
        var lines: [String] = []
        for number in 0..<20_000 {
            lines.append(#"{"summary":{"id":"\#(String(format: "%08X-0000-4000-8000-%012X", number &* 2_654_435_761 % 4_294_967_296, number))","method":"v60","rating":3,"recipeNameAtBrew":"R","timestamp":782639100},"doseGrams":15,"notes":"\#(String(repeating: "n", count: 200))"}"#)
        }
        let input = try directory.write(lines.joined(separator: "\n"), to: "logs.ndjson")
        let store = directory.url.appendingPathComponent("logs.ferry").path
        #expect(try CommandRunner.ferry(["convert", input, "--from", "brewguide", "--to", store]).status == 0)

        let roomy = directory.url.appendingPathComponent("roomy")
        let cramped = directory.url.appendingPathComponent("cramped")
        let tiny = directory.url.appendingPathComponent("tiny")
        for folder in [roomy, cramped, tiny] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let normal = try CommandRunner.ferry(["export", store, "-o", roomy.appendingPathComponent("logs.tar.zst").path])
        #expect(normal.status == 0, "\(normal.stderr)")

        let script = "mount -t tmpfs -o size=64k none '\(tiny.path)' && SQLITE_TMPDIR='\(tiny.path)' exec '\(CommandRunner.ferry)' export '\(store)' -o '\(cramped.appendingPathComponent("logs.tar.zst").path)'"
        let result = try CommandRunner.run("/usr/bin/unshare", ["-rm", "/bin/sh", "-c", script])
        #expect(result.status == 0, "\(result.stderr)")
        let expected = try Data(contentsOf: roomy.appendingPathComponent("logs.tar.zst"))
        #expect(try Data(contentsOf: cramped.appendingPathComponent("logs.tar.zst")) == expected)
    }
}
