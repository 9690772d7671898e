import FerrySystem
import Foundation

/// Reads a file line by line in bounded memory, for NDJSON read in several passes: only a read
/// buffer and the longest line are held, where reading a 700 MB dump whole and splitting it held
/// it twice. A line is handed over where it lies, without its line break.
///
/// For example:
/// ```swift
/// try NDJSONLines(path: "Log.ndjson").forEach { bytes, number in … }
/// ```
public struct NDJSONLines {
    public let path: String
    private let chunkSize: Int

    /// The file cannot be opened or read; `reason` is the system's.
    public struct Failure: Error, Sendable {
        public var path: String
        public var reason: String
    }

    public init(path: String, chunkSize: Int = 1 << 20) {
        self.path = path
        self.chunkSize = max(chunkSize, 16)
    }

    /// Calls `body` with each line's bytes (valid only during the call) and its 1-based number.
    /// A last line without a line break is a line too.
    public func forEach(_ body: (UnsafeBufferPointer<UInt8>, Int) throws -> Void) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(path: path, reason: SystemCall.errorText()) }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        var filled = 0, number = 0
        while true {
            if filled == buffer.count { buffer.append(contentsOf: repeatElement(0, count: buffer.count)) }
            let got = buffer.withUnsafeMutableBytes { SystemCall.read(descriptor, into: $0.baseAddress! + filled, count: $0.count - filled) }
            guard got >= 0 else { throw Failure(path: path, reason: SystemCall.errorText()) }
            filled += got
            let consumed = try buffer.withUnsafeBufferPointer { all -> Int in
                var start = 0
                while start < filled, let found = memchr(all.baseAddress! + start, 0x0A, filled - start) {
                    let end = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - all.baseAddress!
                    number += 1
                    try body(UnsafeBufferPointer(rebasing: all[start..<end]), number)
                    start = end + 1
                }
                if got == 0, start < filled {
                    number += 1
                    try body(UnsafeBufferPointer(rebasing: all[start..<filled]), number)
                    return filled
                }
                return start
            }
            if got == 0 { return }
            if consumed > 0 {
                buffer.withUnsafeMutableBytes { bytes in
                    _ = memmove(bytes.baseAddress!, bytes.baseAddress! + consumed, filled - consumed)
                }
                filled -= consumed
            }
        }
    }
}
