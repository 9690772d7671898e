import FerryJSON

/// An error reading a legacy store, archive or file: one line naming the file, and where
/// known the record and field.
///
/// For example: `Model.sqlite: not a Core Data store (no Z_PRIMARYKEY table)`.
public struct CoreDataReadError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case fileNotFound
        case unreadable(String)
        case notSQLite
        case corruptStore(String)
        case notACoreDataStore(String)
        case modelMismatch(String)
        case unknownEntity(String, available: [String])
        case badArchive(String)
        case badModel(String)
        case noPersistentHistory
        /// A record given to be written (`ferry load`) that cannot be.
        case badRecord(String)
    }

    public var kind: Kind
    public var location: RecordLocation

    public init(_ kind: Kind, at location: RecordLocation) {
        self.kind = kind
        self.location = location
    }

    public init(_ kind: Kind, file: String) {
        self.init(kind, at: RecordLocation(file: file))
    }

    public var message: String {
        switch kind {
        case .fileNotFound: return "no such file or directory"
        case .unreadable(let reason): return "cannot be read: \(reason)"
        case .notSQLite: return "not an SQLite database (no \"SQLite format 3\" header)"
        case .corruptStore(let reason): return "damaged SQLite database: \(reason)"
        case .notACoreDataStore(let reason): return "not a Core Data or SwiftData store (\(reason))"
        case .modelMismatch(let reason): return "the model does not describe this store: \(reason)"
        case .unknownEntity(let name, let available): return "no entity \"\(name)\"; entities: \(available.joined(separator: ", "))"
        case .badArchive(let reason): return "keyed archive cannot be read: \(reason)"
        case .badModel(let reason): return "compiled model cannot be read: \(reason)"
        case .badRecord(let reason): return reason
        case .noPersistentHistory:
            return "the store keeps no persistent history (no ACHANGE and ATRANSACTION tables: history tracking was off when it was written)"
        }
    }

    public var description: String { "\(location): \(message)" }
}
