import FerryCoreData
import FerryFiles
import Foundation
import GRDB

/// Whether a path a command would write may be replaced: only a store Ferry wrote, unless the
/// person says otherwise. Judged before anything is read, written or backed up, without a byte
/// of the file or its journal files changed: the main file alone is read in place (SQLite's
/// `immutable=1`); a file with a journal or WAL beside it is judged on a private copy of all
/// three, as the journal or WAL may hold what the main file lacks.
public enum ReplaceableStore {
    /// - Parameter allowForeign: `--replace-foreign`: a file Ferry did not write may be replaced.
    ///   Nil: it may never be (a merge needs a Ferry store), and the refusal says nothing of the flag.
    /// - Returns: true for a Ferry store (or nothing, or an empty file), false for a foreign file
    ///   that `allowForeign` lets the command replace.
    /// - Throws: ``StoreError`` `.notACanonicalStore` naming what the file is and the way out;
    ///   `.newerSchema` for a newer Ferry's store; `.locked`; `.database` for a file that cannot
    ///   be read; `.cannotCreate` for a folder.
    @discardableResult
    public static func check(_ store: String, allowForeign: Bool?) throws -> Bool {
        var status = stat()
        guard stat(store, &status) == 0 else { return true }
        guard (status.st_mode & S_IFMT) != S_IFDIR else { throw StoreError(.cannotCreate("it is a folder, not a store file"), path: store) }
        // An empty file holds nothing to lose: SQLite takes it for an empty database, and so does Ferry.
        if status.st_size == 0 { return true }
        let reason: String
        do {
            _ = try schemaVersion(store)
            return true
        } catch let error as StoreError {
            guard case .notACanonicalStore(let why) = error.kind else { throw error }
            reason = why
        }
        guard allowForeign == true else {
            let way = allowForeign == nil ? "; a merge needs a Ferry store" : "; Ferry replaces only stores it wrote (--replace-foreign replaces it, after a backup)"
            throw StoreError(.notACanonicalStore(reason + way), path: store)
        }
        return false
    }

    private static func schemaVersion(_ store: String) throws -> Int {
        let sidecars = ["-wal", "-journal"].filter { size(store + $0) > 0 }
        guard sidecars.isEmpty, CoreDataStoreFile.supportsURIFilenames else { return try onPrivateCopy(store, with: sidecars) }
        return try judged(store) { try UntrustedStore.checkSchema(store, immutable: true) }
    }

    /// The main file and its journal or WAL copied into a private scratch folder, the copy's
    /// transaction settled there, and judged.
    private static func onPrivateCopy(_ store: String, with sidecars: [String]) throws -> Int {
        let folder = ScratchFiles.temporaryPath(purpose: "judge")
        defer { ScratchFiles.remove(folder) }
        let copy = (folder as NSString).appendingPathComponent("store.sqlite")
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            for suffix in [""] + sidecars { try FileManager.default.copyItem(atPath: store + suffix, toPath: copy + suffix) }
        } catch {
            throw StoreError(.database("cannot read it to judge it: \((error as NSError).localizedDescription)"), path: store)
        }
        return try judged(store) {
            try StoreFiles.settle(copy)
            return try UntrustedStore.checkSchema(copy)
        }
    }

    /// Only a file that is no database, or not Ferry's schema, is foreign; a file that cannot be
    /// read, a damaged one or a locked one is that, with its own error.
    private static func judged(_ store: String, _ check: () throws -> Int) throws -> Int {
        do {
            return try check()
        } catch let error as DatabaseError {
            if error.resultCode == .SQLITE_NOTADB { throw StoreError(.notACanonicalStore("it is not an SQLite database"), path: store) }
            throw StoreError(error, path: store, activity: "reading it to see whether it is a Ferry store")
        } catch var error as StoreError {
            error.path = store
            throw error
        }
    }

    private static func size(_ path: String) -> Int64 {
        var status = stat()
        return stat(path, &status) == 0 ? Int64(status.st_size) : 0
    }
}
