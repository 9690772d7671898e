import FerrySystem
import Foundation

/// A file that appears whole or not at all: written to a temporary name in the same folder,
/// flushed to disk, then renamed over the final name.
///
/// For example:
/// ```swift
/// var file = try AtomicFile(path: "out/Post.ndjson")
/// try file.write(bytes)
/// try file.commit()
/// ```
public struct AtomicFile {
    public let path: String
    let temporaryPath: String
    private let handle: FileHandle
    private var committed = false

    /// - Throws: ``OutputError`` naming the folder when it cannot be written.
    public init(path: String) throws {
        self.path = path
        let url = URL(fileURLWithPath: path)
        temporaryPath = FileSync.temporaryPath(beside: path)
        // Made here, under its scratch name (Foundation's createFile goes through a temporary name of its own).
        let descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let reason = FileSync.lastError()
            ScratchFiles.forget(temporaryPath)
            throw OutputError(path: path, reason: "cannot create a file in \(url.deletingLastPathComponent().path) (\(reason))")
        }
        handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    public func write(_ bytes: [UInt8]) throws {
        do {
            try handle.write(contentsOf: bytes)
        } catch {
            throw OutputError(path: path, reason: "write failed: \((error as NSError).localizedDescription)")
        }
    }

    /// Flushes and renames into place.
    public mutating func commit() throws {
        do {
            try handle.synchronize()
            try handle.close()
        } catch {
            discard()
            throw OutputError(path: path, reason: "write failed: \((error as NSError).localizedDescription)")
        }
        do {
            try FileSync.publish(temporaryPath, as: path, flushing: false)
        } catch {
            discard()
            throw OutputError(path: path, reason: "cannot move into place: \(error.reason)")
        }
        committed = true
    }

    /// Removes the temporary file; the final name is untouched.
    public func discard() {
        try? handle.close()
        ScratchFiles.remove(temporaryPath)
    }
}

/// Writing an output failed; names the output and why.
public struct OutputError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "\(path): \(reason)" }

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}
