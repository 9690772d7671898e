import FerryTestSupport
import Foundation
import GRDB
import Testing

/// `convert`, `export` and `backup` killed at random moments; read-only targets; a store locked
/// by another process. Each leaves the old state or the new one, and says what went wrong.
@Suite(.serialized) struct FaultInjectionTests {
    let directory = TemporaryDirectory("ferry-cli-faults")

    func path(_ name: String) -> String { directory.url.appendingPathComponent(name).path }

    /// BrewGuide logs as NDJSON, enough that converting them takes a measurable time.
    func logs(_ count: Int) throws -> String {
        var text = ""
        for number in 0..<count {
            text += #"{"summary":{"id":"\#(String(format: "%08X-0000-4000-8000-000000000001", number))","method":"v60","rating":3,"recipeNameAtBrew":"R","timestamp":782639100},"doseGrams":15}"# + "\n"
        }
        return try directory.write(text, to: "in/logs.ndjson")
    }

    func duration(_ arguments: String...) throws -> Double {
        let start = Date()
        let result = try ferry(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return Date().timeIntervalSince(start)
    }

    func ferry(_ arguments: [String]) throws -> CommandResult {
        try CommandRunner.ferry(arguments, in: TestPaths.packageRoot)
    }

    /// Files with final (not hidden) names under `folder`, outside hidden staging folders.
    func finalNames(in folder: String) -> [String] {
        StoreFixtures.listing(folder).filter { name in
            !name.split(separator: "/").contains { $0.hasPrefix(".") }
        }
    }

    @Test func killedConversionsLeaveTheOldStoreOrTheNew() throws {
        let input = try logs(8_000)
        let old = path("old.ferry")
        #expect(try ferry(["convert", "Samples", "--to", old]).status == 0)
        let newStore = path("new.ferry")
        try FileManager.default.copyItem(atPath: old, toPath: newStore)
        let time = try duration("convert", input, "--to", newStore)
        let states = [try TableContents(path: old), try TableContents(path: newStore)]
        for run in 0..<20 {
            let folder = path("convert-\(run)")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let store = folder + "/store.ferry"
            // Even runs convert into an existing store, odd runs create one.
            if run % 2 == 0 { try FileManager.default.copyItem(atPath: old, toPath: store) }
            try CommandRunner.ferryKilled(["convert", input, "--to", store], after: Double.random(in: 0...(time * 1.1)))
            if FileManager.default.fileExists(atPath: store) {
                // The next ferry command rolls back what the killed one left unfinished (a hot journal).
                let next = try ferry(["backup", store])
                #expect(next.status == 0, "run \(run): \(next.stderr)")
                #expect(try StoreFixtures.integrityProblems(store) == [], "run \(run)")
                let contents = try TableContents(path: store)
                if run % 2 == 0 {
                    #expect(states.contains { $0.tables.filter { $0.key != "import_run" } == contents.tables.filter { $0.key != "import_run" } },
                            "run \(run): neither the old store nor the converted one")
                } else {
                    #expect(contents.tables["log"]?.count == 8_000, "run \(run): a new store appeared incomplete")
                }
            } else {
                #expect(run % 2 == 1, "run \(run): the existing store disappeared")
            }
            for name in finalNames(in: folder) where name.hasSuffix(".ferry") {
                #expect(try StoreFixtures.integrityProblems(folder + "/" + name) == [], "run \(run): \(name)")
            }
        }
    }

    @Test func killedExportsAndBackupsLeaveNoPartialFiles() throws {
        let input = try logs(8_000)
        let store = path("store.ferry")
        #expect(try ferry(["convert", input, "--to", store]).status == 0)
        let exportTime = try duration("export", store, "-o", path("probe.tar.zst"))
        let backupTime = try duration("backup", store)
        for run in 0..<20 {
            let folder = path("export-\(run)")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let bundle = folder + "/store.tar.zst"
            try CommandRunner.ferryKilled(["export", store, "-o", bundle], after: Double.random(in: 0...(exportTime * 1.1)))
            if FileManager.default.fileExists(atPath: bundle) {
                let verified = try ferry(["verify", bundle])
                #expect(verified.status == 0, "run \(run): \(verified.stdout)")
            }
            #expect(finalNames(in: folder).allSatisfy { $0 == "store.tar.zst" }, "run \(run): \(finalNames(in: folder))")
        }
        let backups = store + ".backups"
        for run in 0..<20 {
            try CommandRunner.ferryKilled(["backup", store, "--keep", "100"], after: Double.random(in: 0...(backupTime * 1.1)))
            for name in finalNames(in: backups) {
                #expect(try StoreFixtures.integrityProblems(backups + "/" + name) == [], "run \(run): \(name)")
                #expect(try TableContents(path: backups + "/" + name) == TableContents(path: store), "run \(run): \(name)")
            }
        }
    }

    @Test func aReadOnlyTargetGivesACleanError() throws {
        // /proc refuses new files even to root, which a chmod'ed folder would not.
        let convert = try ferry(["convert", "Samples/brewguide", "--to", "/proc/ferry-test.ferry"])
        #expect(convert.status == 73, "\(convert.stderr)")
        #expect(convert.stderr.hasPrefix("ferry: error: /proc/ferry-test.ferry: cannot create the store: "), "\(convert.stderr)")
        let store = path("store.ferry")
        #expect(try ferry(["convert", "Samples/brewguide", "--to", store]).status == 0)
        let export = try ferry(["export", store, "-o", "/proc/ferry-test.tar.zst"])
        #expect(export.status == 73 && export.stderr.hasPrefix("ferry: error: /proc/ferry-test.tar.zst: cannot create a staging folder"), "\(export.stderr)")
        let imported = try ferry(["import", "/dev/null", "--to", "/proc/ferry-test.ferry"])
        #expect(imported.status == 73, "\(imported.stderr)")
    }

    @Test func aStoreLockedByAnotherProcessIsNamed() throws {
        let store = path("store.ferry")
        #expect(try ferry(["convert", "Samples/brewguide", "--to", store]).status == 0)
        let before = try TableContents(path: store)
        // Another process holds a write lock until its input ends.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = ["sqlite3", store]
        let input = Pipe()
        holder.standardInput = input
        holder.standardOutput = FileHandle.nullDevice
        try holder.run()
        input.fileHandleForWriting.write(Data("BEGIN EXCLUSIVE;\nSELECT 1;\n".utf8))
        usleep(300_000)
        defer {
            try? input.fileHandleForWriting.close()
            holder.waitUntilExit()
        }
        let convert = try ferry(["convert", "Samples/roots", "--to", store])
        #expect(convert.status == 75 || convert.status == 73, "\(convert.stderr)")
        #expect(convert.stderr.contains("locked") || convert.stderr.contains("busy"), "\(convert.stderr)")
        input.fileHandleForWriting.write(Data("ROLLBACK;\n".utf8))
        try input.fileHandleForWriting.close()
        holder.waitUntilExit()
        #expect(try TableContents(path: store) == before)
    }
}
