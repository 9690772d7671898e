import FerryFiles
import FerrySystem
import Foundation

/// The folder `ferry dump -o` writes: what may be replaced, and the replacing itself.
enum DumpFolder {
    /// Whether `directory` holds an earlier dump to replace (false: it is absent or empty).
    /// - Throws: ``OutputError`` for a file, or a folder holding anything but a dump's files.
    static func check(_ directory: String) throws -> Bool {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isFolder) else { return false }
        guard isFolder.boolValue else { throw OutputError(path: directory, reason: "is a file, not a folder") }
        let names: [String]
        do {
            // Finder's folder settings are not the user's data, and no reason to refuse.
            names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0 != ".DS_Store" }
        } catch {
            throw OutputError(path: directory, reason: "cannot read the folder: \((error as NSError).localizedDescription)")
        }
        guard !names.isEmpty else { return false }
        let strangers = names.filter { name in
            let isDump = name == CoreDataStoreDump.storeFileName || name.hasSuffix(".ndjson") || name.hasSuffix(".json")
            var status = stat()
            let path = (directory as NSString).appendingPathComponent(name)
            return !isDump || lstat(path, &status) != 0 || (status.st_mode & S_IFMT) != S_IFREG
        }
        guard names.contains(CoreDataStoreDump.storeFileName), strangers.isEmpty else {
            let shown = strangers.isEmpty ? "" : " (\(strangers.sorted().prefix(3).joined(separator: ", "))\(strangers.count > 3 ? ", …" : ""))"
            throw OutputError(path: directory, reason: "the folder holds files that are not a Ferry dump\(shown); name a new or empty folder")
        }
        return true
    }

    /// Renames the staged folder onto `directory`. An earlier dump there is swapped with it in
    /// one step where the system can (else moved aside first, in the same locked step), then
    /// removed; the folder keeps the earlier one's permissions.
    static func publish(_ staging: String, as directory: String, replacing: Bool) throws {
        var status = stat()
        chmod(staging, replacing && stat(directory, &status) == 0 ? status.st_mode & 0o7777 : 0o755 & ~SystemCall.fileCreationMask)
        guard replacing else {
            unlink((directory as NSString).appendingPathComponent(".DS_Store"))
            rmdir(directory)
            do {
                try FileSync.publish(staging, as: directory)
            } catch {
                throw OutputError(path: directory, reason: "cannot move the dump into place: \(error.reason)")
            }
            return
        }
        // Checked again: a file put there during a long dump must not go with the old one.
        _ = try check(directory)
        let aside = ScratchFiles.path(beside: directory, purpose: "replaced")
        defer { ScratchFiles.remove(aside) }
        do {
            try FileSync.publish(staging, as: directory, exchangingWith: aside)
        } catch {
            throw OutputError(path: directory, reason: "cannot move the dump into place: \(error.reason)")
        }
    }
}
