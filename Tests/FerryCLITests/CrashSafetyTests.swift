import FerryTestSupport
import Foundation
import GRDB
import Testing

/// `import` and `restore` killed with SIGKILL at random moments, and run out of disk space:
/// the store is always the old one or the new one, sound, and no partial file has a final name.
@Suite(.serialized) struct CrashSafetyTests {
    let directory = TemporaryDirectory("ferry-cli-crash")

    func path(_ name: String) -> String { directory.url.appendingPathComponent(name).path }

    /// The samples' store ("old") and a bundle of a larger store ("new"), large enough that importing
    /// it takes a measurable time.
    func fixtures() throws -> (old: String, new: String, bundle: String) {
        let old = path("old.ferry"), new = path("new.ferry"), bundle = path("new.tar.zst")
        #expect(try ferry("convert", "Samples", "--to", old).status == 0)
        try FileManager.default.copyItem(atPath: old, toPath: new)
        try StoreFixtures.inflate(new, logs: 20_000)
        #expect(try ferry("export", new, "-o", bundle).status == 0)
        return (old, new, bundle)
    }

    /// How long `body` takes, in seconds.
    func timed(_ body: () throws -> Void) rethrows -> Double {
        let start = Date()
        try body()
        return Date().timeIntervalSince(start)
    }

    /// Every name in the folder that is not hidden is a complete, sound store equal to one of `allowed`.
    /// - Parameter canonicalOnly: compare without Ferry's own tables (an import forgets the record
    ///   digests a bundle's store came with).
    func expectOnlyWholeFiles(in folder: String, allowed: [TableContents], canonicalOnly: Bool = false, _ note: String) throws {
        for name in StoreFixtures.listing(folder) where !name.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
            let file = (folder as NSString).appendingPathComponent(name)
            var isFolder: ObjCBool = false
            FileManager.default.fileExists(atPath: file, isDirectory: &isFolder)
            if isFolder.boolValue || name.hasSuffix("-journal") { continue }
            #expect(try StoreFixtures.integrityProblems(file) == [], "\(note): \(name)")
            let contents = try TableContents(path: file)
            #expect(canonicalOnly ? allowed.map(\.withoutFerrysOwnTables).contains(contents.withoutFerrysOwnTables) : allowed.contains(contents),
                    "\(note): \(name) is neither state")
        }
    }

    /// Runs ferry on a copy of the old store in a folder of its own and kills it at a random
    /// moment within `duration` (and a tenth): the store must be sound and one of `states`, and
    /// no partial file may have a final name. Returns what the store holds.
    func killedRun(_ name: String, old: String, states: [TableContents], duration: Double, canonicalOnly: Bool = false,
                   _ arguments: (_ store: String) -> [String]) throws -> TableContents {
        let folder = path(name)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let store = (folder as NSString).appendingPathComponent("store.ferry")
        try FileManager.default.copyItem(atPath: old, toPath: store)
        _ = try CommandRunner.ferryKilled(arguments(store), after: Double.random(in: 0...(duration * 1.1)))
        #expect(try StoreFixtures.integrityProblems(store) == [], "\(name)")
        var contents = try TableContents(path: store)
        if canonicalOnly { contents = contents.withoutFerrysOwnTables }
        #expect((canonicalOnly ? states.map(\.withoutFerrysOwnTables) : states).contains(contents), "\(name): the store is neither the old nor the new")
        try expectOnlyWholeFiles(in: folder, allowed: states, canonicalOnly: canonicalOnly, name)
        return contents
    }

    @Test func killedImportsLeaveTheOldStoreOrTheNew() throws {
        let (old, new, bundle) = try fixtures()
        // An import forgets the record digests the bundle's store came with.
        let states = [try TableContents(path: old).withoutFerrysOwnTables, try TableContents(path: new).withoutFerrysOwnTables]
        var probe = 0 as Int32
        let duration = try timed { probe = try ferry("import", bundle, "--to", path("probe.ferry")).status }
        #expect(probe == 0)
        var outcomes = [0, 0]
        for run in 0..<20 {
            let contents = try killedRun("import-\(run)", old: old, states: states, duration: duration, canonicalOnly: true) { ["import", bundle, "--to", $0] }
            outcomes[contents == states[0] ? 0 : 1] += 1
        }
        print("killed imports: \(outcomes[0]) left the old store, \(outcomes[1]) the new; an import takes \(duration) s")
    }

    @Test func killedRestoresLeaveTheOldStoreOrTheNew() throws {
        let (old, new, _) = try fixtures()
        let states = [try TableContents(path: old), try TableContents(path: new)]
        var probe = 0 as Int32
        let duration = try timed { probe = try ferry("restore", path("probe.ferry"), "--from", new).status }
        #expect(probe == 0)
        for run in 0..<20 {
            _ = try killedRun("restore-\(run)", old: old, states: states, duration: duration) { ["restore", $0, "--from", new] }
        }
    }

    /// `ulimit -f` stands in for a full disk: writes past the limit fail with EFBIG.
    func limited(_ kilobytes: Int, _ arguments: [String]) throws -> CommandResult {
        let quoted = arguments.map { "'\($0)'" }.joined(separator: " ")
        return try CommandRunner.run("/bin/bash", ["-c", "ulimit -f \(kilobytes) && exec '\(CommandRunner.ferry)' \(quoted)"])
    }

    @Test(.disabled(if: Sanitizers.thread, "ThreadSanitizer's runtime itself faults under ulimit -f"))
    func aFullDiskGivesACleanErrorAndNoPartialFiles() throws {
        let (old, new, bundle) = try fixtures()
        let before = try TableContents(path: old)
        let outputs = path("outputs")
        try FileManager.default.createDirectory(atPath: outputs, withIntermediateDirectories: true)

        let convert = try limited(32, ["convert", TestPaths.samples.appendingPathComponent("brewguide").path, "--to", outputs + "/converted.ferry"])
        #expect(convert.status == 73, "\(convert.stderr)")
        #expect(convert.stderr.hasPrefix("ferry: error: \(outputs)/converted.ferry: cannot create the store: in \(outputs): ")
                && convert.stderr.contains("the disk is full or the file is larger than allowed"), "\(convert.stderr)")
        #expect(StoreFixtures.listing(outputs) == [])

        let export = try limited(256, ["export", new, "-o", outputs + "/new.tar.zst"])
        #expect(export.status == 73 || export.status == 74, "\(export.stderr)")
        #expect(export.stderr.hasPrefix("ferry: error: ") && export.stderr.contains("the disk is full or the file is larger than allowed"), "\(export.stderr)")
        #expect(StoreFixtures.listing(outputs) == [])

        let store = outputs + "/store.ferry"
        try FileManager.default.copyItem(atPath: old, toPath: store)
        let imported = try limited(256, ["import", bundle, "--to", store])
        #expect(imported.status != 0 && imported.stderr.hasPrefix("ferry: error: "), "\(imported.stderr)")
        #expect(imported.stderr.contains("the file is larger than allowed"), "\(imported.stderr)")
        #expect(try TableContents(path: store) == before)
        #expect(StoreFixtures.listing(outputs) == ["store.ferry"])

        try FileManager.default.removeItem(atPath: store)
        try FileManager.default.copyItem(atPath: new, toPath: store)
        let backup = try limited(256, ["backup", store])
        #expect(backup.status == 73 && backup.stderr.hasPrefix("ferry: error: \(store): backup failed: "), "\(backup.stderr)")
        #expect(StoreFixtures.listing(outputs).filter { !$0.hasSuffix(".backups") } == ["store.ferry"])
        #expect(StoreFixtures.listing(store + ".backups") == [])
    }
}
