import FerrySystem
import Foundation

/// What runs that died (killed, a power cut) left behind: scratch files and folders named by
/// ``ScratchFiles`` whose process is no longer running. Never judged by age: a name whose
/// process runs is some live run's, and is left alone.
public struct Leftover: Sendable, Hashable {
    public var path: String
    /// Bytes, with everything inside a folder and SQLite's journal files beside a database.
    public var bytes: Int64
    /// The process that made it.
    public var processID: Int32
}

public enum Leftovers {
    /// Dead runs' scratch beside `target` (for that target), in its backups folder, and in the
    /// temp folder.
    public static func find(beside target: String) -> [Leftover] {
        let url = URL(fileURLWithPath: target)
        let folder = url.deletingLastPathComponent().path
        let prefix = "." + url.lastPathComponent + "."
        var found = find(in: folder) { $0.hasPrefix(prefix) }
        found += find(in: target + ".backups") { _ in true }
        return found + inTemporaryFolders()
    }

    /// Dead runs' scratch in the temp folder and SQLite's (``RunTemporaryFolder/searched``).
    public static func inTemporaryFolders() -> [Leftover] {
        RunTemporaryFolder.searched.flatMap { find(in: $0) { $0.hasPrefix("ferry-") } }
    }

    /// Dead runs' scratch directly in `folder` whose names `include` accepts, sorted by path.
    public static func find(in folder: String, where include: (String) -> Bool = { _ in true }) -> [Leftover] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        var found: [Leftover] = []
        for name in names.sorted() where include(name) {
            guard let (host, pid) = owner(of: name), host == ScratchFiles.hostTag,
                  pid != SystemCall.processID, !SystemCall.isRunning(pid) else { continue }
            let path = (folder as NSString).appendingPathComponent(name)
            // Another user's (in a shared temp folder): not ours to remove.
            var status = stat()
            guard lstat(path, &status) == 0, status.st_uid == geteuid() else { continue }
            found.append(Leftover(path: path, bytes: size(of: path), processID: pid))
        }
        return found
    }

    /// Removes them; what could not be removed is returned with why.
    @discardableResult
    public static func remove(_ leftovers: [Leftover]) -> [(path: String, reason: String)] {
        var failures: [(String, String)] = []
        for leftover in leftovers {
            ScratchFiles.erase(leftover.path)
            var status = stat()
            if lstat(leftover.path, &status) == 0 { failures.append((leftover.path, "it could not be removed: \(SystemCall.errorText())")) }
        }
        return failures
    }

    /// The machine and process in a scratch name (`….ferry-<8 hex>-<pid>-<8 hex>.partial`,
    /// perhaps followed by `-journal`, `-wal`, `-shm` or `.removing`); nil for any other name.
    static func owner(of name: String) -> (host: String, pid: Int32)? {
        guard let range = name.range(of: ".ferry-", options: .backwards) else { return nil }
        let rest = Array(name[range.upperBound...].utf8)
        func hex(_ bytes: ArraySlice<UInt8>) -> Bool { bytes.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) } }
        guard rest.count > 8, hex(rest[0..<8]), rest[8] == UInt8(ascii: "-") else { return nil }
        var index = 9
        while index < rest.count, (0x30...0x39).contains(rest[index]) { index += 1 }
        guard index > 9, index - 9 <= 9, let pid = Int32(String(decoding: rest[9..<index], as: UTF8.self)), pid > 0,
              rest.count >= index + 1 + 8 + 8, rest[index] == UInt8(ascii: "-"), hex(rest[(index + 1)..<(index + 9)]),
              String(decoding: rest[(index + 9)..<(index + 17)], as: UTF8.self) == ".partial"
        else { return nil }
        let after = String(decoding: rest[(index + 17)...], as: UTF8.self)
        guard ["", "-journal", "-wal", "-shm", ".removing"].contains(after) else { return nil }
        return (String(decoding: rest[0..<8], as: UTF8.self), pid)
    }

    static func size(of path: String) -> Int64 {
        var status = stat()
        guard lstat(path, &status) == 0 else { return 0 }
        guard (status.st_mode & S_IFMT) == S_IFDIR else { return Int64(status.st_size) }
        var total: Int64 = 0
        if let enumerator = FileManager.default.enumerator(atPath: path) {
            while let relative = enumerator.nextObject() as? String {
                var inner = stat()
                if lstat((path as NSString).appendingPathComponent(relative), &inner) == 0, (inner.st_mode & S_IFMT) != S_IFDIR {
                    total += Int64(inner.st_size)
                }
            }
        }
        return total
    }
}
