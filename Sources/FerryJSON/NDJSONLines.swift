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
        _ = try forEach(startingIn: 0..<Int.max) { bytes, number, _ in try body(bytes, number) }
    }

    /// Calls `body` with each line that starts in `range` of the file's bytes, its number counted
    /// from 1 there, and the offset it starts at; returns how many lines start there. Ranges that
    /// split a file give each line to the range it starts in, whole: threads reading a file's
    /// ranges side by side number its lines by adding the counts of the ranges before.
    public func forEach(startingIn range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>, Int, Int) throws -> Void) throws -> Int {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(path: path, reason: SystemCall.errorText()) }
        defer { close(descriptor) }
        // A range that starts inside a line leaves that line to the range before.
        var inLineBefore = false
        if range.lowerBound > 0 {
            var before: UInt8 = 0
            let got = SystemCall.read(descriptor, into: &before, count: 1, at: Int64(range.lowerBound - 1))
            guard got >= 0 else { throw Failure(path: path, reason: SystemCall.errorText()) }
            guard got == 1 else { return 0 }
            inLineBefore = before != 0x0A
        }
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        var filled = 0, number = 0
        // The file offsets of the buffer's first byte and of the next byte to read.
        var bufferStart = range.lowerBound, next = range.lowerBound
        while true {
            if filled == buffer.count { buffer.append(contentsOf: repeatElement(0, count: buffer.count)) }
            let got = buffer.withUnsafeMutableBytes { SystemCall.read(descriptor, into: $0.baseAddress! + filled, count: $0.count - filled, at: Int64(next)) }
            guard got >= 0 else { throw Failure(path: path, reason: SystemCall.errorText()) }
            filled += got
            next += got
            let consumed = try buffer.withUnsafeBufferPointer { all -> Int in
                var start = 0
                if inLineBefore {
                    guard let found = memchr(all.baseAddress!, 0x0A, filled) else { return filled }
                    start = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - all.baseAddress! + 1
                    inLineBefore = false
                }
                while start < filled, bufferStart + start < range.upperBound, let found = memchr(all.baseAddress! + start, 0x0A, filled - start) {
                    let end = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - all.baseAddress!
                    number += 1
                    try body(UnsafeBufferPointer(rebasing: all[start..<end]), number, bufferStart + start)
                    start = end + 1
                }
                if got == 0, start < filled, bufferStart + start < range.upperBound {
                    number += 1
                    try body(UnsafeBufferPointer(rebasing: all[start..<filled]), number, bufferStart + start)
                    return filled
                }
                return start
            }
            // At the end of the file, or the next line starts beyond the range (still inside the
            // line before, the range has none: read on, each range would read a long line again).
            if got == 0 || bufferStart + consumed >= range.upperBound { return number }
            if consumed > 0 {
                buffer.withUnsafeMutableBytes { bytes in
                    _ = memmove(bytes.baseAddress!, bytes.baseAddress! + consumed, filled - consumed)
                }
                filled -= consumed
                bufferStart += consumed
            }
        }
    }
}
