import FerryModel
import FerrySystem
import Foundation

/// Whether a Core Data store Ferry is about to write may replace the file at its path: a store
/// of the same model in this or another version (the entities of one contain the other's), an
/// empty file, or nothing. An app's other store (a Photos library), a Ferry canonical store or
/// any other file is refused unless the person says otherwise. Judged read-only (a store with a
/// WAL is read through a private copy), before anything is converted or backed up.
public enum ReplaceableCoreDataStore {
    /// - Throws: ``CoreDataWriteError`` `.foreignTarget` naming what the file is, `.cannotWrite`
    ///   for a folder; ``CoreDataReadError`` for a file that cannot be read or is damaged.
    public static func check(_ path: String, model: DataModel, allowForeign: Bool) throws {
        var status = stat()
        guard stat(path, &status) == 0 else { return }
        guard (status.st_mode & S_IFMT) != S_IFDIR else { throw CoreDataWriteError(kind: .cannotWrite("it is a folder, not a store file"), file: path) }
        guard status.st_size > 0, !allowForeign else { return }
        let what: String
        do {
            let reader = try CoreDataStoreReader(path: path)
            let stored = Set(reader.metadata.versionHashes.keys)
            let written = Set(model.entities.map(\.name))
            // Versions of one model add and remove entities; another app's model shares none of them.
            if stored.isSubset(of: written) || written.isSubset(of: stored) { return }
            let strangers = stored.subtracting(written).sorted()
            what = "a Core Data store of another model (its entities \(strangers.prefix(3).joined(separator: ", "))\(strangers.count > 3 ? ", …" : "") are not in this one)"
        } catch let error as CoreDataReadError {
            switch error.kind {
            case .notSQLite, .notACoreDataStore: what = error.message
            default: throw error
            }
        }
        throw CoreDataWriteError(kind: .foreignTarget(what), file: path)
    }
}
