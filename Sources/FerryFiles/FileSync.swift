import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Flushing files and folders to disk and renaming into place: the one way Ferry makes an output
/// appear whole or not at all (a temporary name beside the target, flushed, then renamed).
public enum FileSync {
    /// A name beside `path` that no other run uses: `.<name>.<purpose>.<uuid>.partial`.
    public static func temporaryPath(beside path: String, purpose: String? = nil) -> String {
        let url = URL(fileURLWithPath: path)
        let tag = purpose.map { ".\($0)" } ?? ""
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent)\(tag).\(UUID().uuidString).partial").path
    }

    public static func flush(_ path: String) throws(FileError) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw FileError(path: path, step: .flush, reason: "cannot open \(path) to flush it: \(lastError())") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw FileError(path: path, step: .flush, reason: "cannot flush \(path): \(lastError())") }
    }

    /// Best effort: some file systems refuse to sync a folder.
    public static func flushFolder(_ path: String) {
        let descriptor = open(path.isEmpty ? "." : path, O_RDONLY)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    /// Renames `temporary` onto `destination` and flushes the folder, so that the new name
    /// survives a crash. `temporary` is flushed first unless its writer already did.
    public static func publish(_ temporary: String, as destination: String, flushing: Bool = true) throws(FileError) {
        if flushing { try flush(temporary) }
        guard rename(temporary, destination) == 0 else {
            throw FileError(path: destination, step: .rename, reason: lastError())
        }
        flushFolder((destination as NSString).deletingLastPathComponent)
    }

    /// Removes an SQLite file and the journal files SQLite may have left beside it.
    public static func removeDatabase(_ path: String) {
        for suffix in ["", "-journal", "-wal", "-shm"] { unlink(path + suffix) }
    }

    /// The text of the last system error.
    public static func lastError() -> String { String(cString: strerror(errno)) }
}

/// A file could not be flushed or renamed into place; names the file, the step and why.
public struct FileError: Error, Sendable, CustomStringConvertible {
    public enum Step: Sendable { case flush, rename }
    public var path: String
    public var step: Step
    public var reason: String
    public var description: String { "\(path): \(reason)" }
}
