import FerryArchive
@testable import FerryBundle
import FerryJSON
import FerryStore
import FerryTestSupport
import Foundation
import GRDB
import Testing

/// How `export` reads a store: the snapshot it copies, the NDJSON it writes from SQLite's bytes,
/// and the jobs it runs side by side.
@Suite struct ExportSnapshotTests {
    let directory = TemporaryDirectory("ferry-export-snapshot")

    func path(_ name: String) -> String { directory.url.appendingPathComponent(name).path }

    func entry(_ name: String, of bundle: String) throws -> [UInt8] {
        try #require(try BundleFixtures.entries(of: bundle).first { $0.name.hasSuffix("/" + name) }).bytes
    }

    @Test func aStoreWithARollbackJournalIsCopiedByteForByte() throws {
        let store = try BundleFixtures.sampleStore(at: path("data.ferry"))
        let bundle = path("data.tar.zst")
        _ = try BundleExporter().export(store: store, to: bundle)
        #expect(try entry("data/store.sqlite", of: bundle) == Array(try Data(contentsOf: URL(fileURLWithPath: store))))
    }

    /// In WAL mode the committed rows may be only in the log: the file's bytes alone would lose them.
    @Test func aStoreInWALModeIsCopiedWithWhatItsLogHolds() throws {
        let store = try BundleFixtures.sampleStore(at: path("wal.ferry"))
        let writer = try DatabaseQueue(path: store)
        try writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0")
            try db.execute(sql: "INSERT INTO tag (id, name) VALUES ('0A1B2C3D-0000-4000-8000-000000000001', 'only in the log')")
        }
        #expect(FileManager.default.fileExists(atPath: store + "-wal"))
        let bundle = path("wal.tar.zst")
        _ = try BundleExporter().export(store: store, to: bundle)
        try writer.close()

        let snapshot = path("snapshot.sqlite")
        try Data(try entry("data/store.sqlite", of: bundle)).write(to: URL(fileURLWithPath: snapshot))
        // Header bytes 18 and 19 are 2 in WAL mode: the bundled file must stand alone.
        let header = [UInt8](try Data(contentsOf: URL(fileURLWithPath: snapshot)).prefix(20))
        #expect(header[18] == 1 && header[19] == 1, "the snapshot is in rollback-journal mode")
        let names = try DatabaseQueue(path: snapshot).read { try String.fetchAll($0, sql: "SELECT name FROM tag") }
        #expect(names.contains("only in the log"))
        let tags = String(decoding: try BundleFixtures.table("tag", of: bundle), as: UTF8.self)
        #expect(tags.contains(#""name":"only in the log""#))
    }

    /// Every line is its row: keys in column order, and each value as SQLite holds it, with
    /// texts that need escaping and doubles; `createdAt` is the newest `modified_at`.
    @Test func everyNDJSONLineHoldsItsRowExactly() throws {
        let store = try BundleFixtures.sampleStore(at: path("rows.ferry"))
        let queue = try DatabaseQueue(path: store)
        try queue.write { db in
            let id = try String.fetchOne(db, sql: "SELECT id FROM log ORDER BY id LIMIT 1")!
            try db.execute(sql: "UPDATE log SET note = ?, rating = 4.25, duration_seconds = 1e300, modified_at = '2099-01-01T00:00:00Z' WHERE id = ?",
                           arguments: ["quote \" back\\slash\ttab\nline \u{01} ünï ✓ 😀 </script>", id])
        }
        let bundle = path("rows.tar.zst")
        let summary = try BundleExporter().export(store: store, to: bundle)
        #expect(summary.createdAt == "2099-01-01T00:00:00Z")
        let entries = try BundleFixtures.entries(of: bundle)
        var checkedValues = 0
        try queue.read { db in
            for table in CanonicalTables.all where table != "attachment_content" {
                let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))")
                let primary = columns.filter { ($0["pk"] as Int) > 0 }.sorted { ($0["pk"] as Int) < ($1["pk"] as Int) }.map { $0["name"] as String }
                // Logs and snapshots are keyed by a UNIQUE index since schema version 2; recipes,
                // their steps, lines and tags since version 4.
                let uniqueKeys = ["log": ["id"], "log_snapshot": ["log_id"], "recipe": ["id"], "recipe_step": ["id"], "material_line": ["id"],
                                  "recipe_tag": ["recipe_id", "tag_id"]]
                let key = primary.isEmpty ? uniqueKeys[table] ?? [] : primary
                let rows = try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY \(key.isEmpty ? "rowid" : key.joined(separator: ", "))")
                let lines = BundleFixtures.table(table, of: entries).split(separator: 0x0A)
                #expect(lines.count == rows.count, "\(table)")
                for (row, line) in zip(rows, lines) {
                    guard case .object(let object) = try JSONReader().read(Array(line)) else { Issue.record("\(table): not an object"); continue }
                    #expect(object.members.map(\.key) == Array(row.columnNames), "\(table)")
                    for (member, value) in zip(object.members, row.databaseValues) {
                        #expect(Self.json(value) == member.value, "\(table).\(member.key)")
                        checkedValues += 1
                    }
                }
            }
        }
        #expect(checkedValues > 500)
        try queue.close()
    }

    /// Lines follow the key, not the order rows were written in: tags with random ids, logs with
    /// random ids (keyed by a UNIQUE index, not a primary key, since schema version 2), and
    /// parameters (a two-column key) written in reverse order of their names.
    @Test func linesFollowTheKeyNotTheStorageOrder() throws {
        let store = try BundleFixtures.sampleStore(at: path("order.ferry"))
        let queue = try DatabaseQueue(path: store)
        let recipes = try queue.write { db in
            for index in 0..<300 {
                try db.execute(sql: "INSERT INTO tag (id, name) VALUES (?, ?)", arguments: [UUID().uuidString, "tag \(index)"])
                try db.execute(sql: """
                    INSERT INTO log (id, source_app, source_entity, source_file, kind, created_at, modified_at)
                    VALUES (?, 'brewguide', 'BrewLog', 'logs.json', 'brew', '2024-05-01T08:00:00Z', '2024-05-01T08:00:00Z')
                    """, arguments: [UUID().uuidString])
            }
            let recipes = try String.fetchAll(db, sql: "SELECT id FROM recipe ORDER BY id DESC LIMIT 3")
            for recipe in recipes {
                for name in ["zeta", "omega", "mu", "alpha", "Beta"] {
                    try db.execute(sql: "INSERT OR IGNORE INTO recipe_parameter (recipe_id, name, position, value) VALUES (?, ?, 0, 1)",
                                   arguments: [recipe, name])
                }
            }
            return recipes
        }
        try #require(recipes.count == 3)
        let storageOrder = try queue.read { try String.fetchAll($0, sql: "SELECT id FROM tag ORDER BY rowid") }
        try #require(storageOrder != storageOrder.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        try queue.close()

        let bundle = path("order.tar.zst")
        _ = try BundleExporter().export(store: store, to: bundle)
        func keys(_ table: String, _ columns: [String]) throws -> [[String]] {
            try BundleFixtures.table(table, of: bundle).split(separator: 0x0A).map { line in
                guard case .object(let object) = try JSONReader().read(Array(line)) else { return [] }
                return columns.map { column in object[column].flatMap { if case .string(let text) = $0 { text } else { nil } } ?? "" }
            }
        }
        let logs = try keys("log", ["id"])
        #expect(logs.count >= 300)
        #expect(Self.firstMisplaced(logs) == nil)
        let tags = try keys("tag", ["id"])
        #expect(tags.count == storageOrder.count)
        #expect(Self.firstMisplaced(tags) == nil)
        let parameters = try keys("recipe_parameter", ["recipe_id", "name"])
        #expect(parameters.count >= 15)
        #expect(Self.firstMisplaced(parameters) == nil)
    }

    /// A snapshot that fails SQLite's structural check gives the check's report, not whichever
    /// table job ran into the damage, and no bundle.
    @Test func aDamagedStoreGivesTheCheckReportAndNoBundle() throws {
        let store = try BundleFixtures.sampleStore(at: path("damaged.ferry"))
        let queue = try DatabaseQueue(path: store)
        let (pageSize, logRoot) = try queue.read { db in
            (try Int.fetchOne(db, sql: "PRAGMA page_size")!, try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE name = 'log'")!)
        }
        try queue.close()
        // The log table's root page keeps its header but loses its cell pointers.
        let handle = try #require(FileHandle(forUpdatingAtPath: store))
        try handle.seek(toOffset: UInt64((logRoot - 1) * pageSize + 12))
        try handle.write(contentsOf: Data(repeating: 0xFF, count: 64))
        try handle.close()

        let bundle = path("damaged.tar.zst")
        #expect {
            _ = try BundleExporter().export(store: store, to: bundle)
        } throws: { error in
            // SQLite either lists the problems or stops at the first page it cannot read.
            guard let error = error as? StoreError, error.path == store else { return false }
            if case .integrity(let problems) = error.kind { return !problems.isEmpty }
            return error.activity == "checking" && error.message.contains("malformed")
        }
        #expect(!FileManager.default.fileExists(atPath: bundle))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.hasPrefix(".") }.isEmpty)
    }

    /// Progress counts every row of every table (its parts archived as they come), then the
    /// bytes of the snapshot into the archive.
    @Test func progressCountsTheRowsThenTheSnapshot() throws {
        let store = try BundleFixtures.sampleStore(at: path("progress.ferry"))
        let updates = ProgressUpdates()
        let bundle = path("progress.tar.zst")
        let summary = try BundleExporter(progress: { updates.add($0) }).export(store: store, to: bundle)
        let all = updates.all
        let tables = all.filter { $0.stage == .tables }
        let rows = Int64(summary.counts.values.reduce(0, +))
        #expect(rows > 20)
        #expect(tables.first?.done == 0)
        #expect(tables.last?.done == rows)
        #expect(tables.allSatisfy { $0.done <= $0.total })
        #expect(zip(tables, tables.dropFirst()).allSatisfy { $0.done <= $1.done })

        let entries = try BundleFixtures.entries(of: bundle)
        let bytes = Int64(try #require(entries.first { $0.name == "progress/data/store.sqlite" }).bytes.count)
        let archive = all.filter { $0.stage == .archive }
        #expect(archive.first == BundleProgress(stage: .archive, done: 0, total: bytes))
        #expect(archive.last == BundleProgress(stage: .archive, done: bytes, total: bytes))
        #expect(zip(archive, archive.dropFirst()).allSatisfy { $0.done <= $1.done })
        #expect(all.firstIndex { $0.stage == .archive }! > all.lastIndex { $0.stage == .tables }!)
    }

    /// The first key not after the one before it in SQLite's BINARY order, column by column.
    static func firstMisplaced(_ keys: [[String]]) -> String? {
        func precedes(_ left: [String], _ right: [String]) -> Bool {
            for (a, b) in zip(left, right) where a != b { return a.utf8.lexicographicallyPrecedes(b.utf8) }
            return false
        }
        return zip(keys, keys.dropFirst()).first { !precedes($0, $1) }.map { "\($1) after \($0)" }
    }

    static func json(_ value: DatabaseValue) -> JSONValue {
        switch value.storage {
        case .null: return .null
        case .int64(let integer): return .integer(integer)
        case .double(let double): return .double(double)
        case .string(let text): return .string(text)
        case .blob(let data): return .string(data.base64EncodedString())
        }
    }

    @Test func jobsGiveTheirValuesInOrderOrTheEarliestError() throws {
        struct Failure: Error, Equatable { var job: Int }
        let values = try ParallelJobs.run((0..<50).map { index in { @Sendable in index * index } }, threads: 3)
        #expect(values == (0..<50).map { $0 * $0 })

        let started = Counter()
        let jobs: [@Sendable () throws -> Int] = (0..<200).map { index in {
            started.increment()
            if index == 7 || index == 9 { throw Failure(job: index) }
            return index
        } }
        #expect(throws: Failure(job: 7)) { try ParallelJobs.run(jobs, threads: 2) }
        #expect(started.value < 200, "jobs kept starting after a failure")
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        var value: Int { lock.withLock { count } }
        func increment() { lock.withLock { count += 1 } }
    }
}
