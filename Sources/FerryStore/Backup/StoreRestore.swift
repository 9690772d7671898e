import FerryFiles
import FerrySystem
import Foundation
import GRDB

/// `ferry restore`: puts a backup back in place of a store. The backup is checked
/// (``UntrustedStore``), copied beside the store under a temporary name, checked again and
/// flushed; the current store is backed up (or, when damaged, kept as a raw copy); then the
/// copy is renamed over the store, so the store is at every moment the old one or the new one.
public struct StoreRestore: Sendable {
    public var backup: StoreBackup

    public init(backup: StoreBackup = StoreBackup()) {
        self.backup = backup
    }

    public struct Result: Sendable {
        public var restoredFrom: String
        /// The copy of the store as it was before the restore, if there was a store.
        public var previousStore: String?
        public var counts: [String: Int]
    }

    /// - Parameter source: a backup file; the newest of the store's backups when nil.
    public func restore(_ store: String, from source: String? = nil) throws -> Result {
        guard let source = source ?? StoreBackup.backups(of: store).last else {
            throw StoreError(.fileNotFound("there are no backups in \(StoreBackup.folder(for: store))/ to restore from"), path: store)
        }
        guard FileManager.default.fileExists(atPath: source) else { throw StoreError(.fileNotFound("no such backup: \(source)"), path: store) }
        _ = try UntrustedStore.check(source)
        let temporary = FileSync.temporaryPath(beside: store, purpose: "restore")
        var published = false
        defer { if !published { FileSync.removeDatabase(temporary) } }
        let counts = try StoreFiles.verifiedCopy(source, to: temporary, reportingAs: store)

        var previous: String?
        var taken: TakenBackup?
        if FileManager.default.fileExists(atPath: store) {
            try StoreFiles.settle(store)
            do {
                taken = try backup.take(store)
                previous = taken?.path
            } catch let error as StoreError {
                // A damaged store is exactly what one restores over: keep its bytes, as they are.
                guard case .backup = error.kind else { throw error }
                previous = try StoreFiles.rawCopy(store)
            }
        }
        do {
            try StoreFiles.publish(temporary, as: store)
        } catch {
            taken?.discard()
            throw error
        }
        published = true
        // Rotation after the restore: the backup restored from may be the oldest kept.
        taken?.keep()
        return Result(restoredFrom: source, previousStore: previous, counts: counts)
    }
}

/// File moves shared by restore and import: verified copies, recovery of
/// unfinished transactions, publishing by rename.
public enum StoreFiles {
    /// Copies a store (``StoreBackup/checkedCopy(_:to:counting:)``), checks the copy and flushes it.
    /// - Returns: the copy's rows per table.
    static func verifiedCopy(_ source: String, to destination: String, reportingAs store: String) throws -> [String: Int] {
        do {
            let copy = try StoreBackup.checkedCopy(source, to: destination, counting: true)
            guard copy.problems.isEmpty else { throw StoreError(.integrity(copy.problems), path: destination, activity: "copying \(source)") }
            guard copy.expected == copy.found else { throw StoreError(.backup("the copy's row counts differ from \(source)'s"), path: store) }
            try StoreSync.flush(destination)
            return copy.found.filter { CanonicalTables.all.contains($0.key) }
        } catch let error as DatabaseError {
            throw StoreError(error, path: store, activity: "copying \(source)", writing: true)
        }
    }

    /// Finishes or rolls back a transaction a killed process left (a hot `-journal`), so that
    /// the journal cannot later be applied to a different file renamed onto the same name.
    public static func settle(_ store: String) throws {
        guard FileManager.default.fileExists(atPath: store + "-journal") || FileManager.default.fileExists(atPath: store + "-wal") else { return }
        do {
            let queue = try DatabaseQueue(path: store)
            _ = try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master") }
            try queue.close()
        } catch let error as DatabaseError {
            throw StoreError(error, path: store, activity: "recovering an unfinished transaction")
        }
    }

    /// The store's bytes as they are, beside its backups, named `damaged-<name>-<time>`.
    static func rawCopy(_ store: String) throws -> String {
        let folder = StoreBackup.folder(for: store)
        let stamp = Int(Date().timeIntervalSince1970 * 1000)
        let destination = (folder as NSString).appendingPathComponent("damaged-\((store as NSString).lastPathComponent)-\(stamp)")
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let temporary = FileSync.temporaryPath(beside: destination)
            defer { FileSync.removeDatabase(temporary) }
            try FileManager.default.copyItem(atPath: store, toPath: temporary)
            try StoreSync.publish(temporary, as: destination, reportingAs: store) { _ in .backup("cannot name \(destination)") }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.backup("cannot keep a copy of the damaged store: \((error as NSError).localizedDescription)"), path: store)
        }
        return destination
    }

    /// Renames a flushed file onto the store and flushes the folder.
    public static func publish(_ temporary: String, as store: String) throws {
        // A journal beside the name would be read as the new file's.
        try StoreSync.publish(temporary, as: store, clearing: ["-wal", "-shm", "-journal"].map { store + $0 }, reportingAs: store) { .cannotCreate("cannot move the new store into place: \($0)") }
    }

    /// Replaces an existing store with a whole, checked file beside it: the file gets the store's
    /// permissions (and owner, where allowed) and is flushed; the store is backed up
    /// (``StoreBackup/take(_:now:)``) and the file renamed over it, its journal files removed in
    /// the same step. The backup is kept, and older ones rotated out, only once the rename has
    /// succeeded.
    /// - Parameters:
    ///   - unchangedSince: the store as it was when the file was copied from it: a store that
    ///     another process changed since is not replaced (``StoreError/Kind/changedMeanwhile``).
    ///   - backedUp: told the backup's path once it is kept.
    ///   - foreign: the store is a file Ferry did not write, replaced on request: backed up as its
    ///     bytes when it is no SQLite database.
    public static func replace(_ store: String, with replacement: String, backup: StoreBackup, unchangedSince: StoreState? = nil,
                               foreign: Bool = false, backedUp: (String) -> Void = { _ in }) throws {
        // The backup is taken while the replacement goes to disk: side by side, the two take the
        // longer of their times rather than the sum.
        let taking = BackgroundJob { try backup.take(store, foreign: foreign) }
        try replace(store, with: replacement, taking: taking, unchangedSince: unchangedSince, backedUp: backedUp)
    }

    /// ``replace(_:with:backup:unchangedSince:foreign:backedUp:)`` with the backup being taken
    /// already (on another thread): waited for once the replacement is on disk.
    private static func replace(_ store: String, with replacement: String, taking: BackgroundJob<TakenBackup>,
                                unchangedSince: StoreState?, backedUp: (String) -> Void) throws {
        var status = stat()
        if stat(store, &status) == 0 {
            chmod(replacement, status.st_mode & 0o7777)
            // Best effort: only root may give a file away; the group may be one of the user's.
            _ = chown(replacement, status.st_uid, status.st_gid)
        }
        do {
            try StoreSync.flush(replacement)
        } catch {
            // A backup that failed too is what is said (exit 73), as when it was taken first.
            try taking.value().discard()
            throw error
        }
        let taken = try taking.value()
        do {
            try settle(store)
            if let unchangedSince, try StoreState(of: store) != unchangedSince {
                throw StoreError(.changedMeanwhile, path: store)
            }
            try publish(replacement, as: store)
        } catch {
            taken.discard()
            throw error
        }
        taken.keep()
        backedUp(taken.path)
    }

    /// Waits for a backup being taken and removes it: the write it stood for failed.
    private static func discard(_ taking: BackgroundJob<TakenBackup>) {
        do {
            try taking.value().discard()
        } catch {
            // A backup that failed removed what it had made (``StoreBackup/take(_:now:foreign:)``),
            // and the failed write's error is the one said.
        }
    }

    /// Changes a store through a copy of it at `working` (beside it, or in staging on its file
    /// system), with `change(_:through:…)`: the copy is changed, checked and renamed over the
    /// store, refused if another process changed the store since it was copied. An error or an
    /// interruption leaves the store byte for byte as it was, and the copy gone.
    /// - Parameter copied: the copy at `working`, being made already by ``startCopy(_:to:)``.
    public static func changeThroughCopy<Result>(_ store: String, at working: String, backup: StoreBackup, thoroughCheck: Bool,
                                                 workingCopy: CanonicalStore.WorkingCopy, copied: StartedCopy? = nil,
                                                 backedUp: (String) -> Void,
                                                 _ write: (CanonicalStore) throws -> Result) throws -> Result {
        precondition(copied.map { $0.path == working } ?? true, "the working copy was started at \(copied?.path ?? ""), not \(working)")
        let before: StoreState
        do {
            before = try (copied ?? startCopy(store, to: working)).value()
        } catch {
            FileSync.removeDatabase(working)
            throw error
        }
        return try change(store, through: working, unchangedSince: before, backup: backup, thoroughCheck: thoroughCheck,
                          workingCopy: workingCopy, backedUp: backedUp, write)
    }

    /// Changes a store through another file that then takes its place: `write` changes `file`
    /// (a copy of the store, or a bundle's store that takes the store's rows), which is then
    /// checked and renamed over the store with ``replace(_:with:backup:unchangedSince:foreign:backedUp:)``,
    /// refused if the store is no longer as it was at `unchangedSince`. The backup is taken on a
    /// thread of its own while the file is changed, and removed if the change fails. An error or
    /// an interruption leaves the store byte for byte as it was, and the file gone.
    package static func change<Result>(_ store: String, through file: String, unchangedSince before: StoreState, backup: StoreBackup,
                                       thoroughCheck: Bool, workingCopy: CanonicalStore.WorkingCopy, backedUp: (String) -> Void,
                                       _ write: (CanonicalStore) throws -> Result) throws -> Result {
        var replaced = false
        defer { if !replaced { FileSync.removeDatabase(file) } }
        // The backup is taken while the file is changed: a merge's statements keep one core busy
        // for seconds, and the backup (a kernel copy, a comparison, quick_check) wants the other.
        // The store is the one `before` describes, or the replacement is refused below.
        let taking = BackgroundJob { try backup.take(store) }
        let result: Result
        do {
            let target = try CanonicalStore(path: file, workingCopy: workingCopy)
            result = try write(target)
            let problems = try target.check(thorough: thoroughCheck)
            try target.close()
            guard problems.isEmpty else { throw StoreError(.integrity(problems), path: store) }
        } catch {
            discard(taking)
            // The person named the store; the file beside it is Ferry's own, and gone.
            guard var named = error as? StoreError, named.path == file else { throw error }
            named.path = store
            throw named
        }
        try replace(store, with: file, taking: taking, unchangedSince: before, backedUp: backedUp)
        replaced = true
        return result
    }

    /// A store's working copy being made on a thread of its own (copied by the kernel under
    /// SQLite's shared lock; a store in WAL mode through SQLite's backup API), so that it
    /// can be made while other work goes on; ``StartedCopy/value()`` gives the store's state as it
    /// was copied.
    public static func startCopy(_ store: String, to working: String) throws -> StartedCopy {
        try settle(store)
        return StartedCopy(path: working, job: BackgroundJob {
            let before = try StoreState(of: store)
            try StoreCopy.copy(store, to: working)
            return before
        })
    }

    /// The path a store's writes go to: a symbolic link is followed, so that the file it names is
    /// replaced rather than the link.
    public static func resolved(_ store: String) -> String {
        var status = stat()
        guard lstat(store, &status) == 0, (status.st_mode & S_IFMT) == S_IFLNK else { return store }
        return URL(fileURLWithPath: store).resolvingSymlinksInPath().path
    }

    /// A replaced store's permissions; for a new one, 0644 less the umask.
    public static func permissions(of existing: String?) -> mode_t {
        var status = stat()
        if let existing, stat(existing, &status) == 0 { return status.st_mode & 0o7777 }
        return 0o644 & ~SystemCall.fileCreationMask
    }
}

/// A working copy being made (``StoreFiles/startCopy(_:to:)``).
public struct StartedCopy: Sendable {
    /// Where the copy is made.
    public let path: String
    let job: BackgroundJob<StoreState>

    /// Waits for the copy; the store's state when it was copied.
    public func value() throws -> StoreState { try job.value() }

    /// Waits for the copy to end, made or failed: before its folder is removed.
    public func wait() { _ = job.failure }
}
