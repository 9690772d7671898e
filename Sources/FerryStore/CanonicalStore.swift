import FerryCanonical
import FerryJSON
import FerrySystem
import Foundation
import GRDB

/// The canonical SQLite store: recipes, projects, logs and their parts, with snapshot semantics
/// and foreign keys on. Schema: `Formats/canonical-schema.md`.
///
/// For example:
/// ```swift
/// let store = try CanonicalStore(path: "data.ferry")
/// let counts = try store.write(batch, report: report)
/// ```
public final class CanonicalStore: @unchecked Sendable {
    public let path: String
    let queue: DatabaseQueue
    /// Read whole once and removed (see `init`): its sessions build no index that only serves
    /// queries and keep no record digest (``RecordDigests``).
    let readOnce: Bool
    public static let schemaVersion = StoreMigrations.identifiers.count
    /// The page size of the stores Ferry creates.
    static let pageSize = 16384

    /// Opens or creates the store and brings its schema up to date.
    /// - Throws: ``StoreError`` when the file is not a Ferry store or is newer than this Ferry.
    /// - Parameter bulk: for a new file that is flushed and renamed into place when complete (a
    ///   crash loses only the temporary file): no syncs while writing, the journal in memory, and
    ///   a larger page cache (32 MB), which random UUID keys need when they go in row by row (a
    ///   new store builds its log keys at the end instead).
    /// - Parameter workingCopy: for a copy of a store that replaces it only once written whole
    ///   and checked (``StoreFiles/changeThroughCopy(_:at:backup:thoroughCheck:workingCopy:copied:backedUp:_:)``):
    ///   a crash or a failure throws the copy away, so no syncs and a larger page cache (32 MB),
    ///   and no journal unless the change rolls parts of itself back.
    /// - Parameter readOnce: for a new store that is read whole once and removed
    ///   (`convert --as core-data` copies it into the Core Data store): its keys are built, the
    ///   indexes only queries use are not (1.7 s of a million logs' conversion), and no record's
    ///   digest is kept (no conversion comes into it again); its foreign keys are left for its
    ///   reader to check (``structuralCheck(_:foreignKeys:)``, beside the copy: 0.7 s of a
    ///   million logs' conversion otherwise).
    public init(path: String, readOnly: Bool = false, bulk: Bool = false, workingCopy: WorkingCopy? = nil, readOnce: Bool = false) throws {
        self.path = path
        self.readOnce = readOnce
        var status = stat()
        if stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            throw StoreError(.notACanonicalStore("it is a folder, not a store file"), path: path)
        }
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.readonly = readOnly
        configuration.busyMode = .timeout(2)
        if !readOnly {
            // A file this creates gets 16 KiB pages (an existing one keeps its own): a quarter of
            // the reads and writes of 4 KiB pages (Formats/performance.md).
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA page_size = \(Self.pageSize)") }
        }
        if bulk {
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA synchronous = OFF; PRAGMA journal_mode = MEMORY; PRAGMA cache_size = -32768")
            }
        }
        if let workingCopy {
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA synchronous = OFF; PRAGMA cache_size = -32768")
                // A store in WAL mode stays in it (its file alone is not the data, and the person chose it).
                guard try String.fetchOne(db, sql: "PRAGMA journal_mode")?.lowercased() != "wal" else { return }
                try db.execute(sql: "PRAGMA journal_mode = \(workingCopy == .rollingBackRecords ? "TRUNCATE" : "OFF")")
            }
        }
        do {
            queue = try readOnly ? ReadingConnection.open(path, configuration) : DatabaseQueue(path: path, configuration: configuration)
            let version = try queue.read { try Int.fetchOne($0, sql: "PRAGMA user_version") ?? 0 }
            if version > Self.schemaVersion {
                throw StoreError(.newerSchema(found: version, known: Self.schemaVersion), path: path)
            }
            let tables = try queue.read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") }
            if version == 0, !tables.filter({ !$0.hasPrefix("sqlite_") && $0 != "grdb_migrations" }).isEmpty {
                throw StoreError(.notACanonicalStore("it has tables (\(tables.prefix(4).joined(separator: ", "))) but no Ferry schema version"), path: path)
            }
            if !readOnly {
                try StoreMigrations.migrator.migrate(queue)
            }
        } catch let error as DatabaseError {
            // Creating the schema writes: a full disk must read as one, not as a bare I/O error.
            throw StoreError(error, path: path, activity: "opening", writing: !readOnly)
        }
    }

    /// How a working copy is written: whether its change rolls single records back
    /// (`--keep-going`), which takes a rollback journal; without it the copy has none, and a
    /// failed change leaves the copy to be thrown away.
    public enum WorkingCopy: Sendable {
        case wholeChange, rollingBackRecords
    }

    /// Forgets the digests of records a store holds (``RecordDigests``): for a store that comes
    /// from elsewhere, whose digests say nothing Ferry can hold its rows to.
    public func forgetRecordDigests() throws {
        do {
            try queue.write { try RecordDigests.forgetAll($0) }
        } catch let error as DatabaseError {
            throw StoreError(error, path: path, activity: "forgetting its record digests", writing: true)
        }
    }

    /// Whether the schema exists (a store opened read-only may be an empty file).
    public func hasSchema() throws -> Bool {
        try read { try Int.fetchOne($0, sql: "PRAGMA user_version") ?? 0 } > 0
    }

    /// A consistent copy into a new file. A store with a rollback journal (Ferry's own) is
    /// copied byte for byte by the kernel while a read transaction holds SQLite's shared lock,
    /// under which no writer can change the file, an eighth of the time of SQLite's backup API.
    /// A store in WAL mode, whose file alone is not the data,
    /// goes through the backup API.
    /// - Parameter standingAlone: switch a copy of a WAL-mode store to a rollback journal. A WAL
    ///   file is not whole without a shared index, which readers opening it side by side race to
    ///   rebuild (SQLITE_BUSY); a copy that leaves Ferry must be one file. Otherwise the copy
    ///   keeps the store's journal mode (convert's working copy of a user's store).
    public func copy(to destination: String, standingAlone: Bool = false) throws {
        do {
            if try queue.read({ try String.fetchOne($0, sql: "PRAGMA journal_mode") })?.lowercased() != "wal" {
                return try copyFile(to: destination)
            }
            let copy = try DatabaseQueue(path: destination)
            try queue.backup(to: copy)
            if standingAlone { try copy.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = DELETE") } }
            try copy.close()
        } catch let error as DatabaseError {
            throw StoreError(error, path: destination, activity: "copying \(path)", writing: true)
        }
    }

    private func copyFile(to destination: String) throws {
        if let failure = try Self.copyFile(of: queue, at: path, to: destination, compared: false) {
            throw StoreError(.cannotCreate("copying \(path): \(failure)"), path: destination)
        }
    }

    /// Copies a database in a rollback journal's mode byte for byte in the kernel, under SQLite's
    /// shared lock taken through `queue` (no writer changes the file meanwhile).
    /// - Parameter compared: read both files again under the same lock and compare them: the
    ///   copy is then known to be the database, every byte of it.
    /// - Returns: why the copy failed (it is removed then), or nil.
    static func copyFile(of queue: DatabaseQueue, at path: String, to destination: String, compared: Bool) throws -> String? {
        // Both files are opened before the lock is taken and closed after it is released: closing
        // any descriptor of a file drops every POSIX lock the process holds on it, SQLite's too.
        let source = open(path, O_RDONLY | O_CLOEXEC)
        guard source >= 0 else { throw StoreError(.cannotCreate("cannot read the store: \(String(cString: strerror(errno)))"), path: path) }
        defer { closeDescriptor(source) }
        let target = open(destination, (compared ? O_RDWR : O_WRONLY) | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard target >= 0 else { throw StoreError(.cannotCreate("cannot create the copy: \(String(cString: strerror(errno)))"), path: destination) }
        defer { closeDescriptor(target) }
        var complete = false
        defer { if !complete { unlink(destination) } }
        let failure: String? = try queue.read { db in
            // The first read takes the shared lock (rolling back a journal a crashed writer left).
            _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master")
            let copied = SystemCall.copyContents(from: source, to: target)
            if copied < 0 {
                let reason = SystemCall.errorText()
                return errno == ENOSPC || errno == EFBIG ? "cannot write: the disk is full or the file is larger than allowed (\(reason))" : reason
            }
            var status = stat()
            guard fstat(source, &status) == 0, Int64(status.st_size) == copied else { return "the store changed size while being copied" }
            guard compared else { return nil }
            switch SystemCall.sameContents(source, target) {
            case true?: return nil
            case false?: return "the copy's bytes differ from the store's"
            case nil: return "cannot read the copy back: \(SystemCall.errorText())"
            }
        }
        if failure == nil { complete = true }
        return failure
    }

    /// Closes the file; the store cannot be used afterwards.
    public func close() throws {
        do {
            try queue.close()
        } catch let error as DatabaseError {
            throw StoreError(error, path: path, activity: "closing")
        }
    }

    /// `PRAGMA integrity_check` and `foreign_key_check`; empty when the store is sound.
    /// - Parameter thorough: false, for a store this process has just written in one
    ///   transaction, runs `quick_check` alone, on a read-only connection of its own: every page,
    ///   b-tree, record and NOT NULL column is read again. A read-only connection skips CHECK
    ///   constraints (SQLite 3.40), which the statements that wrote the rows enforced; each index
    ///   is not compared with its table (SQLite keeps them together in those same statements);
    ///   foreign keys are not looked up again (deferred, they were enforced by the commit).
    public func check(thorough: Bool = true) throws -> [String] {
        do {
            guard thorough else { return try Self.structuralCheck(path) }
            return try queue.read { db in
                var problems = try String.fetchAll(db, sql: "PRAGMA integrity_check").filter { $0 != "ok" }
                for row in try Row.fetchAll(db, sql: "PRAGMA foreign_key_check") {
                    problems.append("foreign key: \(row[0] as String? ?? "?") row \(row[1] as Int64? ?? 0) → \(row[2] as String? ?? "?")")
                }
                return problems
            }
        } catch let error as DatabaseError {
            throw StoreError(error, path: path, activity: "checking")
        }
    }

    /// `PRAGMA quick_check` of the file at `path` on a read-only connection of its own: every
    /// page, b-tree, record and NOT NULL column, but not CHECK constraints, which SQLite skips
    /// there (3.40). For a store whose rows SQLite itself wrote. Empty when the file is sound.
    /// - Parameter foreignKeys: also every foreign key naming an existing row (a store written
    ///   with `readOnce` was not checked for them before its commit); a row naming none throws
    ///   ``StoreError`` (`.integrity`, "checking foreign keys"), as such a commit would have.
    public static func structuralCheck(_ path: String, foreignKeys: Bool = false) throws -> [String] {
        do {
            var configuration = Configuration()
            configuration.readonly = true
            // Other readers open the same file side by side (export's jobs); a lock is waited out.
            configuration.busyMode = .timeout(10)
            let reader = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? reader.close() }
            return try reader.read { db in
                let problems = try String.fetchAll(db, sql: "PRAGMA quick_check").filter { $0 != "ok" }
                guard problems.isEmpty, foreignKeys, let dangling = try ForeignKeyCheck.dangling(db) else { return problems }
                // As the commit of a store not read once says it.
                throw StoreError(.integrity([dangling]), path: path, activity: "checking foreign keys")
            }
        } catch let error as DatabaseError {
            throw StoreError(error, path: path, activity: "checking")
        }
    }

    /// Rows per canonical table.
    public func rowCounts() throws -> [String: Int] {
        try queue.read { db in
            var counts: [String: Int] = [:]
            for table in CanonicalTables.all {
                counts[table] = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0
            }
            return counts
        }
    }

    /// Runs `body` in a read transaction.
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try queue.read(body)
        } catch let error as DatabaseError {
            throw StoreError(error, path: path, activity: "reading")
        }
    }
}

/// The canonical tables, parents before children.
public enum CanonicalTables {
    /// Rows per table as people read them: `12 log, 3 recipe`, tables without rows left out.
    public static func countsLine(_ counts: [String: Int]) -> String {
        counts.filter { $0.value > 0 }.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
    }

    /// The canonical tables a file has, the ones with most rows first (`max(rowid)`, which
    /// SQLite answers from the end of the b-tree, stands in for the count): the order in which
    /// work per table keeps threads evenly loaded.
    public static func largestFirst(_ db: Database) throws -> [(table: String, rows: Int)] {
        let present = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
        let tables = all.filter { present.contains($0) }
        let sizes = try tables.map { try Int.fetchOne(db, sql: "SELECT max(rowid) FROM \($0)") ?? 0 }
        return zip(tables, sizes).sorted { $0.1 > $1.1 }.map { (table: $0.0, rows: $0.1) }
    }

    /// The columns that identify a table's rows: its primary key, or else those of its UNIQUE
    /// index (logs and their snapshots since schema version 2); empty when it has neither.
    public static func key(of table: String, db: Database) throws -> [String] {
        let primary = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?, 'main') WHERE pk > 0 ORDER BY pk", arguments: [table])
        if !primary.isEmpty { return primary }
        let unique = try String.fetchOne(db, sql: "SELECT name FROM pragma_index_list(?, 'main') WHERE \"unique\" AND NOT partial ORDER BY seq LIMIT 1",
                                         arguments: [table])
        guard let unique else { return [] }
        return try String.fetchAll(db, sql: "SELECT name FROM pragma_index_info(?, 'main') ORDER BY seqno", arguments: [unique])
    }

    public static let all = declarations.map(\.table)

    /// The tables of a canonical store that are not canonical: GRDB's record of migrations and
    /// Ferry's digests of records (``RecordDigests``). Said as SQL, for `name NOT IN (…)`.
    public static let internalTablesSQL = "'grdb_migrations', 'ferry_record_digest', 'ferry_record_digest_stamp'"
}

/// `close(2)`, which `CanonicalStore.close()` hides inside the class.
private func closeDescriptor(_ descriptor: Int32) {
    close(descriptor)
}
