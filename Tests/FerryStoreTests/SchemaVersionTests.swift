import FerryCanonical
import FerryTestSupport
import Foundation
import GRDB
import Testing
@testable import FerryStore

/// Schema version 2 keys logs and their snapshots by a UNIQUE index instead of a TEXT PRIMARY
/// KEY. A store of version 1 is rebuilt when Ferry first writes to it: every row kept, with its
/// rowid, and nothing that names a log lost to a cascade.
@Suite struct SchemaVersionTests {
    let directory = TemporaryDirectory("ferry-schema-version")

    static let logA = "A1A1A1A1-1111-4222-8333-444444444444"
    static let logB = "B2B2B2B2-2222-4333-8444-555555555555"

    /// A store as Ferry 1 made it: two logs (rowids 7 and 3), a snapshot, a material line and a
    /// tag that name the first.
    func version1Store(_ name: String) throws -> String {
        let path = directory.url.appendingPathComponent(name).path
        let queue = try DatabaseQueue(path: path)
        try StoreMigrations.migrator.migrate(queue, upTo: "v1-canonical")
        try queue.write { (db: Database) throws in
            let columns = "source_app, source_entity, source_key, source_file, kind, title, created_at, modified_at, extras"
            let values = "'brewguide', 'BrewLog', NULL, 'logs.json', 'brew', ?, '2024-05-01T08:00:00Z', '2024-05-01T08:00:00Z', '{\"grinder\":\"C40\"}'"
            try db.execute(sql: "INSERT INTO log (rowid, id, \(columns)) VALUES (7, ?, \(values))", arguments: [Self.logA, "First"])
            try db.execute(sql: "INSERT INTO log (rowid, id, \(columns)) VALUES (3, ?, \(values))", arguments: [Self.logB, "Second"])
            try db.execute(sql: "INSERT INTO log_snapshot (log_id, source_type, title, parameters) VALUES (?, 'recipe', 'V60', '{\"dose\":15}')",
                           arguments: [Self.logA])
            try db.execute(sql: "INSERT INTO material_line (id, log_id, position, description) VALUES ('C3C3C3C3-3333-4444-8555-666666666666', ?, 0, 'Beans')",
                           arguments: [Self.logA])
            try db.execute(sql: "INSERT INTO tag (id, name) VALUES ('D4D4D4D4-4444-4555-8666-777777777777', 'fruity')")
            try db.execute(sql: "INSERT INTO log_tag (log_id, tag_id, position) VALUES (?, 'D4D4D4D4-4444-4555-8666-777777777777', 0)", arguments: [Self.logA])
        }
        try queue.close()
        return path
    }

    /// A version 1 store after Ferry opened it for writing.
    func upgradedVersion1Store(_ name: String) throws -> String {
        let path = try version1Store(name)
        try CanonicalStore(path: path).close()
        return path
    }

    @Test func aVersion1StoreIsRebuiltWithEveryRowAndRowid() throws {
        let path = try upgradedVersion1Store("v1.ferry")
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        try queue.read { (db: Database) throws in
            #expect(try Int.fetchOne(db, sql: "PRAGMA user_version") == CanonicalStore.schemaVersion)
            #expect(try Row.fetchAll(db, sql: "SELECT CAST(rowid AS TEXT), id, title, extras FROM log ORDER BY rowid").map { [$0[0], $0[1], $0[2], $0[3]] as [String] }
                    == [["3", Self.logB, "Second", #"{"grinder":"C40"}"#], ["7", Self.logA, "First", #"{"grinder":"C40"}"#]])
            #expect(try String.fetchAll(db, sql: "SELECT parameters FROM log_snapshot WHERE log_id = ?", arguments: [Self.logA]) == [#"{"dose":15}"#])
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM material_line WHERE log_id = ?", arguments: [Self.logA]) == 1,
                    "dropping the old table must not cascade")
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM log_tag") == 1)
            #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
            #expect(try Bool.fetchOne(db, sql: "SELECT pk = 0 FROM pragma_table_info('log') WHERE name = 'id'") == true)
            #expect(try String.fetchAll(db, sql: "SELECT name FROM pragma_index_list('log') WHERE \"unique\"") == ["log_id"])
        }
        // The rebuilt file's schema is the one a new store has: a bundle of either passes the same check.
        #expect(try UntrustedStore.checkSchema(path) == CanonicalStore.schemaVersion)
    }

    /// New stores get 16 KiB pages (a quarter of the reads and writes of a bulk load); a store
    /// that exists keeps the page size it has, upgraded or not, with every row.
    @Test func aNewStoreHasSixteenKiBPagesAndAnOldOneKeepsItsOwn() throws {
        func value(_ sql: String, in path: String) throws -> Int? {
            let queue = try DatabaseQueue(path: path)
            defer { try? queue.close() }
            return try queue.read { try Int.fetchOne($0, sql: sql) }
        }
        let fresh = directory.url.appendingPathComponent("new.ferry").path
        try CanonicalStore(path: fresh, bulk: true).close()
        #expect(try value("PRAGMA page_size", in: fresh) == 16384)
        let old = try version1Store("old-pages.ferry")
        #expect(try value("PRAGMA page_size", in: old) == 4096)
        try CanonicalStore(path: old).close()
        #expect(try value("PRAGMA page_size", in: old) == 4096)
        #expect(try value("SELECT count(*) FROM log", in: old) == 2)
    }

    @Test func theKeysStillRefuseADuplicateAndStillCascade() throws {
        let queue = try DatabaseQueue(path: try upgradedVersion1Store("keys.ferry"))
        defer { try? queue.close() }
        try queue.write { (db: Database) throws in
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO log_snapshot (log_id, source_type) VALUES (?, 'recipe')", arguments: [Self.logA])
            }
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO log_snapshot (log_id, source_type) VALUES ('E5E5E5E5-5555-4666-8777-888888888888', 'recipe')")
            }
            try db.execute(sql: "DELETE FROM log WHERE id = ?", arguments: [Self.logA])
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM log_snapshot") == 0)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM material_line") == 0)
        }
    }

    @Test func aMergeUpdatesALogByItsUniqueKey() throws {
        let target = try CanonicalStore(path: try version1Store("target.ferry"))
        let incoming = try version1Store("incoming.ferry")
        let queue = try DatabaseQueue(path: incoming)
        try queue.write { try $0.execute(sql: "UPDATE log SET title = 'Renamed' WHERE id = ?", arguments: [Self.logA]) }
        try queue.close()
        _ = try target.merge(from: incoming)
        let titles = try target.read { try String.fetchAll($0, sql: "SELECT title FROM log ORDER BY id") }
        try target.close()
        #expect(titles == ["Renamed", "Second"])
    }

    @Test func theForeignKeyCheckFindsWhatSQLiteFinds() throws {
        let queue = try DatabaseQueue(path: try upgradedVersion1Store("dangling.ferry"), configuration: { var c = Configuration(); c.foreignKeysEnabled = false; return c }())
        defer { try? queue.close() }
        try queue.write { (db: Database) throws in
            #expect(try ForeignKeyCheck.dangling(db) == nil)
            try db.execute(sql: "DELETE FROM log WHERE id = ?", arguments: [Self.logA])
            try db.execute(sql: "UPDATE log SET project_id = 'F6F6F6F6-6666-4777-8888-999999999999'")
            let found = try #require(try ForeignKeyCheck.dangling(db))
            #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").count == 4)
            #expect(found.hasPrefix("4 rows refer to missing rows, first in "), "\(found)")
            #expect(found.contains("naming a missing"), "\(found)")
        }
    }

    /// A store read once (`convert --as core-data`'s) commits without the check; its reader's
    /// check, run beside the copy, finds the same row.
    @Test func aStoreReadOnceHasItsForeignKeysCheckedByItsReader() throws {
        let path = directory.url.appendingPathComponent("read-once.ferry").path
        let store = try CanonicalStore(path: path, bulk: true, readOnce: true)
        try store.session { session in
            try session.db.execute(sql: "INSERT INTO log_snapshot (log_id, source_type) VALUES ('E5E5E5E5-5555-4666-8777-888888888888', 'recipe')")
        }
        try store.close()
        #expect(try CanonicalStore.structuralCheck(path) == [])
        let error = try #require(throws: StoreError.self) { try CanonicalStore.structuralCheck(path, foreignKeys: true) }
        #expect(error.message.contains("1 row refers to missing rows, first in log_snapshot (rowid 1), naming a missing log"), "\(error.message)")
        #expect(error.activity == "checking foreign keys")
        #expect(error.path == path)
    }

    @Test func intoANewStoreEveryForeignKeyIsCheckedBeforeTheCommit() throws {
        let path = directory.url.appendingPathComponent("new.ferry").path
        let store = try CanonicalStore(path: path)
        // Into an empty store the log keys are dropped and foreign keys are off while rows go in:
        // a snapshot of no log must still stop the commit.
        let error = try #require(throws: StoreError.self) {
            try store.session { session in
                try session.db.execute(sql: "INSERT INTO log_snapshot (log_id, source_type) VALUES ('E5E5E5E5-5555-4666-8777-888888888888', 'recipe')")
            }
        }
        #expect(error.message.contains("1 row refers to missing rows, first in log_snapshot (rowid 1), naming a missing log"), "\(error.message)")
        #expect(error.activity == "checking foreign keys")
        let left = try store.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM log_snapshot"), try Bool.fetchOne(db, sql: "PRAGMA foreign_keys"),
             try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE tbl_name IN ('log', 'log_snapshot') AND type = 'index' AND sql IS NOT NULL ORDER BY name"))
        }
        try store.close()
        #expect(left.0 == 0, "nothing was written")
        #expect(left.1 == true, "foreign keys are on again after the session")
        #expect(left.2 == ["log_id", "log_project", "log_recipe", "log_snapshot_log", "log_started"], "the dropped indexes are back")
    }

    /// A store read once and removed (`convert --as core-data`'s) gets its keys back after the
    /// session, which still refuse a duplicate, and not the indexes only queries use.
    @Test func aStoreReadOnceGetsItsKeysAndNotTheQueryIndexes() throws {
        let indexes = "SELECT name FROM sqlite_master WHERE tbl_name IN ('log', 'log_snapshot') AND type = 'index' AND sql IS NOT NULL ORDER BY name"
        let insert = """
            INSERT INTO log (id, source_app, source_entity, source_file, kind, created_at, modified_at)
            VALUES ('\(Self.logA)', 'brewguide', 'BrewLog', 'logs.json', 'brew', '2024-05-01T08:00:00Z', '2024-05-01T08:00:00Z')
            """
        let everyIndex = "SELECT name, sql LIKE 'CREATE UNIQUE INDEX%' FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name"
        var all: [[(name: String, unique: Bool)]] = []
        for readOnce in [false, true] {
            let store = try CanonicalStore(path: directory.url.appendingPathComponent("once-\(readOnce).ferry").path, bulk: true, readOnce: readOnce)
            _ = try store.session { try $0.db.execute(sql: insert) }
            let names = try store.read { try String.fetchAll($0, sql: indexes) }
            #expect(names == (readOnce ? ["log_id", "log_snapshot_log"] : ["log_id", "log_project", "log_recipe", "log_snapshot_log", "log_started"]))
            all.append(try store.read { try Row.fetchAll($0, sql: everyIndex).map { ($0[0], $0[1]) } })
            #expect(throws: StoreError.self) { try store.session { try $0.db.execute(sql: insert) } }
            try store.close()
        }
        // Every table keeps every key (the copy looks rows up by them); only the others go.
        #expect(all[1].map(\.name) == all[0].filter(\.unique).map(\.name))
        #expect(all[0].filter(\.unique).count >= 6 && all[0].count >= all[1].count + 20)
    }

    @Test func aDuplicateLogThatGotPastTheClaimsFailsTheKeyAndIsNamed() throws {
        let store = try CanonicalStore(path: directory.url.appendingPathComponent("twice.ferry").path)
        let insert = """
            INSERT INTO log (id, source_app, source_entity, source_file, kind, created_at, modified_at)
            VALUES ('\(Self.logA)', 'brewguide', 'BrewLog', 'logs.json', 'brew', '2024-05-01T08:00:00Z', '2024-05-01T08:00:00Z')
            """
        let error = try #require(throws: StoreError.self) {
            try store.session { session in
                try session.db.execute(sql: insert)
                try session.db.execute(sql: insert)
            }
        }
        #expect(error.activity == "building the index log_id", "\(error.activity ?? "-")")
        #expect(error.message.contains("UNIQUE constraint failed: log.id"), "\(error.message)")
        #expect(try store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM log") } == 0)
        try store.close()
    }
}
