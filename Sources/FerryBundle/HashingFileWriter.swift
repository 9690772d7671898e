import Crypto
import FerryJSON
import FerrySystem
import Foundation

/// Writes a new file through a buffer, hashing its bytes as they go. Refuses to follow or
/// replace anything already at the path.
final class HashingFileWriter {
    let path: String
    private let descriptor: Int32
    private var hasher = SHA256()
    private var buffer: [UInt8] = []
    private var size: Int64 = 0
    private static let bufferSize = 256 * 1024

    init(path: String) throws(BundleError) {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw BundleError(.cannotWrite("cannot create the file: \(Self.lastError())"), path: path) }
        buffer.reserveCapacity(Self.bufferSize)
    }

    deinit {
        close(descriptor)
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(BundleError) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.bufferSize { try flush() }
    }

    /// Writes what is buffered and returns the file's digest.
    func finish() throws(BundleError) -> FileDigest {
        try flush()
        return FileDigest(sha256: Hex.lowercase(hasher.finalize()), size: size)
    }

    private func flush() throws(BundleError) {
        guard !buffer.isEmpty else { return }
        if let failure = buffer.withUnsafeBytes({ writeOut($0) }) { throw failure }
        buffer.removeAll(keepingCapacity: true)
    }

    /// The error is returned rather than thrown: `withUnsafeBytes` would erase its type.
    private func writeOut(_ bytes: UnsafeRawBufferPointer) -> BundleError? {
        hasher.update(bufferPointer: bytes)
        guard writeAll(descriptor, bytes) else { return BundleError(.cannotWrite("cannot write: \(Self.lastError())"), path: path) }
        size += Int64(bytes.count)
        return nil
    }

    static func lastError() -> String {
        switch errno {
        case ENOSPC: return "the disk is full (\(String(cString: strerror(errno))))"
        case EFBIG: return "the file is larger than allowed (\(String(cString: strerror(errno))))"
        default: return String(cString: strerror(errno))
        }
    }
}

/// Writes every byte, through short writes and interruptions; false on an error (in errno).
func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
    SystemCall.writeAll(descriptor, bytes)
}
