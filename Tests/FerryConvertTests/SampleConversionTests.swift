import FerryCanonical
import FerryConvert
import FerryJSON
import FerryStore
import FerryTestSupport
import FerryArchive
import Foundation
import GRDB
import Testing

/// Converts all of `Samples/` (the five apps, every input kind) and checks what arrives.
@Suite struct SampleConversionTests {
    let directory = TemporaryDirectory("ferry-convert")

    func convert(_ name: String = "samples.ferry", dryRun: Bool = false) throws -> (path: String, report: ConversionReport) {
        let store = directory.url.appendingPathComponent(name).path
        let report = try ConversionJob(inputs: [TestPaths.samples.path], store: store, options: ConversionOptions(openArchive: ArchiveReader.opener), dryRun: dryRun).run()
        return (store, report)
    }

    static let dateKeys: Set<String> = [
        "due", "dueBy", "dueDate", "dateAdded", "startedAt", "endedAt", "startDate", "endDate", "createdAt", "updatedAt",
        "generatedAt", "recommendedStartDate", "completedAt", "userEditedAt", "start", "end", "timestamp",
    ]
    /// Legacy enum values the apps themselves renamed (Roots' task types).
    static let aliases = ["problemSet": "homework", "practiceHomework": "homework", "examPrep": "exam", "meeting": "project"]
    /// Legacy values stored in other units: seconds as minutes, hours as seconds.
    static let unitChanges: [String: @Sendable (Double) -> Double] = [
        "estimatedTime": { $0 / 60 }, "estimated_time": { $0 / 60 }, "estimatedDuration": { $0 / 60 }, "hours_spent": { $0 * 3600 },
    ]

    /// The canonical text of a time, computed independently of Ferry's own date code.
    static func canonical(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }

    static func found(_ leaf: Leaf, in store: StoreValues) -> Bool {
        switch leaf.value {
        case .string(let text):
            if store.strings.contains(text) || store.strings.contains(text.uppercased()) { return true }
            if let alias = aliases[text], store.strings.contains(alias) { return true }
            if let date = ISO8601DateFormatter().date(from: text), store.strings.contains(canonical(date)) { return true }
            if let number = Double(text), store.numbers.contains(number) { return true }
            return false
        case .number(let number):
            guard let value = number.double else { return false }
            // Seconds since 2001, as JSONEncoder writes dates; `until._0` is Swift's enum coding of a date.
            if dateKeys.contains(leaf.key) || (leaf.key == "_0" && leaf.path.contains("until")) {
                return store.strings.contains(canonical(Date(timeIntervalSinceReferenceDate: value)))
            }
            if let change = unitChanges[leaf.key] { return store.numbers.contains(change(value)) }
            return store.numbers.contains(value)
        case .bool(let flag):
            return store.numbers.contains(flag ? 1 : 0)
        default:
            return true
        }
    }

    @Test func everyLeafValueOfEverySampleIsInTheStore() throws {
        let store = try StoreValues(path: try convert().path)
        let leaves = try SampleLeaves.all()
        #expect(leaves.count > 400, "the walk found \(leaves.count) leaves")
        let missing = leaves.filter { !Self.found($0, in: store) }
        #expect(missing.isEmpty, "\(missing.count) sample values are not in the store: \(missing.prefix(15).map(\.description))")
        // Distinctive values, named here so that a broken walk cannot pass unnoticed.
        for text in ["Sold at the October market", "sand; slightly finer than sea salt", "Dr. Franklin", "#34C759",
                     "3C4D5E6F-7A8B-4C9D-8E0F-2A3B4C5D6E7F/L0/001", "cim-511101-0", "Kiln notes"] {
            #expect(store.strings.contains(text), "\(text)")
        }
    }

    @Test func reportCountsAreTheStoreRows() throws {
        let (path, report) = try convert()
        let store = try CanonicalStore(path: path, readOnly: true)
        let rows = try store.rowCounts()
        #expect(report.counts == rows.filter { $0.value > 0 })
        #expect(rows["recipe"] == 8 && rows["project"] == 25 && rows["log"] == 14 && rows["catalog_item"] == 5)
        #expect(try store.check().isEmpty)
        #expect(report.rejected.isEmpty)
        #expect(report.skipped.map { ($0.path as NSString).lastPathComponent }.contains("tasks_cache_backup_1758000000.json"))
        let detected = Dictionary(report.inputs.map { (($0.path as NSString).lastPathComponent, $0.detected) }, uniquingKeysWith: { a, _ in a })
        #expect(detected["Molten.sqlite"]?.hasPrefix("molten store (model Formats/legacy (molten), version \"Molten 5\"") == true)
        #expect(detected["BrewGuide.store"] == "brewguide store (schema inferred from its tables)")
        #expect(detected["Boro Fish.molten"] == "molten .molten export")
        #expect(detected["glassitems.json"] == "molten glass catalog")
        #expect(detected["tasks.json"] == "roots tasks.json")
        try store.close()
    }

    @Test func convertingTwiceLeavesTheSameTablesAndABackup() throws {
        let (path, _) = try convert()
        let first = try TableContents(path: path)
        let (_, again) = try convert()
        // The digests' stamp moves with the commit; every other row stays.
        let second = try TableContents(path: path)
        #expect(first.withoutFerrysOwnTables == second.withoutFerrysOwnTables, "\(first.differences(from: second))")
        #expect(first.tables["ferry_record_digest"] == second.tables["ferry_record_digest"])
        let backup = try #require(again.backup)
        #expect(backup.hasPrefix(path + ".backups/samples-") && backup.hasSuffix(".ferry"))
        #expect(try TableContents(path: backup) == first)
        #expect(StoreBackup.backups(of: path) == [backup])
    }

    /// The backup is taken while the store's copy is being converted into: a conversion that
    /// fails there leaves the store as it was and no backup (nor a backups folder).
    @Test func aFailedConversionIntoAStoreLeavesNoBackup() throws {
        let (path, _) = try convert()
        let before = try TableContents(path: path)
        let bad = directory.url.appendingPathComponent("bad.ndjson").path
        let sample = try String(contentsOf: TestPaths.samples.appendingPathComponent("brewguide/brewlogs.ndjson"), encoding: .utf8)
        // Well-formed logs, then one cut off halfway.
        let lines = sample.split(separator: "\n").map(String.init)
        try (lines.joined(separator: "\n") + "\n" + lines[0].prefix(lines[0].count / 2) + "\n").write(toFile: bad, atomically: true, encoding: .utf8)
        let error = try #require(throws: ConversionError.self) {
            _ = try ConversionJob(inputs: [bad], store: path, options: ConversionOptions(openArchive: ArchiveReader.opener)).run()
        }
        #expect("\(error)".contains("bad.ndjson"), "\(error)")
        #expect(try TableContents(path: path) == before)
        #expect(!FileManager.default.fileExists(atPath: StoreBackup.folder(for: path)))
        #expect(StoreFixtures.listing(directory.url.path).filter { $0.contains(".ferry-") }.isEmpty)
    }

    @Test func backupsAreRotated() throws {
        let (path, _) = try convert()
        let rotation = StoreBackup(keep: 2)
        var made: [String] = []
        for second in 0..<4 {
            let taken = try rotation.backUp(path, now: Date(timeIntervalSince1970: 1_790_000_000 + Double(second)))
            made.append(taken.path)
            // What rotation removed is told: the oldest beyond two.
            #expect(taken.removed == (second >= 2 ? [made[second - 2]] : []))
        }
        #expect(StoreBackup.backups(of: path) == Array(made.suffix(2)))
        #expect(made.allSatisfy { ($0 as NSString).lastPathComponent.range(of: #"^samples-\d{8}T\d{6}\.\d{3}Z\.ferry$"#, options: .regularExpression) != nil })
    }

    @Test func inputsAreNeverModified() throws {
        let before = try FileBytes.snapshot(under: TestPaths.samples)
        _ = try convert()
        _ = try convert()
        let after = try FileBytes.snapshot(under: TestPaths.samples)
        #expect(before.keys.sorted() == after.keys.sorted(), "files appeared or vanished under Samples/")
        #expect(before == after)
    }

    @Test func dryRunWritesNothing() throws {
        let (path, report) = try convert(dryRun: true)
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(report.dryRun && report.counts["recipe"] == 8)
        _ = try convert()
        let before = try TableContents(path: path)
        let (_, dry) = try convert(dryRun: true)
        #expect(dry.backup == nil && StoreBackup.backups(of: path).isEmpty)
        #expect(try TableContents(path: path) == before)
    }

    /// The log keeps what it was made with; the recipe or project can change or go.
    @Test func editingOrDeletingARecipeLeavesItsLogsSnapshots() throws {
        let (path, _) = try convert()
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        let snapshots = { () throws -> [Row] in
            try queue.read { try Row.fetchAll($0, sql: "SELECT * FROM log_snapshot WHERE log_id IN ('B9B9B9B9-1111-4222-8333-444444444444', 'BAB0BAB0-1111-4222-8333-444444444444', '442EA563-EDE6-5B9B-A4F2-25B79D0B1307') ORDER BY log_id") }
        }
        let before = try snapshots()
        #expect(before.count == 3)
        try queue.write { db in
            try db.execute(sql: "UPDATE recipe SET title = 'Renamed' WHERE id = 'B0B0B0B0-1111-4222-8333-444444444444'")
            try db.execute(sql: "UPDATE recipe_parameter SET value = 99 WHERE recipe_id = 'B0B0B0B0-1111-4222-8333-444444444444'")
            try db.execute(sql: "UPDATE project SET title = 'Renamed' WHERE id = '0B000000-1111-4222-8333-444444444444'")
        }
        #expect(try snapshots() == before)
        try queue.write { db in
            try db.execute(sql: "DELETE FROM recipe WHERE id = 'B0B0B0B0-1111-4222-8333-444444444444'")
            try db.execute(sql: "DELETE FROM project WHERE id = '0B000000-1111-4222-8333-444444444444'")
        }
        #expect(try snapshots() == before)
        let links = try queue.read { try Row.fetchAll($0, sql: "SELECT recipe_id, project_id FROM log WHERE id IN ('B9B9B9B9-1111-4222-8333-444444444444', 'BAB0BAB0-1111-4222-8333-444444444444', '442EA563-EDE6-5B9B-A4F2-25B79D0B1307')") }
        #expect(links.count == 3 && links.allSatisfy { $0["recipe_id"] == nil && $0["project_id"] == nil })
        #expect(try queue.read { try Row.fetchAll($0, sql: "PRAGMA foreign_key_check") }.isEmpty)
        try queue.close()
    }

    @Test func snapshotsKeepTheLogsOwnValuesAndMarkWhatWasFilledIn() throws {
        let (path, report) = try convert()
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        func snapshot(_ log: String) throws -> Row? {
            try queue.read { try Row.fetchOne($0, sql: "SELECT * FROM log_snapshot WHERE log_id = ?", arguments: [log]) }
        }
        // A brew log recorded its own name and parameters: they stay, even where the recipe differs.
        let tweak = try #require(try snapshot("BAB0BAB0-1111-4222-8333-444444444444"))
        #expect(tweak["title"] == "V60 Balanced (my tweak)")
        let parameters = try JSONReader().read(Array((tweak["parameters"] as String).utf8))
        #expect(parameters["dose"]?["value"] == .integer(16))
        // It had no grind: that came from the recipe, and says so.
        #expect(parameters["grind"]?["text"] == "medium")
        #expect(tweak["is_reconstructed"] == true)
        #expect(tweak["reconstructed_fields"] == #"["parameters.grind","parameters.grindDescriptor"]"#)
        // A glass log keeps only the plan's id: its whole snapshot is reconstructed from the plan in the export.
        let fish = try #require(try snapshot("AAAAAAAA-1111-4222-8333-444444444444"))
        #expect(fish["title"] == "Boro Fish - Standard Pattern" && fish["source_id"] == "E0E0E0E0-1111-4222-8333-444444444444")
        #expect(fish["is_reconstructed"] == true)
        #expect(report.reconstructedSnapshots.contains { $0.log == "AAAAAAAA-1111-4222-8333-444444444444" && $0.fields.contains("title") })
        // A brew log whose recipe is gone keeps its snapshot; the link is empty and the id kept.
        let orphan = try #require(try snapshot("BBB0BBB0-1111-4222-8333-444444444444"))
        #expect(orphan["title"] == "Old batch brew" && orphan["is_reconstructed"] == false)
        let extras = try queue.read { try String.fetchOne($0, sql: "SELECT extras FROM log WHERE id = 'BBB0BBB0-1111-4222-8333-444444444444'") }
        #expect(extras == #"{"danglingReferences":{"recipe_id":"DEADBEEF-1111-4222-8333-444444444444"}}"#)
        #expect(report.danglingReferences.map(\.value) == ["DEADBEEF-1111-4222-8333-444444444444"])
    }
}
