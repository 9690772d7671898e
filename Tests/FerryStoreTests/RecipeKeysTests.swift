import FerryCanonical
import FerryTestSupport
import Foundation
import GRDB
import Testing
@testable import FerryStore

/// Schema version 4 keys recipes, recipe steps, material lines and recipe tags by UNIQUE indexes
/// instead of PRIMARY KEYs, so that a conversion into a new store builds them once at the end.
/// A store of version 3 is rebuilt when Ferry first writes to it; released versions never change.
@Suite struct RecipeKeysTests {
    let directory = TemporaryDirectory("ferry-recipe-keys")

    static let recipeA = "A1A1A1A1-1111-4222-8333-444444444444"
    static let recipeB = "B2B2B2B2-2222-4333-8444-555555555555"
    static let step = "C3C3C3C3-3333-4444-8555-666666666666"
    static let line = "D4D4D4D4-4444-4555-8666-777777777777"
    static let stepLine = "E5E5E5E5-5555-4666-8777-888888888888"
    static let tag = "F6F6F6F6-6666-4777-8888-999999999999"

    /// Every object of the schema a version's migrations make, as SQLite keeps it.
    static func schemaText(version: Int) throws -> String {
        let queue = try DatabaseQueue()
        try StoreMigrations.migrator.migrate(queue, upTo: StoreMigrations.identifiers[version - 1])
        return try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").map { row in
                "-- \(row[0] as String) \(row[1] as String) on \(row[2] as String)\n\((row[3] as String?) ?? "(made by SQLite)");\n"
            }.joined()
        }
    }

    /// Version 3's file was recorded from a store the release before version 4 made: the
    /// migrations' SQL, now shared with version 4, must still make exactly that schema, or
    /// bundles of version 3 would no longer pass the import's schema check.
    @Test(arguments: [3, 4]) func aReleasedSchemaNeverChanges(version: Int) throws {
        try Golden.check(try Self.schemaText(version: version),
                         against: TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/StoreSchema/version-\(version).txt"))
    }

    /// A store as Ferry made it before version 4: two recipes (rowids 9 and 4), a step, a line of
    /// the recipe and one of the step, a tag, and the first recipe's digest (kept by rowid).
    func version3Store(_ name: String) throws -> String {
        let path = directory.url.appendingPathComponent(name).path
        let queue = try DatabaseQueue(path: path)
        try StoreMigrations.migrator.migrate(queue, upTo: "v3-record-digests")
        try queue.write { (db: Database) throws in
            let columns = "source_app, source_entity, source_file, kind, title, created_at, modified_at, extras"
            let values = "'brewguide', 'Recipe', 'recipes.json', 'brew', ?, '2024-05-01T08:00:00Z', '2024-05-01T08:00:00Z', '{\"origin\":\"Kenya\"}'"
            try db.execute(sql: "INSERT INTO recipe (rowid, id, \(columns)) VALUES (9, ?, \(values))", arguments: [Self.recipeA, "First"])
            try db.execute(sql: "INSERT INTO recipe (rowid, id, \(columns)) VALUES (4, ?, \(values))", arguments: [Self.recipeB, "Second"])
            try db.execute(sql: "INSERT INTO recipe_step (rowid, id, recipe_id, position, instruction) VALUES (5, ?, ?, 0, 'Bloom')",
                           arguments: [Self.step, Self.recipeA])
            try db.execute(sql: "INSERT INTO material_line (rowid, id, recipe_id, position, description) VALUES (12, ?, ?, 0, 'Beans')",
                           arguments: [Self.line, Self.recipeA])
            try db.execute(sql: "INSERT INTO material_line (rowid, id, recipe_step_id, position, description) VALUES (2, ?, ?, 0, 'Water')",
                           arguments: [Self.stepLine, Self.step])
            try db.execute(sql: "INSERT INTO tag (id, name) VALUES (?, 'fruity')", arguments: [Self.tag])
            try db.execute(sql: "INSERT INTO recipe_tag (recipe_id, tag_id, position) VALUES (?, ?, 0)", arguments: [Self.recipeA, Self.tag])
            try db.execute(sql: "INSERT INTO ferry_record_digest (record_table, row, digest) VALUES (1, 9, 42)")
        }
        try queue.close()
        return path
    }

    static let rowidsAndKeys = [
        "SELECT rowid || ' ' || id FROM recipe ORDER BY rowid", "SELECT rowid || ' ' || id FROM recipe_step ORDER BY rowid",
        "SELECT rowid || ' ' || id FROM material_line ORDER BY rowid", "SELECT rowid || ' ' || recipe_id || ' ' || tag_id FROM recipe_tag ORDER BY rowid",
    ]

    @Test func aVersion3StoreIsRebuiltWithEveryRowAndRowid() throws {
        let path = try version3Store("v3.ferry")
        let before = try TableContents(path: path)
        let rowidsBefore = try DatabaseQueue(path: path).read { db in try Self.rowidsAndKeys.map { try String.fetchAll(db, sql: $0) } }
        try CanonicalStore(path: path).close()

        var after = try TableContents(path: path)
        after.tables["grdb_migrations"] = before.tables["grdb_migrations"]
        #expect(after == before, "\(before.differences(from: after))")
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        try queue.read { (db: Database) throws in
            #expect(try Int.fetchOne(db, sql: "PRAGMA user_version") == CanonicalStore.schemaVersion)
            #expect(try Self.rowidsAndKeys.map { try String.fetchAll(db, sql: $0) } == rowidsBefore, "rowids are kept: the digests name records by them")
            #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
            for table in ["recipe", "recipe_step", "material_line"] {
                #expect(try Bool.fetchOne(db, sql: "SELECT pk = 0 FROM pragma_table_info(?) WHERE name = 'id'", arguments: [table]) == true)
                #expect(try String.fetchAll(db, sql: "SELECT name FROM pragma_index_list(?) WHERE \"unique\"", arguments: [table]) == ["\(table)_id"])
            }
            #expect(try String.fetchAll(db, sql: "SELECT name FROM pragma_index_list('recipe_tag') WHERE \"unique\"") == ["recipe_tag_key"])
        }
        #expect(try UntrustedStore.checkSchema(path) == CanonicalStore.schemaVersion)
    }

    @Test func theNewKeysStillRefuseADuplicateAndStillCascade() throws {
        let path = try version3Store("keys.ferry")
        try CanonicalStore(path: path).close()
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        try queue.write { (db: Database) throws in
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO recipe_step (id, recipe_id, position) VALUES (?, ?, 1)", arguments: [Self.step, Self.recipeB])
            }
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO recipe_tag (recipe_id, tag_id, position) VALUES (?, ?, 1)", arguments: [Self.recipeA, Self.tag])
            }
            #expect(throws: DatabaseError.self, "a step of no recipe") {
                try db.execute(sql: "INSERT INTO recipe_step (id, recipe_id, position) VALUES ('A9A9A9A9-1111-4222-8333-444444444444', 'A8A8A8A8-1111-4222-8333-444444444444', 0)")
            }
            try db.execute(sql: "DELETE FROM recipe WHERE id = ?", arguments: [Self.recipeA])
            #expect(try Int.fetchOne(db, sql: "SELECT (SELECT count(*) FROM recipe_step) + (SELECT count(*) FROM material_line) + (SELECT count(*) FROM recipe_tag)") == 0)
        }
    }

    func recipe(_ id: String, step instruction: String) -> Recipe {
        var recipe = Recipe(id: id, source: SourceRef(app: SourceApp("brewguide"), entity: "Recipe", key: id, file: "recipes.json"), kind: "brew",
                            createdAt: "2024-05-01T08:00:00Z", modifiedAt: "2024-05-01T08:00:00Z")
        recipe.title = "Recipe \(id.prefix(2))"
        var step = RecipeStep(id: Self.step, position: 0)
        step.instruction = instruction
        var line = MaterialLine(id: Self.stepLine, position: 0)
        line.description = instruction + " water"
        step.materials = [line]
        recipe.steps = [step]
        recipe.tags = ["fruity"]
        return recipe
    }

    /// Writes `recipes` in one batch into `store`, after a recipe of id `earlier` (with no
    /// parts) in a batch of its own when there is one; returns the report's warnings.
    func write(_ recipes: [Recipe], into store: CanonicalStore, after earlier: String?) throws -> [String] {
        if let earlier {
            var other = recipe(earlier, step: "Other")
            (other.steps, other.tags) = ([], [])
            var batch = CanonicalBatch()
            batch.recipes = [other]
            try store.write(batch)
        }
        var batch = CanonicalBatch()
        batch.recipes = recipes
        let report = ReportBuilder(store: store.path, dryRun: false)
        try store.write(batch, report: report)
        return report.finish().warnings
    }

    /// Steps and lines may take their ids from the source, where two can share one. Into a new
    /// store (keys built after the rows) they end as an upsert leaves them in a store that holds
    /// rows: one row, in the first one's place, with the last one's values; and the report says so.
    /// A working copy without a journal (a rewrite, a dry run) gets one for the session: a key
    /// that fails must be undone before the fold and built again.
    @Test func partsSharingAnIdAreFoldedAsAnUpsertWouldAndReported() throws {
        var rows: [[String]] = []
        let stores: [(String, Bool, CanonicalStore.WorkingCopy?)] = [("new.ferry", false, nil), ("copy.ferry", false, .wholeChange), ("holding.ferry", true, nil)]
        for (name, holdsRows, workingCopy) in stores {
            let store = try CanonicalStore(path: directory.url.appendingPathComponent(name).path, workingCopy: workingCopy)
            let warnings = try write([recipe(Self.recipeA, step: "Bloom"), recipe(Self.recipeB, step: "Pour")], into: store,
                                     after: holdsRows ? "A0A0A0A0-1111-4222-8333-444444444444" : nil)
            #expect(warnings.contains { $0.hasPrefix("recipe_step: 1 row had the key of an earlier row") } == !holdsRows, "\(warnings)")
            #expect(warnings.contains { $0.hasPrefix("material_line: 1 row had the key of an earlier row") } == !holdsRows, "\(warnings)")
            rows.append(try store.read { db in
                try String.fetchAll(db, sql: """
                    SELECT s.recipe_id || ' ' || s.instruction || ' ' || m.description FROM recipe_step s JOIN material_line m ON m.recipe_step_id = s.id
                    UNION ALL SELECT count(*) FROM recipe_step UNION ALL SELECT count(*) FROM material_line
                    """)
            })
            try store.close()
        }
        #expect(rows[0] == ["\(Self.recipeB) Pour Pour water", "1", "1"])
        #expect(rows[0] == rows[1], "a working copy without a journal ends as a new store")
        #expect(rows[0] == rows[2], "a new store ends as one that held rows")
    }

    /// `CanonicalStore.write` upserts every record by id: a batch that holds a recipe twice, into
    /// a new store, leaves it once, with its second version's parts only (other step, line and
    /// tag ids), as into a store that holds rows.
    @Test func aRecipeWrittenTwiceIntoANewStoreIsUpserted() throws {
        var second = recipe(Self.recipeA, step: "Pour")
        second.steps[0].id = "C4C4C4C4-3333-4444-8555-666666666666"
        second.steps[0].materials[0].id = "E6E6E6E6-5555-4666-8777-888888888888"
        second.tags = ["floral"]
        var contents: [TableContents] = []
        for (name, holdsRows) in [("twice-new.ferry", false), ("twice-holding.ferry", true)] {
            let path = directory.url.appendingPathComponent(name).path
            let store = try CanonicalStore(path: path)
            let warnings = try write([recipe(Self.recipeA, step: "Bloom"), second], into: store, after: holdsRows ? Self.recipeB : nil)
            #expect(!warnings.contains { $0.contains("had the key of an earlier row") }, "\(warnings)")
            try store.close()
            var tables = try TableContents(path: path).withoutFerrysOwnTables
            tables.tables["recipe"] = tables.tables["recipe"]?.filter { !$0.contains("s:\(Self.recipeB)") }
            contents.append(tables)
        }
        #expect(contents[0].tables["recipe"]?.count == 1)
        #expect(contents[0].tables["recipe_step"]?.map { $0.contains("s:Pour") } == [true])
        #expect(contents[0].tables["material_line"]?.count == 1)
        #expect(contents[0].tables["recipe_tag"]?.count == 1)
        #expect(contents[0] == contents[1], "\(contents[0].differences(from: contents[1]))")
    }

    /// The upgrade keeps every row and rowid, so the digests stay true: a store whose digests
    /// were trusted before it keeps them trusted (else the first conversion after it would write
    /// every record again).
    @Test func theRecordDigestsStayTrustedThroughTheUpgrade() throws {
        let path = try version3Store("digests.ferry")
        func changeCounter() throws -> UInt32 {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            try handle.seek(toOffset: 24)
            let bytes = try #require(try handle.read(upToCount: 4))
            return bytes.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        }
        // Stamped as a session's commit stamps them: for the counter that commit gives the file.
        let queue = try DatabaseQueue(path: path)
        let before = try changeCounter()
        try queue.write { try $0.execute(sql: "INSERT INTO ferry_record_digest_stamp (change_counter) VALUES (?)", arguments: [Int64(before) + 1]) }
        try queue.close()
        #expect(try changeCounter() == before + 1)

        let store = try CanonicalStore(path: path)
        _ = try store.session { _ in }
        let kept = try store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM ferry_record_digest") }
        try store.close()
        #expect(kept == 1, "the upgrade's commit must not make the digests look stale")
    }
}
