import Foundation

/// Inputs that readers take as files (stores, bundles, record streams) go through one scratch file
/// per process, rewritten for each run; it lives in memory when /dev/shm exists.
enum FuzzInput {
    static let folder: String = {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let folder = (base as NSString).appendingPathComponent("ferry-fuzz-\(getpid())")
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }()

    static func file(_ data: UnsafePointer<UInt8>, _ size: Int, name: String) -> String {
        let path = (folder as NSString).appendingPathComponent(name)
        for suffix in ["-journal", "-wal", "-shm"] { unlink(path + suffix) }
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes: data, count: size))
        return path
    }
}
