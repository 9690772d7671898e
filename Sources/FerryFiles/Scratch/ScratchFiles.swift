import FerrySystem
import Foundation

/// Everything a run makes before its outputs are whole: temporary files and databases beside a
/// target, staging folders, private copies in the temp folder, a backup not yet needed. Each is
/// named after the machine and process that made it (`.ferry-<host>-<pid>-<tag>.partial`), so
/// that a later run can tell a dead run's leftovers from a live one's (``Leftovers``), and each
/// is registered here until it is published or removed, so that an interrupted run removes them
/// all (``Interruption``).
public enum ScratchFiles {
    /// The part of every scratch name that says whose it is:
    /// `.ferry-<8 hex: this machine>-<pid>-<8 hex: this name>.partial`.
    public static func tag() -> String {
        ".ferry-\(hostTag)-\(SystemCall.processID)-\(UUID().uuidString.prefix(8).lowercased()).partial"
    }

    /// This machine, as 8 hex digits of its host name's FNV-1a hash: a process id means nothing
    /// on another machine that shares the folder (a network share, a container's bind mount).
    public static let hostTag: String = {
        var name = [CChar](repeating: 0, count: 256)
        let text = gethostname(&name, name.count) == 0 ? String(cString: name) : ""
        var hash: UInt32 = 2_166_136_261
        for byte in text.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }()

    /// A registered name beside `target` that no other run uses:
    /// `.<target's name>[.<purpose>].ferry-<pid>-<tag>.partial`.
    public static func path(beside target: String, purpose: String? = nil) -> String {
        let url = URL(fileURLWithPath: target)
        let name = ".\(url.lastPathComponent)\(purpose.map { ".\($0)" } ?? "")\(tag())"
        let path = url.deletingLastPathComponent().appendingPathComponent(name).path
        register(path)
        return path
    }

    /// A registered name in the temp folder (`TMPDIR`): `ferry-<purpose>.ferry-<pid>-<tag>.partial`.
    public static func temporaryPath(purpose: String) -> String {
        let path = (NSTemporaryDirectory() as NSString).appendingPathComponent("ferry-\(purpose)\(tag())")
        register(path)
        return path
    }

    /// A new file in `folder` (named `<prefix>XXXXXX` for an instant) that has no name by the
    /// time an interruption could look: it is made and unlinked under the lock that
    /// ``Interruption`` takes for good, so a signal cannot end the run between the two steps and
    /// leave it behind. Returns its descriptor, or -1 with `errno` set.
    public static func unnamedFile(in folder: String, prefix: String) -> Int32 {
        let (made, code) = registry.withLock { _ in
            var template = Array((folder + "/" + prefix + "XXXXXX").utf8CString)
            let made = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
            let code = errno
            if made >= 0 { _ = template.withUnsafeBufferPointer { buffer in buffer.baseAddress.map { unlink($0) } } }
            return (made, code)
        }
        errno = code
        return made
    }

    /// Runs `body` while no interruption can look: a step that makes a file and unlinks it
    /// (SQLite's temporary files) is then either done before the interruption removes the run's
    /// scratch, or never started, as the interruption keeps the lock until the process exits.
    /// `body` must not call ``ScratchFiles`` nor anything that may open a SQLite temporary file:
    /// the lock is not recursive, and that would wait for good.
    public static func withoutInterruption<Result>(_ body: () -> Result) -> Result {
        registry.withLock { _ in body() }
    }

    /// Makes a folder only this user can enter and registers it, in one step as far as an
    /// interruption can tell. An interruption removes it only while it is empty, and (made first)
    /// last: it is never renamed away while threads may still make files in it, which would then
    /// go wherever SQLite turns next; one caught there keeps the folder for the next run to sweep.
    /// Returns whether it was made.
    static func makeFolder(_ path: String) -> Bool {
        registry.withLock { state in
            guard mkdir(path, 0o700) == 0 else { return false }
            state.paths.append(path)
            state.emptyOnly.insert(path)
            return true
        }
    }

    /// Registers a path this run made, to be removed if the run is interrupted before it
    /// publishes or removes it: a backup taken for a write that has not happened yet, a folder
    /// made for outputs.
    /// - Parameter ifEmpty: a folder this run made but others may fill meanwhile (a backups
    ///   folder): removed only while it is empty.
    public static func register(_ path: String, ifEmpty: Bool = false) {
        registry.withLock { state in
            state.paths.append(path)
            if ifEmpty { state.emptyOnly.insert(path) }
        }
    }

    /// The run no longer owns `path` (published, kept, or removed by its owner).
    public static func forget(_ path: String) {
        registry.withLock { state in state.paths.removeAll { $0 == path } }
    }

    /// Removes a registered path (a file with SQLite's journal files beside it, or a folder with
    /// everything in it) and forgets it.
    public static func remove(_ path: String) {
        registry.withLock { state in
            Self.erase(path)
            state.paths.removeAll { $0 == path }
        }
    }

    /// `paths` stop being scratch in the same step as something is published as `destination`:
    /// a backup of the file it replaces, which no interruption may then remove.
    public static func keep(_ paths: [String], whenPublishing destination: String) {
        registry.withLock { $0.keptOnPublishing[destination, default: []] += paths }
    }

    /// Renames `temporary` onto `destination` while no interruption can remove it halfway, and
    /// forgets it (with what ``keep(_:whenPublishing:)`` bound to the destination); the
    /// destination is remembered as written by this run.
    static func publish(_ temporary: String, as destination: String, using move: (String, String) -> Int32) -> Int32 {
        registry.withLock { state in
            let result = move(temporary, destination)
            if result == 0 {
                let kept = state.keptOnPublishing.removeValue(forKey: destination) ?? []
                state.paths.removeAll { $0 == temporary || kept.contains($0) }
                state.published.append(destination)
            }
            return result
        }
    }

    /// Removes everything registered, newest first, and keeps the lock: nothing can be
    /// registered or published after this. For a run that is about to exit; returns the outputs
    /// it had published that remain (not those inside scratch, nor a backup removed with it).
    static func removeAllAndStop() -> [String] {
        registry.lockForever()
        let paths = registry.state.paths
        // Twice: a thread still running may have made a journal beside a database after the first pass.
        for _ in 0..<2 {
            for path in paths.reversed() {
                if registry.state.emptyOnly.contains(path) { rmdir(path) } else { erase(path) }
            }
        }
        return registry.state.published.filter { output in
            !paths.contains { output == $0 || output.hasPrefix($0 + "/") }
        }
    }

    /// What is registered now (for tests and the interruption's report).
    public static var registered: [String] { registry.withLock { $0.paths } }

    static func erase(_ path: String) {
        var status = stat()
        guard lstat(path, &status) == 0 || errno != ENOENT else {
            for suffix in ["-journal", "-wal", "-shm"] { unlink(path + suffix) }
            return
        }
        if (status.st_mode & S_IFMT) == S_IFDIR {
            // Renamed first, so that a thread still writing by path finds nothing to write into.
            let aside = path + ".removing"
            let target = rename(path, aside) == 0 ? aside : path
            for _ in 0..<5 {
                if (try? FileManager.default.removeItem(atPath: target)) != nil { break }
            }
        } else {
            unlink(path)
        }
        for suffix in ["-journal", "-wal", "-shm"] { unlink(path + suffix) }
    }

    struct State {
        var paths: [String] = []
        var published: [String] = []
        var keptOnPublishing: [String: [String]] = [:]
        var emptyOnly: Set<String> = []
    }

    static let registry = LockedState(State())
}

/// A value behind a lock; the lock can be taken for good by a run that is exiting.
final class LockedState<Value>: @unchecked Sendable {
    private let lock = NSLock()
    fileprivate(set) var state: Value

    init(_ value: Value) { state = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }

    func lockForever() { lock.lock() }
}
