import FerryTestSupport
import Foundation
import Testing

/// One exit code per kind of failure, whatever the command (the README's table): an input that
/// is not there is 66; one of the wrong kind (a folder where a file goes, a text file where a
/// store, model, bundle or dump goes) is 65, with one line that names it. `verify` reports a
/// file that is no bundle as its findings (1).
@Suite struct ExitCodeTableTests {
    let directory = TemporaryDirectory("ferry-exit-codes")

    enum Input: String, CaseIterable { case missing, folder, text }

    func input(_ kind: Input) throws -> String {
        let path = directory.url.appendingPathComponent("input-\(kind.rawValue)").path
        switch kind {
        case .missing: break
        case .folder: try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        case .text: try Data("hello\n".utf8).write(to: URL(fileURLWithPath: path))
        }
        return path
    }

    func out(_ name: String) -> String { directory.url.appendingPathComponent("out-\(name)").path }

    @Test(arguments: Input.allCases)
    func everyCommandGivesTheSameCodeForTheSameKindOfInput(_ kind: Input) throws {
        let path = try input(kind)
        let forager = TestPaths.formats.appendingPathComponent("legacy/Forager.xcdatamodel").path
        let commands: [(name: String, arguments: [String])] = [
            ("inspect", ["inspect", path]), ("lint", ["lint", path]), ("diff", ["diff", path]),
            ("dump", ["dump", path]), ("convert", ["convert", path, "--to", out("convert-\(kind).ferry")]),
            ("export", ["export", path, "-o", out("export-\(kind).tar.zst")]), ("verify", ["verify", path]),
            ("import", ["import", path, "--to", out("import-\(kind).ferry")]), ("backup", ["backup", path]),
            ("load", ["load", path, "--model", forager, "--to", out("load-\(kind).sqlite")]),
            ("decompile", ["decompile", path, "-o", out("decompile-\(kind).xcdatamodeld")]),
        ]
        for command in commands {
            let result = try CommandRunner.ferry(command.arguments)
            let expected: Int32 = kind == .missing ? 66 : (command.name == "verify" && kind == .text ? 1 : 65)
            #expect(result.status == expected, "\(command.name) of a \(kind) input: \(result.status), \(result.stderr.prefix(300))")
            #expect(!result.crashed)
            if result.status != 1 {
                let lines = result.stderr.split(separator: "\n")
                #expect(lines.count == 1 && lines[0].hasPrefix("ferry: error: \(path)"), "\(command.name) of a \(kind) input: \(result.stderr.prefix(300))")
            }
        }
        #expect(StoreFixtures.listing(directory.path).filter { $0.hasPrefix("out-") }.isEmpty, "a failed command wrote an output")
    }
}
