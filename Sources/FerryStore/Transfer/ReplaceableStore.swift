import FerryFiles
import Foundation
import GRDB

/// Whether a path a command would write may be replaced: only a store Ferry wrote, unless the
/// person says otherwise. Judged read-only, before anything is read, written or backed up, so
/// that a refused target (an app's Core Data store, any other SQLite file, any other file) is
/// left byte for byte as it was, its journal files too.
public enum ReplaceableStore {
    /// - Returns: true for a Ferry store (or nothing at the path), false for a foreign file that
    ///   `allowForeign` lets the command replace.
    /// - Throws: ``StoreError`` `.notACanonicalStore` naming what the file is and the way out;
    ///   `.newerSchema` for a newer Ferry's store; `.locked`; `.cannotCreate` for a folder.
    @discardableResult
    public static func check(_ store: String, allowForeign: Bool) throws -> Bool {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: store, isDirectory: &isFolder) else { return true }
        guard !isFolder.boolValue else { throw StoreError(.cannotCreate("it is a folder, not a store file"), path: store) }
        // An empty file holds nothing to lose: SQLite takes it for an empty database, and so does Ferry.
        if let size = try? FileManager.default.attributesOfItem(atPath: store)[.size] as? Int, size == 0 { return true }
        let reason: String
        do {
            _ = try schemaVersion(store)
            return true
        } catch let error as StoreError {
            guard case .notACanonicalStore(let why) = error.kind else { throw error }
            reason = why
        }
        guard allowForeign else {
            throw StoreError(.notACanonicalStore("\(reason); Ferry replaces only stores it wrote (--replace-foreign replaces it, after a backup)"),
                             path: store)
        }
        return false
    }

    /// The Ferry schema version of the file, checked table by table (``UntrustedStore``); a
    /// transaction a killed Ferry left is rolled back first, which a read-only look cannot do.
    private static func schemaVersion(_ store: String) throws -> Int {
        do {
            return try UntrustedStore.checkSchema(store, immutable: true)
        } catch let error as DatabaseError {
            if error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED { throw StoreError(.locked, path: store) }
            if error.resultCode == .SQLITE_NOTADB { throw StoreError(.notACanonicalStore("it is not an SQLite database"), path: store) }
            guard FileManager.default.fileExists(atPath: store + "-journal") else {
                throw StoreError(.notACanonicalStore("it cannot be read as one (\(error.message ?? "\(error.resultCode)"))"), path: store)
            }
        }
        // Only a file whose header is SQLite's and whose hot journal needs rolling back gets here.
        try StoreFiles.settle(store)
        do {
            return try UntrustedStore.checkSchema(store)
        } catch let error as DatabaseError {
            throw StoreError(.notACanonicalStore("it cannot be read as one (\(error.message ?? "\(error.resultCode)"))"), path: store)
        }
    }
}
