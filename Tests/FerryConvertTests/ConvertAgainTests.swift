import FerryCanonical
import FerryConvert
import FerryStore
import FerryTestSupport
import Foundation
import GRDB
import Testing

/// Converting into a store that holds the records already: only what changed is written
/// (Formats/canonical-schema.md, "Record digests"), and the store ends as a full rewrite would
/// leave it.
@Suite struct ConvertAgainTests {
    let directory = TemporaryDirectory("ferry-convert-again")

    /// BrewGuide's sample logs and recipes, copied where a test may change them.
    func inputs() throws -> (logs: URL, recipes: URL) {
        let folder = directory.url.appendingPathComponent("input")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let logs = folder.appendingPathComponent("brewlogs.ndjson"), recipes = folder.appendingPathComponent("recipes.json")
        let samples = TestPaths.samples.appendingPathComponent("brewguide")
        for (from, to) in [("brewlogs.ndjson", logs), ("recipes.json", recipes)] where !FileManager.default.fileExists(atPath: to.path) {
            try FileManager.default.copyItem(at: samples.appendingPathComponent(from), to: to)
        }
        return (logs, recipes)
    }

    func convert(_ inputs: [URL], dryRun: Bool = false, batchSize: Int = 5_000) throws -> (path: String, report: ConversionReport) {
        let store = directory.url.appendingPathComponent("brews.ferry").path
        let report = try ConversionJob(inputs: inputs.map(\.path), store: store, options: ConversionOptions(batchSize: batchSize), dryRun: dryRun).run()
        return (store, report)
    }

    /// The samples' store switched to WAL mode, with the first log's note edited there and the
    /// change moved into the file or left in the `-wal`; `whileOpen` runs before the editing
    /// connection closes. Returns the store and the inputs to convert again.
    func storeEditedInWALMode(checkpointed: Bool, whileOpen: (String) throws -> Void = { _ in }) throws -> (store: String, inputs: [URL]) {
        let (logs, recipes) = try inputs()
        let (store, _) = try convert([recipes, logs])
        let queue = try DatabaseQueue(path: store)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
            try db.execute(sql: "UPDATE log SET note = 'edited in WAL mode' WHERE id = ?", arguments: [Self.firstLog])
            if checkpointed { try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        }
        try whileOpen(store)
        try queue.close()
        return (store, [recipes, logs])
    }

    /// The log snapshots' rowids by log: a snapshot written again gets a new one.
    func snapshotRows(_ store: String) throws -> [String: Int64] {
        let queue = try DatabaseQueue(path: store)
        defer { try? queue.close() }
        return try queue.read { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT log_id, rowid FROM log_snapshot").map { ($0[0] as String, $0[1] as Int64) })
        }
    }

    func note(of log: String, in store: String) throws -> String? {
        let queue = try DatabaseQueue(path: store)
        defer { try? queue.close() }
        return try queue.read { try String.fetchOne($0, sql: "SELECT note FROM log WHERE id = ?", arguments: [log]) }
    }

    /// Every canonical row; Ferry's own tables left out (the digests' stamp moves with every commit).
    func canonicalContents(_ store: String) throws -> TableContents {
        try TableContents(path: store).withoutFerrysOwnTables
    }

    static let firstLog = "B9B9B9B9-1111-4222-8333-444444444444"
    static let secondLog = "BAB0BAB0-1111-4222-8333-444444444444"

    @Test func theSameInputAgainWritesNoRecord() throws {
        let (logs, recipes) = try inputs()
        let (store, first) = try convert([recipes, logs])
        #expect(first.changes["log"] == RecordChanges(new: 3) && first.changes["recipe"]?.new ?? 0 > 0)
        let before = try canonicalContents(store), rows = try snapshotRows(store)

        let (_, again) = try convert([recipes, logs])
        #expect(again.changes["log"] == RecordChanges(unchanged: 3))
        #expect(again.changes["recipe"] == RecordChanges(unchanged: first.changes["recipe"]?.new ?? -1))
        #expect(again.counts == first.counts, "the counts say the input's rows, written or found as they are")
        #expect(try canonicalContents(store) == before)
        #expect(try snapshotRows(store) == rows, "no snapshot was deleted and written again")
        #expect(again.text.contains("unchanged, not written again: 2 recipe, 3 log"))
    }

    @Test func onlyTheChangedAndNewRecordsAreWritten() throws {
        let (logs, recipes) = try inputs()
        let (store, _) = try convert([recipes, logs])
        let rows = try snapshotRows(store)

        var lines = try String(contentsOf: logs, encoding: .utf8).split(separator: "\n").map(String.init)
        lines[1] = lines[1].replacingOccurrences(of: #""doseGrams":16"#, with: #""doseGrams":16,"note":"Second thoughts""#)
        let added = lines[0].replacingOccurrences(of: Self.firstLog, with: "C0C0C0C0-1111-4222-8333-444444444444")
        try (lines + [added]).joined(separator: "\n").write(to: logs, atomically: true, encoding: .utf8)

        let (_, again) = try convert([recipes, logs])
        #expect(again.changes["log"] == RecordChanges(new: 1, changed: 1, unchanged: 2))
        #expect(try note(of: Self.secondLog, in: store) == "Second thoughts")
        let after = try snapshotRows(store)
        #expect(after[Self.firstLog] == rows[Self.firstLog], "an unchanged log's snapshot stays where it was")
        #expect(after["C0C0C0C0-1111-4222-8333-444444444444"] != nil)

        // And the store is what a conversion into a new store makes of the same input.
        let fresh = directory.url.appendingPathComponent("fresh.ferry").path
        _ = try ConversionJob(inputs: [recipes.path, logs.path], store: fresh).run()
        var mine = try canonicalContents(store), theirs = try canonicalContents(fresh)
        (mine.tables["import_run"], theirs.tables["import_run"]) = (nil, nil)
        #expect(mine == theirs, "\(mine.differences(from: theirs))")
    }

    /// Logs are looked up by their keys, in key order: the input's order does not matter.
    @Test func theSameLogsInAnotherOrderAreFoundUnchanged() throws {
        let (logs, recipes) = try inputs()
        let (store, _) = try convert([recipes, logs])
        let before = try canonicalContents(store)
        let lines = try String(contentsOf: logs, encoding: .utf8).split(separator: "\n").map(String.init)
        try lines.reversed().joined(separator: "\n").write(to: logs, atomically: true, encoding: .utf8)
        let (_, again) = try convert([recipes, logs])
        #expect(again.changes["log"] == RecordChanges(unchanged: 3))
        #expect(try canonicalContents(store) == before)
    }

    @Test func aStoreChangedOutsideFerryIsWrittenWholeAgain() throws {
        let (logs, recipes) = try inputs()
        let (store, _) = try convert([recipes, logs])
        let queue = try DatabaseQueue(path: store)
        try queue.write { try $0.execute(sql: "UPDATE log SET note = 'edited by hand' WHERE id = ?", arguments: [Self.firstLog]) }
        try queue.close()

        let (_, again) = try convert([recipes, logs])
        #expect(try note(of: Self.firstLog, in: store) == "Slightly bright")
        #expect(again.changes["log"] == RecordChanges(changed: 3), "with its digests forgotten, every record is written again")
        let (_, third) = try convert([recipes, logs])
        #expect(third.changes["log"] == RecordChanges(unchanged: 3), "the digests are kept again")
    }

    /// Commits in WAL mode leave the header's change counter alone: a store in WAL mode has its
    /// digests forgotten whatever the counter says.
    @Test func aStoreChangedInWALModeIsWrittenWholeAgain() throws {
        let (store, inputs) = try storeEditedInWALMode(checkpointed: true)
        let (_, again) = try convert(inputs)
        #expect(try note(of: Self.firstLog, in: store) == "Slightly bright")
        #expect(again.changes["log"] == RecordChanges(changed: 3))
    }

    /// Logs written before their recipe came (a batch of one record each) have their link
    /// restored at the end; the rows then differ from the digest taken when the log was written,
    /// which is forgotten.
    @Test func logsWhoseLinksWereRestoredLateAreWrittenAgainOnce() throws {
        let (logs, recipes) = try inputs()
        let (store, first) = try convert([logs, recipes], batchSize: 1)
        #expect(first.changes["log"] == RecordChanges(new: 3))
        let queue = try DatabaseQueue(path: store)
        let digested = try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM ferry_record_digest WHERE record_table = 3") }
        try queue.close()
        #expect(digested == 1, "the two logs that name a recipe were changed after their digests were taken")
        let before = try canonicalContents(store)
        let (_, second) = try convert([logs, recipes], batchSize: 1)
        let after = try canonicalContents(store)
        #expect(after == before, "\(after.differences(from: before))")
        let secondLogs = try #require(second.changes["log"])
        #expect(secondLogs.unchanged < 3 && secondLogs.new == 0, "a log filled late is not judged by its first rows")
        let (_, third) = try convert([logs, recipes], batchSize: 1)
        #expect(third.changes["log"] == RecordChanges(unchanged: 3))
        #expect(try canonicalContents(store) == before)
    }

    @Test func aDryRunSaysWhatWouldChange() throws {
        let (logs, recipes) = try inputs()
        let (store, _) = try convert([recipes, logs])
        let before = try TableContents(path: store)
        let (_, dry) = try convert([recipes, logs], dryRun: true)
        #expect(dry.changes["log"] == RecordChanges(unchanged: 3))
        #expect(try TableContents(path: store) == before)
    }

    /// A dry run reads a store in WAL mode whose `-wal` still holds committed pages (its writer
    /// stopped before a checkpoint) without moving them into the file: the store and its `-wal`
    /// keep their bytes, and the dry run sees the WAL's change.
    @Test func aDryRunLeavesAStoreWithPagesInItsWALAsItIs() throws {
        // The files as the writer left them, copied while it is open: a writer that was stopped.
        let stopped = directory.url.appendingPathComponent("stopped.ferry").path
        let (_, inputs) = try storeEditedInWALMode(checkpointed: false) { store in
            try FileManager.default.copyItem(atPath: store, toPath: stopped)
            try FileManager.default.copyItem(atPath: store + "-wal", toPath: stopped + "-wal")
        }
        let (file, wal) = (try Data(contentsOf: URL(fileURLWithPath: stopped)), try Data(contentsOf: URL(fileURLWithPath: stopped + "-wal")))
        #expect(wal.count > 32, "the WAL holds pages")
        let report = try ConversionJob(inputs: inputs.map(\.path), store: stopped, options: ConversionOptions(), dryRun: true).run()
        #expect(report.changes["log"] == RecordChanges(changed: 3), "in WAL mode its digests are not trusted: \(report.changes)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: stopped)) == file)
        #expect(try Data(contentsOf: URL(fileURLWithPath: stopped + "-wal")) == wal)
    }
}
