import FerryFiles
import FerrySystem
import Foundation
import GRDB

/// A Core Data SQLite store opened without changing a byte of it or of its sidecars.
///
/// A store with a `-wal` (rows not yet checkpointed) or a `-journal` file is copied, with the
/// sidecar, into a private temporary folder and the copy is opened, so that SQLite can read
/// the WAL or roll the journal back there. A store without sidecars is opened in place as
/// `immutable` (no locks, no `-shm`), or copied when this SQLite lacks URI file names.
/// Nothing is ever created next to the store.
///
/// For example:
/// ```swift
/// let store = try CoreDataStoreFile(path: "Model.sqlite")
/// try store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM ZPOST") }
/// ```
public final class CoreDataStoreFile: @unchecked Sendable {
    public let path: String
    /// Whether rows were read through a `-wal` file.
    public let readsWriteAheadLog: Bool
    /// How the store was opened, for reports: `in place (immutable)` or `private copy`.
    public let openMode: String
    let queue: DatabaseQueue
    private let copyDirectory: URL?

    /// - Throws: ``CoreDataReadError``: the file is missing, not SQLite, or damaged.
    public init(path: String) throws(CoreDataReadError) {
        self.path = path
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        guard files.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CoreDataReadError(.fileNotFound, file: path)
        }
        guard !isDirectory.boolValue else { throw CoreDataReadError(.notACoreDataStore("it is a folder, not a store file"), file: path) }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CoreDataReadError(.unreadable("permission denied"), file: path)
        }
        let header = (try? handle.read(upToCount: 16)) ?? nil
        try? handle.close()
        guard let header, header == Data("SQLite format 3\0".utf8) else { throw CoreDataReadError(.notSQLite, file: path) }

        let wal = path + "-wal", journal = path + "-journal"
        let hasWAL = Self.size(of: wal) > 0
        let hasJournal = Self.size(of: journal) > 0
        readsWriteAheadLog = hasWAL
        var madeDirectory: URL?
        do {
            if hasWAL || hasJournal || !Self.supportsURIFilenames {
                // Named for this run, so that an interruption removes it and a later run can tell it is dead.
                let directory = URL(fileURLWithPath: ScratchFiles.temporaryPath(purpose: "store"))
                copyDirectory = directory
                madeDirectory = directory
                try files.createDirectory(at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
                let copy = directory.appendingPathComponent("store.sqlite").path
                try files.copyItem(atPath: path, toPath: copy)
                if hasWAL { try files.copyItem(atPath: wal, toPath: copy + "-wal") }
                if hasJournal { try files.copyItem(atPath: journal, toPath: copy + "-journal") }
                var configuration = Configuration()
                configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA query_only = 1") }
                queue = try DatabaseQueue(path: copy, configuration: configuration)
                openMode = hasWAL ? "private copy with its -wal" : hasJournal ? "private copy with its -journal" : "private copy"
            } else {
                copyDirectory = nil
                // Every page is read below (quick_check) and again by the walk: read in order first.
                SystemCall.readThrough(path)
                var configuration = Configuration()
                configuration.readonly = true
                queue = try DatabaseQueue(path: Self.immutableURI(path), configuration: configuration)
                openMode = "in place, immutable"
            }
            // Opening is lazy in SQLite: touch the schema now so that damage shows here.
            _ = try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
            // Damaged pages elsewhere would otherwise read as missing tables or garbled values.
            let damage = try queue.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check(3)") }
            if damage != ["ok"] {
                let lines = damage.flatMap { $0.split(separator: "\n") }.filter { !$0.hasPrefix("***") }
                throw CoreDataReadError(.corruptStore(lines.prefix(3).joined(separator: "; ")), file: path)
            }
        } catch let error as DatabaseError {
            if let madeDirectory { ScratchFiles.remove(madeDirectory.path) }
            throw CoreDataReadError(Self.kind(of: error), file: path)
        } catch let error as CoreDataReadError {
            if let madeDirectory { ScratchFiles.remove(madeDirectory.path) }
            throw error
        } catch {
            if let madeDirectory { ScratchFiles.remove(madeDirectory.path) }
            throw CoreDataReadError(.unreadable(error.localizedDescription), file: path)
        }
    }

    deinit {
        if let copyDirectory { ScratchFiles.remove(copyDirectory.path) }
    }

    /// Runs `body` on a read-only connection; SQLite errors become ``CoreDataReadError``, other
    /// errors pass through.
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try queue.read(body)
        } catch let error as DatabaseError {
            throw CoreDataReadError(Self.kind(of: error), file: path)
        }
    }

    static func kind(of error: DatabaseError) -> CoreDataReadError.Kind {
        switch error.resultCode {
        case .SQLITE_NOTADB: return .notSQLite
        case .SQLITE_CORRUPT: return .corruptStore(error.message ?? "corrupt")
        default: return .corruptStore(error.message ?? "\(error.resultCode)")
        }
    }

    private static func size(of path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    package static func immutableURI(_ path: String) -> String { uri(path, query: "immutable=1") }

    /// `path` as an SQLite URI with `query` (only where ``supportsURIFilenames``).
    package static func uri(_ path: String, query: String) -> String {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        return "file:\(absolute.addingPercentEncoding(withAllowedCharacters: allowed) ?? absolute)?\(query)"
    }

    /// Debian's SQLite is built with SQLITE_USE_URI; others may not be, and would then take
    /// `file:…` for a plain file name.
    package static let supportsURIFilenames: Bool = {
        let used = try? DatabaseQueue().read { db in try Bool.fetchOne(db, sql: "SELECT sqlite_compileoption_used('USE_URI')") }
        return (used ?? nil) ?? false
    }()
}
