import FerryFiles
import Foundation
import GRDBSQLite

/// SQLite makes each temporary file (a sort too big for memory, a statement journal, a temporary
/// table) by opening a file under a random name and unlinking it just after. An interruption
/// handled between the two steps would leave that file — a piece of the user's data — behind; and
/// once the interruption has removed the run's own temporary folder (``RunTemporaryFolder``),
/// SQLite falls back to TMPDIR, /var/tmp or /tmp, where nothing would ever remove it. Installed,
/// this VFS is SQLite's default: the "unix" VFS, with a temporary file's opening (both steps) done
/// under the lock an interruption takes for good (``ScratchFiles/withoutInterruption(_:)``).
public enum SQLiteTemporaryFiles {
    /// The VFS's name, as `sqlite3_vfs_find(nil)` reports it once installed.
    public static let vfsName = "ferry-unix"

    /// Makes the VFS SQLite's default, once; for a program's `main`, before any database opens
    /// (a connection keeps the VFS it was opened with).
    /// - Returns: whether it is installed (not where SQLite has no "unix" VFS).
    @discardableResult
    public static func install() -> Bool { installed }

    private static let installed: Bool = {
        guard let unix = unixVFS, let name = strdup(vfsName) else { return false }
        let shim = UnsafeMutablePointer<sqlite3_vfs>.allocate(capacity: 1)
        shim.initialize(to: unix.pointee)
        shim.pointee.zName = UnsafePointer(name)
        shim.pointee.pNext = nil
        shim.pointee.xOpen = openFile
        return sqlite3_vfs_register(shim, 1) == SQLITE_OK
    }()
}

/// SQLite's own "unix" VFS, found once (each lookup takes SQLite's global mutex).
nonisolated(unsafe) private let unixVFS = sqlite3_vfs_find("unix")

/// "unix"'s own `xOpen`, given "unix" itself: its files are filled in from that VFS's private data.
/// A temporary file is refused where the run's temporary folder has gone (removed at exit, or by
/// someone else): SQLite would make it in TMPDIR or /tmp instead, out of the run's reach.
/// (`name` is SQLite's `sqlite3_filename`, spelled out: older SQLite headers, as in older macOS
/// SDKs, do not declare that name.)
private func openFile(_ vfs: UnsafeMutablePointer<sqlite3_vfs>?, _ name: UnsafePointer<CChar>?,
                      _ file: UnsafeMutablePointer<sqlite3_file>?, _ flags: Int32, _ outFlags: UnsafeMutablePointer<Int32>?) -> Int32 {
    guard let unix = unixVFS, let open = unix.pointee.xOpen else { return SQLITE_CANTOPEN }
    guard name == nil || flags & SQLITE_OPEN_DELETEONCLOSE != 0 else { return open(unix, name, file, flags, outFlags) }
    return ScratchFiles.withoutInterruption {
        if let folder = RunTemporaryFolder.folder, access(folder, F_OK) != 0 { return SQLITE_CANTOPEN }
        return open(unix, name, file, flags, outFlags)
    }
}
