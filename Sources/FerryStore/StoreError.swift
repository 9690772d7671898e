import GRDB

/// An error of the canonical store: what Ferry was doing, and SQLite's own message.
/// For example: `Model.ferry: migration "v1-canonical": SQLite error 1: …`.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case newerSchema(found: Int, known: Int)
        case notACanonicalStore(String)
        case database(String)
        /// A key built after the rows (a new store's log or recipe key) found two rows with one id: SQLite's message.
        case duplicateKey(String)
        case integrity([String])
        case backup(String)
        case cannotCreate(String)
        case locked
        /// Nothing is where the store (or its backups) should be: its own kind, exit 66.
        case fileNotFound(String)
        /// Another process changed the store while Ferry wrote a copy of it to put in its place.
        case changedMeanwhile
    }

    public var kind: Kind
    public var path: String
    /// What Ferry was doing, such as `writing recipe 3F2A…`.
    public var activity: String?

    public init(_ kind: Kind, path: String, activity: String? = nil) {
        self.kind = kind
        self.path = path
        self.activity = activity
    }

    /// - Parameter writing: whether a failure may come from the file system refusing a write, which
    ///   SQLite's backup API reports with a bare result code ("not an error", "disk I/O error").
    init(_ error: DatabaseError, path: String, activity: String?, writing: Bool = false) {
        let busy = error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
        if error.resultCode == .SQLITE_NOTADB {
            // What the file is, not a failure to read it: the wrong kind of input (65), not I/O (74).
            self.init(.notACanonicalStore("it is not an SQLite database"), path: path)
            return
        }
        self.init(busy ? .locked : .database(writing ? Self.writeFailure(error) : error.message ?? "\(error.resultCode)"),
                  path: path, activity: activity)
    }

    /// SQLite's message, or a plain one when the file system refused a write.
    static func writeFailure(_ error: DatabaseError) -> String {
        let reason = error.message ?? "\(error.resultCode)"
        guard error.resultCode == .SQLITE_FULL || error.resultCode == .SQLITE_IOERR || reason == "not an error" else { return reason }
        return "cannot write: the disk is full or the file is larger than allowed (\(error.extendedResultCode))"
    }

    public var message: String {
        switch kind {
        case .newerSchema(let found, let known):
            return "store schema version \(found) is newer than this Ferry knows (\(known)); use a newer Ferry"
        case .notACanonicalStore(let reason): return "not a Ferry store: \(reason)"
        case .database(let reason), .duplicateKey(let reason): return "SQLite: \(reason)"
        case .integrity(let problems): return "integrity check failed: \(problems.prefix(3).joined(separator: "; "))"
        case .backup(let reason): return "backup failed: \(reason)"
        case .cannotCreate(let reason): return "cannot create the store: \(reason)"
        case .locked: return "the store is locked by another process; try again when it is done"
        case .fileNotFound(let what): return what
        case .changedMeanwhile: return "another process changed the store while Ferry worked on a copy of it; nothing was written, run again"
        }
    }

    public var description: String {
        // A lock is the same news whatever Ferry was doing.
        if case .locked = kind { return "\(path): \(message)" }
        return [path, activity, message].compactMap { $0 }.joined(separator: ": ")
    }
}
