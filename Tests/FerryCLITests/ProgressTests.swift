import FerryTestSupport
import Foundation
import Testing

/// Large conversions show their progress when stderr is a terminal, and only then: logs and
/// pipes get the summary alone.
@Suite struct ProgressTests {
    let directory = TemporaryDirectory("ferry-progress")

    /// 9,000 brew logs: more than two progress steps (one per 4,096 records).
    func input() throws -> String {
        var lines: [String] = []
        for number in 0..<9_000 {
            lines.append(#"{"summary":{"id":"\#(String(format: "%08X-0000-4000-8000-000000000000", number))","method":"v60","rating":3,"recipeNameAtBrew":"R","timestamp":782639100},"doseGrams":15}"#)
        }
        return try directory.write(lines.joined(separator: "\n"), to: "logs.ndjson")
    }

    /// What a terminal shows while `ferry ARGUMENTS` runs (a shell command line): script(1) runs
    /// it on a pseudo-terminal, as a user's shell would.
    func onTerminal(_ arguments: String) throws -> String {
        let transcript = directory.url.appendingPathComponent("transcript-\(UUID().uuidString)").path
        let result = try CommandRunner.run("/usr/bin/script", ["-qfec", "\(CommandRunner.ferry) \(arguments)", transcript],
                                           environment: ["TERM": "xterm", "PATH": "/usr/bin:/bin"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        return try String(contentsOfFile: transcript, encoding: .utf8)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs script(1) for a terminal"))
    func aTerminalSeesRecordsThroughputAndTheLineCleared() throws {
        let input = try input()
        let store = directory.url.appendingPathComponent("tty.ferry").path
        let screen = try onTerminal("convert \(input) --from brewguide --to \(store)")
        // Redraws are at most five a second, so which counts appear depends on speed: the first
        // line always does, and the line is cleared before the summary.
        #expect(screen.contains("\r\u{1B}[Kferry: logs.ndjson: 0 records, 0.0 of "), "\(screen.prefix(600))")
        #expect(screen.contains("\r\u{1B}[Kferry: \(input): brewguide DTO JSON, 9000 records"), "\(screen.suffix(600))")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs script(1) for a terminal"))
    func anExportShowsRowsThenArchivingAndClearsTheLine() throws {
        let store = directory.url.appendingPathComponent("export.ferry").path
        #expect(try CommandRunner.ferry(["convert", try input(), "--from", "brewguide", "--to", store]).status == 0)
        let screen = try onTerminal("export \(store) -o \(directory.url.appendingPathComponent("export.tar.zst").path)")
        // 9,000 logs give 18,000 rows and more: the estimate is each table's largest rowid.
        #expect(screen.contains("\r\u{1B}[Kferry: export: 0 of about 18,0"), "\(screen.prefix(600))")
        #expect(screen.contains("\r\u{1B}[Kferry: export: archiving 0.0 of "), "\(screen.prefix(1200))")
        #expect(screen.contains("\r\u{1B}[Kferry: exported \(store)"), "\(screen.suffix(600))")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs script(1) for a terminal"))
    func anImportShowsUnpackingThenCheckingAndClearsTheLine() throws {
        let store = directory.url.appendingPathComponent("import-source.ferry").path
        let bundle = directory.url.appendingPathComponent("import.tar.zst").path
        #expect(try CommandRunner.ferry(["convert", try input(), "--from", "brewguide", "--to", store]).status == 0)
        #expect(try CommandRunner.ferry(["export", store, "-o", bundle]).status == 0)
        let imported = directory.url.appendingPathComponent("imported.ferry").path
        let screen = try onTerminal("import \(bundle) --to \(imported)")
        #expect(screen.contains("\r\u{1B}[Kferry: import: unpacking 0.0 of "), "\(screen.prefix(600))")
        #expect(screen.contains("\r\u{1B}[Kferry: import: checking the store, 0 of "), "\(screen.prefix(1200))")
        #expect(screen.contains("\r\u{1B}[Kferry: imported bundle "), "\(screen.suffix(600))")
    }

    @Test func aPipeGetsNoProgressLines() throws {
        let input = try input()
        let result = try CommandRunner.ferry(["convert", input, "--from", "brewguide", "--to", directory.url.appendingPathComponent("pipe.ferry").path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("\u{1B}["), "no terminal control codes in a pipe")
        #expect(!result.stderr.contains("MB/s"))
        #expect(result.stderr.contains("brewguide DTO JSON, 9000 records"))

        let exported = try CommandRunner.ferry(["export", directory.url.appendingPathComponent("pipe.ferry").path,
                                                "-o", directory.url.appendingPathComponent("pipe.tar.zst").path])
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(!exported.stderr.contains("\u{1B}["), "no terminal control codes in a pipe")
        #expect(exported.stderr.hasPrefix("ferry: exported "))

        let imported = try CommandRunner.ferry(["import", directory.url.appendingPathComponent("pipe.tar.zst").path,
                                                "--to", directory.url.appendingPathComponent("pipe-imported.ferry").path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(!imported.stderr.contains("\u{1B}["), "no terminal control codes in a pipe")
        #expect(imported.stderr.hasPrefix("ferry: imported bundle "))
    }
}
