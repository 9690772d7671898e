import CLibArchive
import Crypto
import FerrySystem
import Foundation

/// Where an archive's bytes go: its file, and a SHA-256 of every byte on the way, so sealing
/// the archive needs no second read of it.
final class ArchiveOutput {
    let path: String
    private let descriptor: Int32
    private var hasher = SHA256()
    /// Why the last write failed; libarchive itself only learns that it did.
    private(set) var failure: String?

    init(path: String) throws(ArchiveError) {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw ArchiveError(path: path, reason: String(cString: strerror(errno))) }
    }

    deinit { close(descriptor) }

    /// The SHA-256 of everything written so far.
    var digest: [UInt8] { Array(hasher.finalize()) }

    /// libarchive's write callback; the client data is an unretained `ArchiveOutput`.
    static let callback: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, UnsafeRawPointer?, Int) -> Int = { _, client, buffer, length in
        guard let client else { return -1 }
        let output = Unmanaged<ArchiveOutput>.fromOpaque(client).takeUnretainedValue()
        return output.write(UnsafeRawBufferPointer(start: buffer, count: length)) ? length : -1
    }

    private func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard SystemCall.writeAll(descriptor, bytes) else {
            failure = SystemCall.errorText()
            return false
        }
        hasher.update(bufferPointer: bytes)
        return true
    }
}
