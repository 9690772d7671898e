import FerryFiles
import FerryStore
import FerryTestSupport
import Foundation
import Testing

/// Ctrl-C, `kill` and SIGKILL during every command that writes, on a store of 200,000 logs:
/// an interrupted run exits as a shell expects, leaves the target byte for byte as it was and
/// nothing beside it or in the temp folder; a killed run's leftovers are removed, and named, by
/// the next run that writes the same target.
@Suite(.serialized) struct InterruptionTests {
    static let logs = 200_000
    let directory = TemporaryDirectory("ferry-interrupt")

    /// The inputs every case starts from, made once: a canonical store of 200,000 logs, the same
    /// logs as BrewGuide NDJSON, a bundle of the store, and a dump of a Core Data store of them.
    struct Fixtures {
        var store: String
        var logs: String
        var bundle: String
        var dump: String
        var model: String
    }

    func path(_ name: String) -> String { directory.url.appendingPathComponent(name).path }

    func fixtures() throws -> Fixtures {
        let logs = path("logs.ndjson")
        try Self.writeBrewLogs(count: Self.logs, to: logs)
        let store = path("store.ferry")
        try expectSuccess(ferry("convert", logs, "--from", "brewguide", "--to", store))
        let bundle = path("store.tar.zst")
        try expectSuccess(ferry("export", store, "-o", bundle, "--no-view"))
        let coreData = path("coredata.sqlite")
        try expectSuccess(ferry("convert", logs, "--from", "brewguide", "--to", coreData, "--as", "core-data"))
        let model = TestPaths.formats.appendingPathComponent("canonical/Ferry.xcdatamodeld").path
        let dump = path("dump")
        try expectSuccess(ferry("dump", coreData, "--model", model, "-o", dump))
        return Fixtures(store: store, logs: logs, bundle: bundle, dump: dump, model: model)
    }

    func expectSuccess(_ result: CommandResult, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 0, "\(result.stderr.suffix(600))", sourceLocation: sourceLocation)
    }

    /// BrewGuide's log DTOs, one per line, as the sample's first log with a new id each.
    static func writeBrewLogs(count: Int, to path: String) throws {
        let sample = try String(contentsOf: TestPaths.samples.appendingPathComponent("brewguide/brewlogs.ndjson"), encoding: .utf8)
        let template = String(sample.split(separator: "\n")[0])
        let id = "B9B9B9B9-1111-4222-8333-444444444444"
        #expect(template.contains(id))
        var text = ""
        text.reserveCapacity(count * (template.utf8.count + 1))
        for number in 0..<count {
            text += template.replacingOccurrences(of: id, with: String(format: "%08X-0000-4000-8000-%012X", number, number))
            text += "\n"
        }
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    /// One case: a folder holding the target (a copy of `seed`, or nothing), a private temp folder.
    struct Case {
        var folder: String
        var temporary: String
        var target: String
        var before: [String: Data]
    }

    func makeCase(_ name: String, target: String, seed: String?) throws -> Case {
        let folder = path(name), temporary = path(name + ".tmp")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        let targetPath = (folder as NSString).appendingPathComponent(target)
        if let seed { try FileManager.default.copyItem(atPath: seed, toPath: targetPath) }
        return Case(folder: folder, temporary: temporary, target: targetPath, before: try contents(of: folder))
    }

    /// Every file in a folder (hidden ones and those in subfolders included) with its bytes.
    func contents(of folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in StoreFixtures.listing(folder) {
            let file = (folder as NSString).appendingPathComponent(name)
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: file, isDirectory: &isFolder)
            files[name] = isFolder.boolValue ? Data() : try Data(contentsOf: URL(fileURLWithPath: file))
        }
        return files
    }

    /// Runs ferry as a shell runs a command in the foreground: every signal at its default
    /// action and none blocked (a test runner's threads may block or ignore some, and a spawned
    /// process inherits both), with `TMPDIR` set to the case's temp folder; sends `signal` after
    /// `delay` seconds (0: none).
    /// - Returns: the exit status (minus the signal's number when a signal ended it), what it
    ///   printed on stderr, and whether it was still running when signalled.
    func run(_ arguments: [String], in item: Case, signal: Int32, after delay: Double) throws -> (status: Int32, stderr: String, signalled: Bool) {
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = item.temporary
        let errors = Pipe()
        let pid = try Self.spawn([CommandRunner.ferry] + arguments, environment: environment, stderr: errors.fileHandleForWriting.fileDescriptor)
        try errors.fileHandleForWriting.close()
        // Read while it runs, so that a full pipe never holds it up.
        let text = OutputBox()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { text.data = errors.fileHandleForReading.readDataToEndOfFile() }
        usleep(useconds_t(delay * 1_000_000))
        let signalled = signal != 0 && kill(pid, 0) == 0 && kill(pid, signal) == 0
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        group.wait()
        let exited = status & 0x7f == 0
        return (exited ? (status >> 8) & 0xff : -(status & 0x7f), String(decoding: text.data, as: UTF8.self), signalled)
    }

    static func spawn(_ arguments: [String], environment: [String: String], stderr: Int32) throws -> pid_t {
        // An opaque pointer on Apple's systems, a struct on Linux.
        #if canImport(Darwin)
        var attributes: posix_spawnattr_t? = nil
        var actions: posix_spawn_file_actions_t? = nil
        #else
        var attributes = posix_spawnattr_t()
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), defaults = sigset_t()
        sigemptyset(&none)
        sigemptyset(&defaults)
        for number in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
        guard result == 0 else { throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "posix_spawn: \(String(cString: strerror(result)))"]) }
        return pid
    }

    /// Interrupts the command at each delay with SIGINT and SIGTERM; each interrupted run must
    /// leave the case's folder and temp folder as they were. Returns how many runs were interrupted.
    func interrupt(_ name: String, target: String, seed: String?, delays: [Double],
                   _ arguments: (_ target: String) -> [String]) throws -> Int {
        var interrupted = 0
        for (signal, status) in [(SIGINT, Int32(130)), (SIGTERM, Int32(143))] {
            for delay in delays {
                let item = try makeCase("\(name)-\(signal)-\(delay)", target: target, seed: seed)
                let result = try run(arguments(item.target), in: item, signal: signal, after: delay)
                let note = "\(name) after \(delay) s, signal \(signal)"
                if result.status == 0 { continue }  // finished before the signal came
                if result.stderr.contains(") after ") {
                    // The signal came after the output was published: the run's work stands, the
                    // backup of what it replaced with it, and nothing else is left.
                    try expectPublishedWhole(item, result, status: status, note: note)
                    continue
                }
                interrupted += 1
                #expect(result.status == status, "\(note): \(result.stderr.suffix(400))")
                #expect(result.stderr.contains("interrupted"), "\(note): \(result.stderr.suffix(400))")
                let after = try contents(of: item.folder)
                #expect(after.keys.sorted() == item.before.keys.sorted(), "\(note): the folder holds \(after.keys.sorted())")
                #expect(after == item.before, "\(note): the target changed")
                #expect(StoreFixtures.listing(item.temporary).isEmpty, "\(note): the temp folder holds \(StoreFixtures.listing(item.temporary))")
            }
        }
        return interrupted
    }

    /// A run signalled after it renamed its output into place: it exits as signalled and names
    /// the output; the target is there, and what it held before is kept whole as its one backup
    /// (or, for `ferry backup`, the target is as it was beside its new backup); nothing else is
    /// new beside it or in the temp folder.
    func expectPublishedWhole(_ item: Case, _ result: (status: Int32, stderr: String, signalled: Bool), status: Int32, note: String) throws {
        #expect(result.status == status, "\(note): \(result.stderr.suffix(400))")
        let after = try contents(of: item.folder)
        let target = (item.target as NSString).lastPathComponent
        #expect(after[target].map { !$0.isEmpty } == true, "\(note): the output is missing or empty")
        let added = Set(after.keys).subtracting(item.before.keys)
        let backups = added.filter { $0.hasPrefix(target + ".backups/") }
        #expect(added.subtracting(backups).subtracting([target + ".backups"]).isEmpty, "\(note): the folder holds \(after.keys.sorted())")
        #expect(backups.allSatisfy { !$0.contains(".partial") } && backups.count <= 1, "\(note): the backups are \(backups.sorted())")
        if let old = item.before[target] {
            #expect(backups.count == 1 && backups.first.flatMap { after[$0] } == old, "\(note): the old target was not kept whole as its backup")
        }
        #expect(StoreFixtures.listing(item.temporary).isEmpty, "\(note): the temp folder holds \(StoreFixtures.listing(item.temporary))")
    }

    /// Kills the command, then runs it again to the end: the second run removes and names what
    /// the first left, and leaves nothing of its own.
    func killThenRerun(_ name: String, target: String, seed: String?, after delay: Double,
                       _ arguments: (_ target: String) -> [String]) throws {
        let item = try makeCase("\(name)-killed", target: target, seed: seed)
        let killed = try run(arguments(item.target), in: item, signal: SIGKILL, after: delay)
        guard killed.signalled else { return }
        let left = StoreFixtures.listing(item.folder).filter { $0.contains(".ferry-") } + StoreFixtures.listing(item.temporary)
        let again = try run(arguments(item.target), in: item, signal: 0, after: 0)
        #expect(again.status == 0, "\(name): \(again.stderr.suffix(600))")
        if !left.isEmpty {
            #expect(again.stderr.contains("leftover"), "\(name): the second run did not say what it removed: \(again.stderr.prefix(600))")
        }
        let remaining = StoreFixtures.listing(item.folder).filter { $0.contains(".ferry-") || $0.contains(".partial") }
        #expect(remaining.isEmpty, "\(name): \(remaining)")
        #expect(StoreFixtures.listing(item.temporary).isEmpty, "\(name): \(StoreFixtures.listing(item.temporary))")
    }

    @Test func everyWritingCommandLeavesNothingWhenInterrupted() throws {
        let fixtures = try fixtures()
        let delays = [0.3, 1.0, 2.5]
        let cases: [(name: String, target: String, seed: String?, arguments: @Sendable (String) -> [String])] = [
            ("convert", "store.ferry", fixtures.store, { ["convert", fixtures.logs, "--from", "brewguide", "--to", $0] }),
            ("export", "out.tar.zst", nil, { ["export", fixtures.store, "-o", $0] }),
            ("import", "store.ferry", fixtures.store, { ["import", fixtures.bundle, "--to", $0] }),
            ("merge", "store.ferry", fixtures.store, { ["import", fixtures.bundle, "--to", $0, "--merge"] }),
            ("backup", "store.ferry", fixtures.store, { ["backup", $0] }),
            ("load", "loaded.sqlite", nil, { ["load", fixtures.dump, "--model", fixtures.model, "--to", $0] }),
        ]
        var counts: [String: Int] = [:]
        for item in cases {
            counts[item.name] = try interrupt(item.name, target: item.target, seed: item.seed, delays: delays, item.arguments)
        }
        print("interrupted runs per command (of \(delays.count * 2)): \(counts.sorted { $0.key < $1.key })")
        for item in cases where item.name != "backup" {
            #expect(counts[item.name, default: 0] > 0, "\(item.name) always finished before the signal")
        }
        // Two at a time: one after another, these six runs to the end were the last 150 s of CI's
        // whole test run, on one core.
        let reruns = cases.map { item in { @Sendable in try killThenRerun(item.name, target: item.target, seed: item.seed, after: 1.0, item.arguments) } }
        _ = try ParallelJobs.run(reruns, threads: 2)
    }

    #if os(Linux)
    /// SQLite's temporary files and Ferry's parked links are made and unlinked at once; a signal
    /// between the two would leave one in the temp folder. They go in a folder the run made and
    /// registered instead (`SQLITE_TMPDIR` points there), which an interruption removes whole.
    /// The run is stopped until it holds a file open in the temp folder; its /proc entry says where.
    @Test func temporaryFilesGoInAFolderOfTheRunsOwn() throws {
        let item = try makeCase("own-temporary", target: "store.ferry", seed: nil)
        let logs = path("own-temporary.ndjson")
        try Self.writeBrewLogs(count: Self.logs, to: logs)
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = item.temporary
        environment["SQLITE_TMPDIR"] = nil
        let pid = try Self.spawn([CommandRunner.ferry, "convert", logs, "--from", "brewguide", "--to", item.target], environment: environment, stderr: 2)
        var seen: (listing: [String], open: [String])?
        for _ in 0..<300 {
            usleep(100_000)
            guard kill(pid, SIGSTOP) == 0 else { break }
            let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
            let open = fds.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)") }
                .filter { $0.hasPrefix(item.temporary + "/") }
            if !open.isEmpty {
                seen = (StoreFixtures.listing(item.temporary), open)
                break
            }
            kill(pid, SIGCONT)
        }
        kill(pid, SIGINT)
        kill(pid, SIGCONT)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}

        let (listing, open) = try #require(seen, "the run never held a file open in the temp folder")
        let name = try #require(listing.first)
        #expect(listing == [name], "the temp folder held \(listing)")
        #expect(name.hasPrefix("ferry-tmp.ferry-\(ScratchFiles.hostTag)-\(pid)-") && name.hasSuffix(".partial"), "\(name)")
        let folder = item.temporary + "/" + name + "/"
        #expect(open.allSatisfy { $0.hasPrefix(folder) && $0.hasSuffix(" (deleted)") }, "\(open)")
        #expect(status & 0x7f == 0 && (status >> 8) & 0xff == 130, "status \(status)")
        #expect(StoreFixtures.listing(item.temporary).isEmpty, "\(StoreFixtures.listing(item.temporary))")
        #expect(!FileManager.default.fileExists(atPath: item.target))
    }
    #endif

    /// A reader that goes away (`ferry dump … | head`) ends the run as it ends any command in a
    /// pipeline, 141 and nothing said; a full disk under `> file` is said, with 74. Either way
    /// the run's temporary folder goes with it (a signal's death would have left it).
    @Test func aClosedPipeOrAFullOutputEndsTheRunAndLeavesNothing() throws {
        let store = path("pipe.sqlite")
        let model = TestPaths.formats.appendingPathComponent("canonical/Ferry.xcdatamodeld").path
        try expectSuccess(ferry("convert", TestPaths.samples.appendingPathComponent("brewguide").path, "--as", "core-data", "--to", store))
        let commands = [["inspect", model], ["dump", store, "--model", model]]
        for (number, arguments) in commands.enumerated() {
            for full in [false, true] {
                let temporary = path("pipe-\(number)-\(full).tmp")
                try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
                let process = Process()
                process.executableURL = URL(fileURLWithPath: CommandRunner.ferry)
                process.arguments = arguments
                var environment = ProcessInfo.processInfo.environment
                environment["TMPDIR"] = temporary
                environment["SQLITE_TMPDIR"] = nil
                process.environment = environment
                let errors = Pipe()
                process.standardError = errors
                let output = Pipe()
                if full {
                    process.standardOutput = try #require(FileHandle(forWritingAtPath: "/dev/full"))
                } else {
                    // No reader from the start: the first write fails.
                    process.standardOutput = output
                    try output.fileHandleForReading.close()
                }
                try process.run()
                let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                let note = "\(arguments[0]) into \(full ? "/dev/full" : "a closed pipe")"
                #expect(process.terminationReason == .exit, "\(note): ended by a signal")
                #expect(process.terminationStatus == (full ? 74 : 141), "\(note): \(process.terminationStatus) \(said)")
                #expect(said.contains("ferry: error: cannot write the output: No space left on device") == full, "\(note): \(said)")
                #expect(StoreFixtures.listing(temporary).isEmpty, "\(note): \(StoreFixtures.listing(temporary))")
            }
        }
    }

    @Test func cleanListsThenRemovesOnlyDeadRunsLeftovers() throws {
        let folder = path("clean")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // A process that has exited: its id names no running process (until reused, which would keep the files).
        let dead = Process()
        dead.executableURL = URL(fileURLWithPath: "/bin/true")
        try dead.run()
        dead.waitUntilExit()
        let host = ScratchFiles.hostTag
        let deadName = ".data.ferry.ferry-\(host)-\(dead.processIdentifier)-0123abcd.partial"
        let liveName = ".data.ferry.ferry-\(host)-\(getpid())-89abcdef.partial"
        // Another machine's (a shared folder): its process id says nothing here.
        let otherHostName = ".data.ferry.ferry-\(host == "00000000" ? "11111111" : "00000000")-\(dead.processIdentifier)-0123abcd.partial"
        let kept = [liveName, otherHostName, "data.ferry", ".hidden-but-not-ferrys.partial"]
        for name in [deadName, deadName + "-journal"] + kept {
            _ = FileManager.default.createFile(atPath: (folder as NSString).appendingPathComponent(name), contents: Data("x".utf8))
        }
        // A temp folder of its own: dead runs' leftovers in the shared one are not this test's.
        let temporary = path("clean.tmp")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = temporary
        environment["SQLITE_TMPDIR"] = nil
        let clean = { (arguments: [String]) in try CommandRunner.run(CommandRunner.ferry, arguments, environment: environment) }
        let listed = try clean(["clean", folder, "--dry-run"])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains(deadName) && listed.stdout.contains(deadName + "-journal"), "\(listed.stdout)")
        #expect(!listed.stdout.contains(liveName), "a live process's file was listed: \(listed.stdout)")
        #expect(!listed.stdout.contains(otherHostName), "another machine's file was listed: \(listed.stdout)")
        #expect(listed.stderr.contains("would remove 2 leftovers"), "\(listed.stderr)")
        #expect(StoreFixtures.listing(folder).count == 6, "--dry-run removed something")

        let removed = try clean(["clean", folder])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(StoreFixtures.listing(folder) == kept.sorted())

        // Bad input is named, with the codes every command uses.
        let missing = try CommandRunner.ferry(["clean", folder + "/nope"])
        #expect(missing.status == 66 && missing.stderr == "ferry: error: \(folder)/nope: no such folder\n", "\(missing.stderr)")
        let file = try CommandRunner.ferry(["clean", (folder as NSString).appendingPathComponent("data.ferry")])
        #expect(file.status == 65 && file.stderr.contains("is a file"), "\(file.stderr)")
    }
}

private final class OutputBox: @unchecked Sendable {
    var data = Data()
}

