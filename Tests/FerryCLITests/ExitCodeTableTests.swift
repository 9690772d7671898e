import FerryTestSupport
import Foundation
import GRDB
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
            ("dump", ["dump", path]), ("check", ["check", path]), ("convert", ["convert", path, "--to", out("convert-\(kind).ferry")]),
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

    /// A store another process holds locked is "try again later" (75) for every command that
    /// would write it or copy it, with one line that says so; nothing is written, no backup left.
    @Test func aLockedStoreIsTryAgainLater() throws {
        let store = out("locked.ferry")
        let made = try CommandRunner.ferry(["convert", "Samples/brewguide/recipes.json", "--to", store])
        #expect(made.status == 0, "\(made.stderr)")
        let bundle = out("locked.tar.zst")
        #expect(try CommandRunner.ferry(["export", store, "-o", bundle]).status == 0)
        #expect(try CommandRunner.ferry(["backup", store]).status == 0)
        let coreData = out("locked.sqlite")
        try FileManager.default.copyItem(atPath: "Samples/forager/Forager.sqlite", toPath: coreData)
        let dump = out("forager-dump")
        #expect(try CommandRunner.ferry(["dump", coreData, "-o", dump]).status == 0)
        let forager = TestPaths.formats.appendingPathComponent("legacy/Forager.xcdatamodel").path
        let commands: [(store: String, arguments: [String])] = [
            (store, ["convert", "Samples/brewguide/recipes.json", "--to", store]),
            (store, ["export", store, "-o", out("locked-2.tar.zst")]),
            (store, ["import", bundle, "--to", store]), (store, ["import", bundle, "--to", store, "--merge"]),
            (store, ["backup", store]), (store, ["restore", store]),
            (coreData, ["load", dump, "--model", forager, "--to", coreData]),
        ]
        let backupsBefore = StoreFixtures.listing(store + ".backups")
        for command in commands {
            // SQLite's locks belong to processes: this one holds it while Ferry runs.
            let holder = try DatabaseQueue(path: command.store)
            let result = try holder.inDatabase { db -> CommandResult in
                try db.execute(sql: "BEGIN EXCLUSIVE")
                defer { try? db.execute(sql: "ROLLBACK") }
                return try CommandRunner.ferry(command.arguments)
            }
            try holder.close()
            #expect(result.status == 75, "\(command.arguments.joined(separator: " ")): \(result.stderr)")
            #expect(result.stderr == "ferry: error: \(command.store): the store is locked by another process; try again when it is done\n",
                    "\(command.arguments.joined(separator: " ")): \(result.stderr)")
        }
        #expect(StoreFixtures.listing(store + ".backups") == backupsBefore)
        #expect(!FileManager.default.fileExists(atPath: out("locked-2.tar.zst")))
        #expect(!FileManager.default.fileExists(atPath: coreData + ".backups"))
    }

    /// An output nobody may create (root included: /proc takes no files) is 73, one line.
    @Test func anUnwritableOutputCannotBeCreated() throws {
        let store = out("source.ferry")
        #expect(try CommandRunner.ferry(["convert", "Samples/brewguide/recipes.json", "--to", store]).status == 0)
        let bundle = out("source.tar.zst")
        #expect(try CommandRunner.ferry(["export", store, "-o", bundle]).status == 0)
        let forager = TestPaths.formats.appendingPathComponent("legacy/Forager.xcdatamodel").path
        let dump = out("source-dump")
        #expect(try CommandRunner.ferry(["dump", "Samples/forager/Forager.sqlite", "-o", dump]).status == 0)
        let commands: [[String]] = [
            ["convert", "Samples/brewguide/recipes.json", "--to", "/proc/ferry.ferry"],
            ["convert", "Samples/brewguide/recipes.json", "--to", out("r.ferry"), "--report", "/proc/ferry.json"],
            ["export", store, "-o", "/proc/ferry.tar.zst"], ["import", bundle, "--to", "/proc/ferry.ferry"],
            ["load", dump, "--model", forager, "--to", "/proc/ferry.sqlite"], ["dump", "Samples/forager/Forager.sqlite", "-o", "/proc/ferry-dump"],
        ]
        for arguments in commands {
            let result = try CommandRunner.ferry(arguments)
            #expect(result.status == 73, "\(arguments.joined(separator: " ")): \(result.stderr)")
            let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("ferry: error: ") }
            #expect(errors.count == 1 && errors[0].hasPrefix("ferry: error: /proc/ferry"), "\(arguments.joined(separator: " ")): \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: out("r.ferry")))
    }

    /// Usage errors read like every other error, and exit 64.
    @Test func usageErrorsHaveFerrysStyle() throws {
        for arguments in [["diff", "Formats/legacy/Molten.xcdatamodeld", "--old-version", "Molten 5"], ["convert"], ["nosuch"], ["dump", "--bogus"]] {
            let result = try CommandRunner.ferry(arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix("ferry: error: ") && !result.stderr.contains("Error: "), "\(arguments): \(result.stderr)")
        }
    }
}
