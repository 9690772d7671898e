import FerryTestSupport
import Foundation
import GRDB
import Testing

/// `ferry export`, `verify`, `import`, `backup`, `backups` and `restore` as a user runs them.
@Suite struct BundleCommandTests {
    let directory = TemporaryDirectory("ferry-cli-bundle")

    func path(_ name: String) -> String { directory.url.appendingPathComponent(name).path }

    func sampleStore(_ name: String = "data.ferry") throws -> String {
        let store = path(name)
        let result = try ferry("convert", "Samples", "--to", store)
        #expect(result.status == 0, "\(result.stderr)")
        return store
    }

    @Test func exportVerifyImportFromTheCommandLine() throws {
        let store = try sampleStore()
        let bundle = path("data.zip")
        let exported = try ferry("export", store, "-o", bundle)
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stderr.contains("ferry: exported \(store) to \(bundle) (zip, bundle "))

        let verified = try ferry("verify", bundle, "--format", "json")
        #expect(verified.status == 0)
        let report = try json(verified)
        #expect(report["valid"] as? Bool == true)
        #expect((report["counts"] as? [String: Int])?["recipe"] == 8)
        #expect((report["problems"] as? [Any])?.isEmpty == true)

        let imported = try ferry("import", bundle, "--to", path("copy.ferry"))
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try TableContents(path: store).withoutFerrysOwnTables == TableContents(path: path("copy.ferry")).withoutFerrysOwnTables)

        let again = try ferry("export", store, "-o", bundle)
        #expect(again.status == 73)
        #expect(again.stderr == "ferry: error: \(bundle): the file exists; remove it or choose another name (bundles are never overwritten)\n")
    }

    @Test func verifyListsEachProblemAndExitsNonZero() throws {
        let store = try sampleStore()
        let bundle = path("data.tar.zst")
        #expect(try ferry("export", store, "-o", bundle).status == 0)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: bundle)))
        bytes[bytes.count / 2] ^= 0x10
        try Data(bytes).write(to: URL(fileURLWithPath: bundle))
        let result = try ferry("verify", bundle)
        #expect(result.status == 1)
        // Where the flipped bit lands in the compressed stream decides which: content that no
        // longer matches its manifest, or a stream the decompressor refuses.
        #expect(result.stdout.contains("\(bundle): corrupt: ") || result.stdout.contains("\(bundle): unreadable: "), "\(result.stdout)")
        // The cause, then what follows from it (the seal of the changed bytes) counted apart.
        #expect(result.stdout.range(of: #"[0-9]+ problems?( and [0-9]+ consequences? of (it|them))?\n$"#, options: .regularExpression) != nil, "\(result.stdout)")

        let refused = try ferry("import", bundle, "--to", path("target.ferry"))
        #expect(refused.status == 65)
        #expect(refused.stderr.hasPrefix("ferry: error: \(bundle): not a valid bundle ("), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("target.ferry")))

        let missing = try ferry("verify", path("nothing.tar.zst"))
        #expect(missing.status == 66 && missing.stderr == "ferry: error: \(path("nothing.tar.zst")): no such file\n")
    }

    @Test func backupBackupsAndRestore() throws {
        let store = try sampleStore()
        let before = try TableContents(path: store)
        let backup = try ferry("backup", store, "--keep", "2")
        #expect(backup.status == 0)
        let first = backup.stdout.trimmingCharacters(in: .newlines)
        #expect(first.hasPrefix(store + ".backups/data-") && first.hasSuffix(".ferry"))
        #expect(try TableContents(path: first) == before)

        // Change the store, then put the backup back.
        let queue = try DatabaseQueue(path: store)
        try queue.write { try $0.execute(sql: "UPDATE recipe SET title = 'changed'; DELETE FROM recipe_tag") }
        try queue.close()
        let changed = try TableContents(path: store)
        let restored = try ferry("restore", store)
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(restored.stderr.contains("ferry: restored \(store) from \(first)"))
        #expect(try TableContents(path: store) == before)

        let listed = try ferry("backups", store, "--format", "json")
        let backups = try json(listed)["backups"] as? [[String: Any]] ?? []
        #expect(backups.count == 2)   // the first backup, and the changed store as it was before the restore
        let safety = backups.last?["path"] as? String ?? ""
        #expect(try TableContents(path: safety) == changed)

        // Rotation keeps the newest two, and says what it removed.
        for _ in 0..<3 {
            let stem = ((store as NSString).lastPathComponent as NSString).deletingPathExtension
            let kept = StoreFixtures.listing(store + ".backups").filter { $0.hasPrefix(stem + "-") }.sorted()
            let oldest = kept.first
            let count = kept.count
            let rotated = try ferry("backup", store, "--keep", "2")
            #expect(rotated.status == 0)
            if count >= 2, let oldest {
                #expect(rotated.stderr.contains("removed 1 older backup beyond --keep 2: \(oldest)"), "\(rotated.stderr)")
            } else {
                #expect(!rotated.stderr.contains("removed"), "\(rotated.stderr)")
            }
        }
        #expect(try ferry("backups", store).stdout.split(separator: "\n").count == 2)

        // Nothing where a store or its backups should be is missing input (66), for every backup command.
        let none = try ferry("restore", path("other.ferry"))
        #expect(none.status == 66, "\(none.stderr)")
        #expect(none.stderr.contains("there are no backups in \(path("other.ferry")).backups/ to restore from"))
        let noStore = try ferry("backup", path("other.ferry"))
        #expect(noStore.status == 66 && noStore.stderr.contains("other.ferry: no such store"), "\(noStore.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("other.ferry.backups")))
        let noList = try ferry("backups", path("other.ferry"))
        #expect(noList.status == 66 && noList.stderr.contains("no such store, and no backups"), "\(noList.stderr)")
        let noBackup = try ferry("restore", store, "--from", path("nope.ferry"))
        #expect(noBackup.status == 66 && noBackup.stderr.contains("no such backup"), "\(noBackup.stderr)")
    }

    /// A store in WAL mode (Core Data's, so the stores `convert --as core-data` writes; a canonical
    /// store someone switched) is backed up and exported without a `-wal` or `-shm` left beside it,
    /// and without a change to its bytes: only what the command makes is new.
    @Test func readingAStoreInWALModeLeavesNothingBesideIt() throws {
        let store = path("Ferry.sqlite")
        let made = try ferry("convert", "Samples/brewguide", "--as", "core-data", "--to", store)
        #expect(made.status == 0, "\(made.stderr)")
        let header = try Data(contentsOf: URL(fileURLWithPath: store))
        #expect(header.count > 100 && header[18] == 2 && header[19] == 2, "written in WAL mode")
        let backup = try ferry("backup", store)
        #expect(backup.status == 0, "\(backup.stderr)")
        let copy = backup.stdout.trimmingCharacters(in: .newlines)
        #expect(StoreFixtures.listing(directory.url.path) == ["Ferry.sqlite", "Ferry.sqlite.backups", "Ferry.sqlite.backups/" + (copy as NSString).lastPathComponent])
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == header)
        let objects = "SELECT (SELECT count(*) FROM ZLOG), (SELECT count(*) FROM ZRECIPE)"
        let counts = try [store, copy].map { file in try DatabaseQueue(path: file).read { try Row.fetchOne($0, sql: objects) } }
        #expect(counts[0] == counts[1] && counts[0]?[0] as Int? ?? 0 > 0, "\(counts)")

        let canonical = try sampleStore("wal.ferry")
        let queue = try DatabaseQueue(path: canonical)
        #expect(try queue.writeWithoutTransaction { try String.fetchOne($0, sql: "PRAGMA journal_mode = WAL") } == "wal")
        try queue.close()
        let before = StoreFixtures.listing(directory.url.path)
        #expect(before.contains("wal.ferry") && !before.contains("wal.ferry-wal"))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: canonical))
        let exported = try ferry("export", canonical, "-o", path("wal.zip"))
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(StoreFixtures.listing(directory.url.path) == (before + ["wal.zip"]).sorted())
        #expect(try Data(contentsOf: URL(fileURLWithPath: canonical)) == bytes)
    }

    @Test func restoreRefusesABackupThatIsNotAFerryStore() throws {
        let store = try sampleStore()
        let before = try TableContents(path: store)
        let bogus = try directory.write("not a database at all, just text", to: "bogus.ferry")
        let result = try ferry("restore", store, "--from", bogus)
        #expect(result.status != 0 && result.stderr.hasPrefix("ferry: error: \(bogus): "), "\(result.stderr)")
        #expect(try TableContents(path: store) == before)
    }
}
