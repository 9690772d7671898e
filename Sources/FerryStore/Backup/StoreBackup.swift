import FerryFiles
import Foundation
import GRDB

/// Verified, timestamped, rotated copies of a store, taken before anything overwrites it:
/// `data.ferry` is copied to `data.ferry.backups/data-20261122T101500.123Z.ferry` under SQLite's
/// shared lock (a consistent snapshot even while another process reads it), compared with the
/// store byte for byte (a store in WAL mode: through SQLite's backup API, by row counts), checked
/// with `PRAGMA quick_check`, flushed to disk, and only then given its name. The oldest copies
/// beyond `keep` are removed.
public struct StoreBackup: Sendable {
    public var keep: Int

    public init(keep: Int = 5) {
        self.keep = max(1, keep)
    }

    /// The folder that holds a store's backups.
    public static func folder(for storePath: String) -> String {
        storePath + ".backups"
    }

    /// Copies the store, keeps the copy and rotates the older ones out: `ferry backup`.
    /// - Returns: the backup's path, and the older backups rotation removed.
    /// - Throws: ``StoreError`` `.backup` naming what failed; the store is untouched either way.
    @discardableResult
    public func backUp(_ storePath: String, now: Date = Date()) throws -> (path: String, removed: [String]) {
        let taken = try take(storePath, now: now)
        let removed = taken.keep()
        return (taken.path, removed)
    }

    /// Copies the store for a write that is about to replace it. The copy stays this run's
    /// until ``TakenBackup/keep()`` (after the write succeeded; only then are old backups rotated
    /// out): a failed or interrupted run removes it again, and the folder if it made it.
    /// - Throws: ``StoreError`` `.backup` naming what failed; nothing is left behind.
    /// - Parameter foreign: a file Ferry did not write, replaced on request: one that is no SQLite
    ///   database is kept as its bytes (without it, such a file fails the backup).
    public func take(_ storePath: String, now: Date = Date(), foreign: Bool = false) throws -> TakenBackup {
        var status = stat()
        if stat(storePath, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            throw StoreError(.notACanonicalStore("it is a folder, not a store file"), path: storePath)
        }
        let folder = Self.folder(for: storePath)
        // Registered before it exists, so that no interruption falls between the two.
        ScratchFiles.register(folder, ifEmpty: true)
        let madeFolder = mkdir(folder, 0o755) == 0
        guard madeFolder || errno == EEXIST else {
            let reason = FileSync.lastError()
            ScratchFiles.forget(folder)
            throw StoreError(.backup("cannot create \(folder): \(reason)"), path: storePath)
        }
        if !madeFolder { ScratchFiles.forget(folder) }
        do {
            let final = try copy(storePath, into: folder, now: now, foreign: foreign)
            // Once the store is replaced, the backup is what remains of it: no interruption may remove it then.
            ScratchFiles.keep([final] + (madeFolder ? [folder] : []), whenPublishing: storePath)
            return TakenBackup(path: final, store: storePath, madeFolder: madeFolder ? folder : nil, keepCount: keep)
        } catch {
            if madeFolder {
                ScratchFiles.forget(folder)
                rmdir(folder)
            }
            throw error
        }
    }

    private func copy(_ storePath: String, into folder: String, now: Date, foreign: Bool) throws -> String {
        let bytesOnly = foreign && !SQLiteHeader.starts(storePath)
        if !bytesOnly { try StoreFiles.settle(storePath) }
        let final = uniqueName(in: folder, store: storePath, now: now)
        let temporary = FileSync.temporaryPath(beside: final)
        // This run's until the write it stands for is done: registered before it has its name.
        ScratchFiles.register(final)
        do {
            if bytesOnly {
                // A foreign file replaced on request (--replace-foreign): kept as its bytes.
                try FileManager.default.copyItem(atPath: storePath, toPath: temporary)
                try StoreSync.publish(temporary, as: final, reportingAs: storePath) { .backup("cannot name the copy \(final): \($0)") }
                return final
            }
            let copy = try Self.checkedCopy(storePath, to: temporary)
            guard copy.problems.isEmpty else { throw StoreError(.backup("the copy fails its check: \(copy.problems.prefix(2).joined(separator: "; "))"), path: storePath) }
            guard copy.expected == copy.found else { throw StoreError(.backup("the copy's row counts differ from the store's"), path: storePath) }
            try StoreSync.publish(temporary, as: final, reportingAs: storePath) { .backup("cannot name the copy \(final): \($0)") }
        } catch let error as StoreError {
            FileSync.removeDatabase(temporary)
            ScratchFiles.forget(final)
            throw error
        } catch let error as DatabaseError {
            FileSync.removeDatabase(temporary)
            ScratchFiles.forget(final)
            // What the file is (65) and another process's lock (75) read as for every command;
            // any other database failure is the backup's (73).
            let mapped = StoreError(error, path: storePath, activity: nil, writing: true)
            if case .database(let reason) = mapped.kind { throw StoreError(.backup(reason), path: storePath) }
            throw mapped
        } catch {
            FileSync.removeDatabase(temporary)
            ScratchFiles.forget(final)
            throw StoreError(.backup("\(error)"), path: storePath)
        }
        return final
    }

    /// The store's backups, oldest first.
    public static func backups(of storePath: String) -> [String] {
        let folder = folder(for: storePath)
        let (stem, _) = nameParts(storePath)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasPrefix(stem + "-") && !$0.hasPrefix(".") }.sorted()
            .map { (folder as NSString).appendingPathComponent($0) }
    }

    /// Removes the oldest backups beyond `keep`; returns what it removed.
    @discardableResult
    static func rotate(store: String, keep: Int) -> [String] {
        let old = Array(Self.backups(of: store).dropLast(keep))
        for path in old { unlink(path) }
        return old
    }

    /// `<stem>-<UTC time to the millisecond>[-n].<extension>`: names sort in time order.
    private func uniqueName(in folder: String, store: String, now: Date) -> String {
        let (stem, pathExtension) = Self.nameParts(store)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss.SSS'Z'"
        let stamp = formatter.string(from: now)
        var counter = 1
        while true {
            let suffix = counter == 1 ? "" : "-\(counter)"
            let name = "\(stem)-\(stamp)\(suffix)" + (pathExtension.isEmpty ? "" : ".\(pathExtension)")
            let path = (folder as NSString).appendingPathComponent(name)
            if !FileManager.default.fileExists(atPath: path) { return path }
            counter += 1
        }
    }

    private static func nameParts(_ store: String) -> (String, String) {
        let name = (store as NSString).lastPathComponent
        let pathExtension = (name as NSString).pathExtension
        return ((name as NSString).deletingPathExtension, pathExtension)
    }

    /// Copies a database and checks the copy, for the caller to judge: its structural problems
    /// (`PRAGMA quick_check`: every page, b-tree, record and NOT NULL column read again), and both
    /// sides' rows per table. A database in a rollback journal's mode is copied by the kernel under
    /// SQLite's shared lock and compared with it byte for byte under that same lock: the copy is
    /// then the database, and its counts are the database's. One in WAL mode, whose file alone is
    /// not the data, goes through SQLite's backup API and has its rows counted on both sides.
    /// (`integrity_check`, which also compares each index with its table, took 19 s at a million
    /// logs, where a copy known to be the store's bytes learns nothing more from it.)
    /// - Parameter counting: count the copy's rows even when it is known to be the database's bytes.
    static func checkedCopy(_ source: String, to destination: String, counting: Bool = false) throws
        -> (problems: [String], expected: [String: Int], found: [String: Int]) {
        var configuration = Configuration()
        configuration.readonly = true
        // Queues left by an error close when released; on success each is closed and its failure said.
        let from = try ReadingConnection.open(source, Configuration())
        let wal = try from.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }?.lowercased() == "wal"
        let checked: (problems: [String], expected: [String: Int], found: [String: Int])
        if wal {
            // Checked on the connection that wrote it, whose closing takes the copy's WAL with it.
            let to = try DatabaseQueue(path: destination)
            try from.backup(to: to)
            checked = (try quickCheck(to), try rowCounts(from), try rowCounts(to))
            try to.close()
        } else if let failure = try CanonicalStore.copyFile(of: from, at: source, to: destination, compared: true) {
            checked = ([failure], [:], [:])
        } else {
            let copy = try DatabaseQueue(path: destination, configuration: configuration)
            let found = counting ? try rowCounts(copy) : [:]
            checked = (try quickCheck(copy), found, found)
            try copy.close()
        }
        try from.close()
        return checked
    }

    private static func quickCheck(_ reader: some DatabaseReader) throws -> [String] {
        try reader.read { try String.fetchAll($0, sql: "PRAGMA quick_check") }.filter { $0 != "ok" }
    }

    static func rowCounts(_ reader: some DatabaseReader) throws -> [String: Int] {
        try reader.read { db in
            var counts: [String: Int] = [:]
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") {
                counts[table] = try Int.fetchOne(db, sql: "SELECT count(*) FROM \"\(table.replacingOccurrences(of: "\"", with: "\"\""))\"") ?? 0
            }
            return counts
        }
    }
}

/// A backup taken for a write that has not happened yet (``StoreBackup/take(_:now:)``).
public struct TakenBackup: Sendable {
    public let path: String
    let store: String
    /// The backups folder, when this run made it.
    let madeFolder: String?
    let keepCount: Int

    /// The write succeeded: the backup is kept, and the oldest beyond the limit are removed.
    /// - Returns: the backups removed by rotation.
    @discardableResult
    public func keep() -> [String] {
        ScratchFiles.forget(path)
        if let madeFolder { ScratchFiles.forget(madeFolder) }
        return StoreBackup.rotate(store: store, keep: keepCount)
    }

    /// The write failed: the backup goes, and the folder if this run made it (and it is empty).
    public func discard() {
        ScratchFiles.remove(path)
        if let madeFolder {
            ScratchFiles.forget(madeFolder)
            rmdir(madeFolder)
        }
    }
}
