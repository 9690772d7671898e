import FerrySystem
import Foundation

/// Flushing files and folders to disk and renaming into place: the one way Ferry makes an output
/// appear whole or not at all (a temporary name beside the target, flushed, then renamed).
public enum FileSync {
    /// A name beside `path` that no other run uses, registered as this run's scratch until it
    /// is published or removed: `.<name>.<purpose>.ferry-<pid>-<tag>.partial` (``ScratchFiles``).
    public static func temporaryPath(beside path: String, purpose: String? = nil) -> String {
        ScratchFiles.path(beside: path, purpose: purpose)
    }

    public static func flush(_ path: String) throws(FileError) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw FileError(path: path, step: .flush, reason: "cannot open \(path) to flush it: \(lastError())") }
        defer { close(descriptor) }
        guard SystemCall.flushToDisk(descriptor) == 0 else { throw FileError(path: path, step: .flush, reason: "cannot flush \(path): \(lastError())") }
    }

    /// Best effort: some file systems refuse to sync a folder.
    public static func flushFolder(_ path: String) {
        let descriptor = open(path.isEmpty ? "." : path, O_RDONLY)
        guard descriptor >= 0 else { return }
        _ = SystemCall.flushToDisk(descriptor)
        close(descriptor)
    }

    /// Renames `temporary` onto `destination` and flushes the folder, so that the new name
    /// survives a crash. `temporary` is flushed first unless its writer already did.
    /// - Parameters:
    ///   - exchangingWith: where what `destination` holds goes, in the same step (a folder
    ///     `temporary` replaces): swapped in one system call where the system can, else moved
    ///     aside first and moved back when the publishing rename fails.
    ///   - clearing: files removed in the same step, just before the rename (the journal files of
    ///     a replaced database, which SQLite would otherwise read as the new file's): never
    ///     without the rename that needs it, whatever interrupts the run.
    public static func publish(_ temporary: String, as destination: String, flushing: Bool = true,
                               exchangingWith aside: String? = nil, clearing: [String] = []) throws(FileError) {
        if flushing { try flush(temporary) }
        let result = ScratchFiles.publish(temporary, as: destination) { from, to in
            if let aside {
                // Swapped: `to` holds the new, `from` the old, which then goes aside.
                if SystemCall.exchange(from, to) == 0 {
                    _ = rename(from, aside)
                    return 0
                }
                if rename(to, aside) != 0 { return -1 }
            }
            for path in clearing { unlink(path) }
            guard rename(from, to) == 0 else {
                let saved = errno
                if let aside { rename(aside, to) }
                errno = saved
                return -1
            }
            return 0
        }
        guard result == 0 else {
            throw FileError(path: destination, step: .rename, reason: lastError())
        }
        flushFolder((destination as NSString).deletingLastPathComponent)
    }

    /// Removes an SQLite file and the journal files SQLite may have left beside it; a scratch
    /// name is forgotten.
    public static func removeDatabase(_ path: String) {
        for suffix in ["", "-journal", "-wal", "-shm"] { unlink(path + suffix) }
        ScratchFiles.forget(path)
    }

    /// Links `temporary` as `destination`, which must not exist, then removes the temporary
    /// name: a new file that never replaces one that appeared meanwhile. Returns 0, or -1 with errno.
    public static func publishNew(_ temporary: String, as destination: String) -> Int32 {
        // Linked and the temporary name removed in one locked step: no interruption leaves both names.
        ScratchFiles.publish(temporary, as: destination) { from, to in
            guard link(from, to) == 0 else { return -1 }
            unlink(from)
            return 0
        }
    }

    /// The text of the last system error.
    public static func lastError() -> String { SystemCall.errorText() }
}

/// A file could not be flushed or renamed into place; names the file, the step and why.
public struct FileError: Error, Sendable, CustomStringConvertible {
    public enum Step: Sendable { case flush, rename }
    public var path: String
    public var step: Step
    public var reason: String
    public var description: String { "\(path): \(reason)" }
}
