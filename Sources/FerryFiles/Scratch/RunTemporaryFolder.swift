import FerrySystem
import Foundation

/// A folder of the run's own for the temporary files that SQLite and Ferry make and unlink at
/// once (SQLite's sorts and temporary tables, Ferry's parked links). A signal can end the run
/// between a file's making and its unlinking: in the shared temp folder the file would stay, a
/// piece of the user's data under a name nobody could tell as Ferry's; in a folder the run
/// registered as scratch, the interruption removes it with the folder.
public enum RunTemporaryFolder {
    /// Where SQLite puts its temporary files when nothing else is said: `SQLITE_TMPDIR`, `TMPDIR`,
    /// then the first of /var/tmp, /usr/tmp and /tmp that can be written.
    public static func base(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let candidates = [environment["SQLITE_TMPDIR"], environment["TMPDIR"]].compactMap { $0 } + ["/var/tmp", "/usr/tmp", "/tmp"]
        return candidates.first { access($0, W_OK | X_OK) == 0 } ?? "."
    }

    /// The folders a dead run's temporary scratch may be in: the temp folder, and where SQLite's
    /// temporary files went before this run pointed them at a folder of its own.
    public static var searched: [String] {
        let folders = [NSTemporaryDirectory(), installed.withLock { $0.map(parent) } ?? base()]
        var seen: Set<String> = []
        return folders.filter { seen.insert(URL(fileURLWithPath: $0).resolvingSymlinksInPath().path).inserted }
    }

    /// The folder to name in a message: the run's own folder is named by the one it is in (the
    /// one a person chose, or whose disk is full), which outlives the run.
    public static func named(_ folder: String) -> String {
        Self.folder == folder ? parent(folder) : folder
    }

    /// Makes `<base>/ferry-tmp.ferry-<host>-<pid>-<tag>.partial`, points `SQLITE_TMPDIR` at it
    /// (SQLite reads it once, when it is first used) and removes it when the process exits; an
    /// interruption removes it with the rest of the run's scratch. A run killed outright leaves
    /// it, and the next run that writes (or `ferry clean`) removes it as a dead run's leftover.
    /// For a program's `main`, after ``Interruption/install(prefix:)`` and before anything reads
    /// the environment on another thread or opens a database. Where the folder cannot be made,
    /// nothing changes.
    /// - Returns: the folder, or nil.
    @discardableResult
    public static func install() -> String? {
        let base = base()
        let path = (base as NSString).appendingPathComponent("ferry-tmp\(ScratchFiles.tag())")
        guard ScratchFiles.makeFolder(path) else { return nil }
        installed.withLock { $0 = path }
        setenv("SQLITE_TMPDIR", path, 1)
        atexit { RunTemporaryFolder.removeAtExit() }
        return path
    }

    /// The run's folder, once ``install()`` has made it (it may have been removed since).
    public static var folder: String? { installed.withLock { $0 } }

    private static func removeAtExit() {
        guard let path = folder else { return }
        ScratchFiles.remove(path)
    }

    private static func parent(_ path: String) -> String { (path as NSString).deletingLastPathComponent }

    /// The run's folder, once made.
    private static let installed = LockedState<String?>(nil)
}
