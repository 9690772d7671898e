import FerryModel
import Foundation

/// Whether a Core Data store Ferry is about to write may replace the file at its path: a store
/// of the same model (the same entities, in any version), or nothing. An app's other store (a
/// Photos library), a Ferry canonical store or any other file is refused unless the person says
/// otherwise. Judged read-only (a store with a WAL is read through a private copy), before
/// anything is converted or backed up.
public enum ReplaceableCoreDataStore {
    /// - Throws: ``CoreDataWriteError`` `.foreignTarget` naming what the file is, `.cannotWrite`
    ///   for a folder.
    public static func check(_ path: String, model: DataModel, allowForeign: Bool) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return }
        guard !isFolder.boolValue else { throw CoreDataWriteError(kind: .cannotWrite("it is a folder, not a store file"), file: path) }
        guard !allowForeign else { return }
        let what: String
        do {
            let reader = try CoreDataStoreReader(path: path)
            let stored = Set(reader.metadata.versionHashes.keys)
            let written = Set(model.entities.map(\.name))
            if stored == written { return }
            let strangers = stored.subtracting(written).sorted()
            what = "a Core Data store of another model"
                + (strangers.isEmpty ? "" : " (its entities \(strangers.prefix(3).joined(separator: ", "))\(strangers.count > 3 ? ", …" : "") are not in this one)")
        } catch let error as CoreDataReadError {
            what = error.message
        }
        throw CoreDataWriteError(kind: .foreignTarget(what), file: path)
    }
}
