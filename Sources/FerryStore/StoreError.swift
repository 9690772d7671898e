import GRDB

/// An error of the canonical store: what Ferry was doing, and SQLite's own message.
/// For example: `Model.ferry: migration "v1-canonical": SQLite error 1: …`.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case newerSchema(found: Int, known: Int)
        case notACanonicalStore(String)
        case database(String)
        case integrity([String])
        case backup(String)
        case cannotCreate(String)
        case locked
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

    init(_ error: DatabaseError, path: String, activity: String?) {
        let busy = error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
        self.init(busy ? .locked : .database(error.message ?? "\(error.resultCode)"), path: path, activity: activity)
    }

    public var message: String {
        switch kind {
        case .newerSchema(let found, let known):
            return "store schema version \(found) is newer than this Ferry knows (\(known)); use a newer Ferry"
        case .notACanonicalStore(let reason): return "not a Ferry store: \(reason)"
        case .database(let reason): return "SQLite: \(reason)"
        case .integrity(let problems): return "integrity check failed: \(problems.prefix(3).joined(separator: "; "))"
        case .backup(let reason): return "backup failed: \(reason)"
        case .cannotCreate(let reason): return "cannot create the store: \(reason)"
        case .locked: return "the store is locked by another process; try again when it is done"
        }
    }

    public var description: String {
        [path, activity, message].compactMap { $0 }.joined(separator: ": ")
    }
}
