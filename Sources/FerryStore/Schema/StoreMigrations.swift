import GRDB

/// The canonical store's schema, as GRDB migrations. A released migration is never edited:
/// changes come as new migrations. `PRAGMA user_version` follows the number of migrations.
/// Specification: `Formats/canonical-schema.md`; Core Data mirror: `Formats/canonical/Ferry.xcdatamodeld`.
enum StoreMigrations {
    static let identifiers = ["v1-canonical", "v2-log-keys", "v3-record-digests", "v4-recipe-keys"]

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-canonical") { db in
            try db.execute(sql: v1)
            try db.execute(sql: "PRAGMA user_version = 1")
        }
        // GRDB turns foreign keys off for the rebuild and checks them all before it commits.
        migrator.registerMigration("v2-log-keys") { db in
            try db.execute(sql: v2)
            try db.execute(sql: "PRAGMA user_version = 2")
        }
        migrator.registerMigration("v3-record-digests") { db in
            try db.execute(sql: v3)
            try db.execute(sql: "PRAGMA user_version = 3")
        }
        // Rows and rowids are kept, so the record digests stay true: they stay trusted. The rows
        // are copied as they are, CHECKs not evaluated again: this migration changes keys, and a
        // store it refused to migrate could never be converted into again.
        migrator.registerMigration("v4-recipe-keys") { db in
            let counter = try RecordDigests.counterKeepingThemTrusted(db)
            try ignoringChecks(db) { try db.execute(sql: v4) }
            // Untrusted, the stamp goes, as a session's beginning takes it away.
            try RecordDigests.stamp(db, counter: counter)
            try db.execute(sql: "PRAGMA user_version = 4")
        }
        return migrator
    }

    /// Runs `body` without evaluating CHECKs, and turns them on again: the connection goes on
    /// writing, so failing to is the migration's error (the body's, when both fail).
    private static func ignoringChecks(_ db: Database, _ body: () throws -> Void) throws {
        try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
        var failure: Error?
        do { try body() } catch { failure = error }
        do { try db.execute(sql: "PRAGMA ignore_check_constraints = OFF") } catch { failure = failure ?? error }
        if let failure { throw failure }
    }

    /// Upper-case UUID text: 36 characters, hyphens at 9, 14, 19, 24, no lower-case letters.
    private static func uuid(_ column: String) -> String {
        "CHECK (\(column) IS NULL OR (length(\(column)) = 36 AND \(column) NOT GLOB '*[^0-9A-F-]*' AND substr(\(column), 9, 1) = '-' AND substr(\(column), 24, 1) = '-'))"
    }

    /// A table joining owners to tag or technique names, in each owner's order.
    private static func join(_ owner: String, _ kind: String) -> String {
        """
        CREATE TABLE \(owner)_\(kind) (
          \(owner)_id TEXT NOT NULL REFERENCES \(owner)(id) ON DELETE CASCADE,
          \(kind)_id TEXT NOT NULL REFERENCES \(kind)(id) ON DELETE CASCADE,
          position INTEGER NOT NULL, PRIMARY KEY (\(owner)_id, \(kind)_id)
        ) STRICT;
        """
    }

    /// The columns of `log` after its key, as v1 made them and v2 made them again.
    private static let logColumns = """
          source_app TEXT NOT NULL, source_entity TEXT NOT NULL, source_key TEXT, source_file TEXT NOT NULL,
          kind TEXT NOT NULL, title TEXT, started_at TEXT, ended_at TEXT, duration_seconds REAL, rating REAL, outcome TEXT, note TEXT,
          recipe_id TEXT REFERENCES recipe(id) ON DELETE SET NULL,
          project_id TEXT REFERENCES project(id) ON DELETE SET NULL,
          created_at TEXT NOT NULL, modified_at TEXT NOT NULL,
          extras TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(extras))
        """

    /// The columns of `log_snapshot` after its key, as v1 made them and v2 made them again.
    private static let logSnapshotColumns = """
          source_type TEXT NOT NULL CHECK (source_type IN ('recipe', 'project')), source_id TEXT \(uuid("source_id")),
          title TEXT, method TEXT, kind TEXT,
          parameters TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(parameters)),
          is_reconstructed INTEGER NOT NULL DEFAULT 0,
          reconstructed_fields TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(reconstructed_fields))
        """

    /// The columns of `recipe` after its key, as v1 made them and v4 made them again.
    private static let recipeColumns = """
          source_app TEXT NOT NULL, source_entity TEXT NOT NULL, source_key TEXT, source_file TEXT NOT NULL,
          kind TEXT NOT NULL, method TEXT, category TEXT, title TEXT NOT NULL DEFAULT '', summary TEXT, instructions TEXT,
          origin TEXT, is_starter INTEGER NOT NULL DEFAULT 0, source_url TEXT, author TEXT, difficulty TEXT,
          servings REAL, prep_minutes REAL, cook_minutes REAL, estimated_minutes REAL,
          usage_count INTEGER, last_used_at TEXT, is_favorite INTEGER NOT NULL DEFAULT 0,
          is_archived INTEGER NOT NULL DEFAULT 0, is_valid INTEGER,
          created_at TEXT NOT NULL, modified_at TEXT NOT NULL, deleted_at TEXT,
          extras TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(extras))
        """

    /// The columns of `recipe_step` after its key, as v1 made them and v4 made them again.
    private static let recipeStepColumns = """
          recipe_id TEXT NOT NULL REFERENCES recipe(id) ON DELETE CASCADE,
          position INTEGER NOT NULL, title TEXT, instruction TEXT, kind TEXT, duration_seconds REAL, water_grams REAL,
          is_cumulative INTEGER, estimated_minutes REAL, image_id TEXT, source_key TEXT,
          extras TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(extras))
        """

    /// The columns of `material_line` after its key, and its one-owner CHECK, as v1 made them
    /// and v4 made them again.
    private static let materialLineColumns = """
          recipe_id TEXT REFERENCES recipe(id) ON DELETE CASCADE,
          recipe_step_id TEXT REFERENCES recipe_step(id) ON DELETE CASCADE,
          project_id TEXT REFERENCES project(id) ON DELETE CASCADE,
          project_step_id TEXT REFERENCES project_step(id) ON DELETE CASCADE,
          log_id TEXT REFERENCES log(id) ON DELETE CASCADE,
          position INTEGER NOT NULL, catalog_key TEXT, description TEXT, quantity TEXT, unit TEXT, notes TEXT, source_key TEXT,
          extras TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(extras)),
          CHECK ((recipe_id IS NOT NULL) + (recipe_step_id IS NOT NULL) + (project_id IS NOT NULL)
                 + (project_step_id IS NOT NULL) + (log_id IS NOT NULL) = 1)
        """

    /// The indexes of `material_line` by each owner and by catalog key, as v1 made them and v4 made them again.
    private static let materialLineIndexes = """
        CREATE INDEX material_line_recipe ON material_line(recipe_id);
        CREATE INDEX material_line_recipe_step ON material_line(recipe_step_id);
        CREATE INDEX material_line_project ON material_line(project_id);
        CREATE INDEX material_line_project_step ON material_line(project_step_id);
        CREATE INDEX material_line_log ON material_line(log_id);
        CREATE INDEX material_line_catalog ON material_line(catalog_key);
        """

    static let v1 = """
        CREATE TABLE recipe (
          id TEXT PRIMARY KEY NOT NULL \(uuid("id")),
        \(recipeColumns)
        ) STRICT;
        CREATE TABLE recipe_parameter (
          recipe_id TEXT NOT NULL REFERENCES recipe(id) ON DELETE CASCADE,
          name TEXT NOT NULL, position INTEGER NOT NULL, value REAL, text_value TEXT, unit TEXT,
          PRIMARY KEY (recipe_id, name)
        ) STRICT;
        CREATE TABLE recipe_step (
          id TEXT PRIMARY KEY NOT NULL \(uuid("id")),
        \(recipeStepColumns)
        ) STRICT;
        CREATE INDEX recipe_step_recipe ON recipe_step(recipe_id, position);

        CREATE TABLE project (
          id TEXT PRIMARY KEY NOT NULL \(uuid("id")),
          parent_id TEXT REFERENCES project(id) ON DELETE CASCADE,
          recipe_id TEXT REFERENCES recipe(id) ON DELETE SET NULL,
          source_app TEXT NOT NULL, source_entity TEXT NOT NULL, source_key TEXT, source_file TEXT NOT NULL,
          kind TEXT NOT NULL, title TEXT NOT NULL DEFAULT '', code TEXT, category TEXT, status TEXT, position INTEGER,
          start_at TEXT, end_at TEXT, due_at TEXT, due_time_minutes INTEGER,
          estimated_minutes REAL, min_block_minutes REAL, max_block_minutes REAL, difficulty REAL, importance REAL,
          is_locked INTEGER NOT NULL DEFAULT 0, recurrence TEXT CHECK (recurrence IS NULL OR json_valid(recurrence)),
          grade_weight_percent REAL, grade_possible REAL, grade_earned REAL, grade_percent REAL, grade_letter TEXT,
          notes TEXT, is_archived INTEGER NOT NULL DEFAULT 0, completed_at TEXT,
          created_at TEXT NOT NULL, modified_at TEXT NOT NULL, deleted_at TEXT,
          extras TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(extras))
        ) STRICT;
        CREATE INDEX project_parent ON project(parent_id);
        CREATE INDEX project_recipe ON project(recipe_id);
        CREATE TABLE project_step (
          id TEXT PRIMARY KEY NOT NULL \(uuid("id")),
          project_id TEXT NOT NULL REFERENCES project(id) ON DELETE CASCADE,
          position INTEGER NOT NULL, title TEXT, kind TEXT, estimated_minutes REAL, start_at TEXT, due_at TEXT,
          is_completed INTEGER NOT NULL DEFAULT 0, completed_at TEXT, notes TEXT, source_key TEXT,
          extras TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(extras))
        ) STRICT;
        CREATE INDEX project_step_project ON project_step(project_id, position);

        CREATE TABLE log (
          id TEXT PRIMARY KEY NOT NULL \(uuid("id")),
        \(logColumns)
        ) STRICT;
        CREATE INDEX log_recipe ON log(recipe_id);
        CREATE INDEX log_project ON log(project_id);
        CREATE INDEX log_started ON log(started_at);
        CREATE TABLE log_snapshot (
          log_id TEXT PRIMARY KEY NOT NULL REFERENCES log(id) ON DELETE CASCADE,
        \(logSnapshotColumns)
        ) STRICT;

        CREATE TABLE material_line (
          id TEXT PRIMARY KEY NOT NULL \(uuid("id")),
        \(materialLineColumns)
        ) STRICT;
        \(materialLineIndexes)
        CREATE TABLE catalog_item (
          natural_key TEXT PRIMARY KEY NOT NULL,
          source_app TEXT NOT NULL, source_file TEXT NOT NULL, name TEXT, manufacturer TEXT, code TEXT,
          extras TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(extras))
        ) STRICT;

        CREATE TABLE tag (
          id TEXT PRIMARY KEY NOT NULL \(uuid("id")),
          name TEXT NOT NULL UNIQUE
        ) STRICT;
        CREATE TABLE technique (
          id TEXT PRIMARY KEY NOT NULL \(uuid("id")),
          name TEXT NOT NULL UNIQUE
        ) STRICT;
        \(join("recipe", "tag"))
        \(join("project", "tag"))
        \(join("log", "tag"))
        \(join("project", "technique"))
        \(join("log", "technique"))
        CREATE INDEX recipe_tag_tag ON recipe_tag(tag_id);
        CREATE INDEX project_tag_tag ON project_tag(tag_id);
        CREATE INDEX log_tag_tag ON log_tag(tag_id);
        CREATE INDEX project_technique_technique ON project_technique(technique_id);
        CREATE INDEX log_technique_technique ON log_technique(technique_id);

        CREATE TABLE reference_link (
          id TEXT PRIMARY KEY NOT NULL \(uuid("id")),
          recipe_id TEXT REFERENCES recipe(id) ON DELETE CASCADE,
          project_id TEXT REFERENCES project(id) ON DELETE CASCADE,
          position INTEGER NOT NULL, url TEXT NOT NULL, title TEXT, description TEXT, added_at TEXT, source_key TEXT,
          extras TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(extras)),
          CHECK ((recipe_id IS NOT NULL) + (project_id IS NOT NULL) = 1)
        ) STRICT;
        CREATE INDEX reference_link_recipe ON reference_link(recipe_id);
        CREATE INDEX reference_link_project ON reference_link(project_id);

        CREATE TABLE attachment_content (
          sha256 TEXT PRIMARY KEY NOT NULL CHECK (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*'),
          data BLOB NOT NULL
        ) STRICT;
        CREATE TABLE attachment (
          id TEXT PRIMARY KEY NOT NULL \(uuid("id")),
          recipe_id TEXT REFERENCES recipe(id) ON DELETE CASCADE,
          project_id TEXT REFERENCES project(id) ON DELETE CASCADE,
          log_id TEXT REFERENCES log(id) ON DELETE CASCADE,
          position INTEGER NOT NULL, name TEXT, media_type TEXT, local_url TEXT,
          sha256 TEXT REFERENCES attachment_content(sha256), byte_count INTEGER, added_at TEXT, tag TEXT, source_key TEXT,
          extras TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(extras)),
          CHECK ((recipe_id IS NOT NULL) + (project_id IS NOT NULL) + (log_id IS NOT NULL) = 1)
        ) STRICT;
        CREATE INDEX attachment_recipe ON attachment(recipe_id);
        CREATE INDEX attachment_project ON attachment(project_id);
        CREATE INDEX attachment_log ON attachment(log_id);
        CREATE INDEX attachment_sha256 ON attachment(sha256);

        CREATE TABLE import_run (
          id TEXT PRIMARY KEY NOT NULL \(uuid("id")),
          ferry_version TEXT NOT NULL, inputs TEXT NOT NULL CHECK (json_valid(inputs)),
          counts TEXT NOT NULL CHECK (json_valid(counts))
        ) STRICT;
        """
    /// Logs and their snapshots keyed by a UNIQUE index on their UUID instead of a TEXT PRIMARY
    /// KEY: the same columns, the same uniqueness, the same foreign keys, but an index that can be
    /// dropped and built again. Into a new store the two keys are built once, by a sort, after the
    /// rows went in at the end of their tables: row by row in random UUID order they were most of
    /// a conversion's writing time.
    /// The tables are rebuilt the way SQLite documents for a changed key, their rowids kept.
    static let v2 = """
        CREATE TABLE log_v2 (
          id TEXT NOT NULL \(uuid("id")),
        \(logColumns)
        ) STRICT;
        INSERT INTO log_v2 (rowid, id, source_app, source_entity, source_key, source_file, kind, title, started_at, ended_at,
                            duration_seconds, rating, outcome, note, recipe_id, project_id, created_at, modified_at, extras)
          SELECT rowid, id, source_app, source_entity, source_key, source_file, kind, title, started_at, ended_at,
                 duration_seconds, rating, outcome, note, recipe_id, project_id, created_at, modified_at, extras FROM log;
        DROP TABLE log;
        ALTER TABLE log_v2 RENAME TO log;
        CREATE UNIQUE INDEX log_id ON log(id);
        CREATE INDEX log_recipe ON log(recipe_id);
        CREATE INDEX log_project ON log(project_id);
        CREATE INDEX log_started ON log(started_at);

        CREATE TABLE log_snapshot_v2 (
          log_id TEXT NOT NULL REFERENCES log(id) ON DELETE CASCADE,
        \(logSnapshotColumns)
        ) STRICT;
        INSERT INTO log_snapshot_v2 (rowid, log_id, source_type, source_id, title, method, kind, parameters, is_reconstructed,
                                     reconstructed_fields)
          SELECT rowid, log_id, source_type, source_id, title, method, kind, parameters, is_reconstructed, reconstructed_fields
          FROM log_snapshot;
        DROP TABLE log_snapshot;
        ALTER TABLE log_snapshot_v2 RENAME TO log_snapshot;
        CREATE UNIQUE INDEX log_snapshot_log ON log_snapshot(log_id);
        """

    /// Ferry's own tables, beside the canonical ones (``RecordDigests``): a digest of each
    /// record's rows as the last conversion wrote them, by the record's table (1 recipe, 2 project,
    /// 3 log) and rowid, so that converting the same input again skips the records it would write
    /// unchanged; and the SQLite change counter the file had when they were written, so that a
    /// store changed since by anything else has its digests ignored.
    static let v3 = """
        CREATE TABLE ferry_record_digest (
          record_table INTEGER NOT NULL, row INTEGER NOT NULL, digest INTEGER NOT NULL,
          PRIMARY KEY (record_table, row)
        ) WITHOUT ROWID, STRICT;
        CREATE TABLE ferry_record_digest_stamp (change_counter INTEGER NOT NULL) STRICT;
        """

    /// Recipes, their steps, material lines and recipe tags keyed by UNIQUE indexes instead of
    /// their PRIMARY KEYs, as v2 did for logs: the same columns, uniqueness and foreign keys, but
    /// keys that a conversion into a new store builds once, by a sort, after the rows went in.
    /// Row by row, in the random order of their UUIDs, they were the largest part of converting
    /// a site's recipes (`Formats/performance.md`).
    static let v4 = """
        \(rebuilt("recipe", key: "id TEXT NOT NULL \(uuid("id"))", recipeColumns, copying: """
            id, source_app, source_entity, source_key, source_file, kind, method, category, title, summary, instructions,
            origin, is_starter, source_url, author, difficulty, servings, prep_minutes, cook_minutes, estimated_minutes,
            usage_count, last_used_at, is_favorite, is_archived, is_valid, created_at, modified_at, deleted_at, extras
            """))
        CREATE UNIQUE INDEX recipe_id ON recipe(id);

        \(rebuilt("recipe_step", key: "id TEXT NOT NULL \(uuid("id"))", recipeStepColumns, copying: """
            id, recipe_id, position, title, instruction, kind, duration_seconds, water_grams, is_cumulative,
            estimated_minutes, image_id, source_key, extras
            """))
        CREATE UNIQUE INDEX recipe_step_id ON recipe_step(id);
        CREATE INDEX recipe_step_recipe ON recipe_step(recipe_id, position);

        \(rebuilt("material_line", key: "id TEXT NOT NULL \(uuid("id"))", materialLineColumns, copying: """
            id, recipe_id, recipe_step_id, project_id, project_step_id, log_id, position, catalog_key, description,
            quantity, unit, notes, source_key, extras
            """))
        CREATE UNIQUE INDEX material_line_id ON material_line(id);
        \(materialLineIndexes)

        \(rebuilt("recipe_tag", key: "recipe_id TEXT NOT NULL REFERENCES recipe(id) ON DELETE CASCADE", """
              tag_id TEXT NOT NULL REFERENCES tag(id) ON DELETE CASCADE,
              position INTEGER NOT NULL
            """, copying: "recipe_id, tag_id, position"))
        CREATE UNIQUE INDEX recipe_tag_key ON recipe_tag(recipe_id, tag_id);
        CREATE INDEX recipe_tag_tag ON recipe_tag(tag_id);
        """

    /// A table made again the way SQLite documents for a changed key: a new table, every row
    /// copied with its rowid (the digests name records by rowid), the old table dropped (foreign
    /// keys are off in a migration, so nothing cascades) and the new one renamed. The old
    /// table's indexes go with it.
    private static func rebuilt(_ table: String, key: String, _ columns: String, copying names: String) -> String {
        """
        CREATE TABLE \(table)_v4 (
          \(key),
        \(columns)
        ) STRICT;
        INSERT INTO \(table)_v4 (rowid, \(names)) SELECT rowid, \(names) FROM \(table);
        DROP TABLE \(table);
        ALTER TABLE \(table)_v4 RENAME TO \(table);
        """
    }
}
