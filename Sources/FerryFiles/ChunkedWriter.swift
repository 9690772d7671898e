/// Gathers small pieces of output into large writes: a record a write was a system call a record.
///
/// For example:
/// ```swift
/// var output = ChunkedWriter { try file.write($0) }
/// try output.append(record)
/// try output.flush()
/// ```
public struct ChunkedWriter {
    public static let chunkSize = 1 << 16
    private var buffer: [UInt8] = []
    private let write: ([UInt8]) throws -> Void

    public init(_ write: @escaping ([UInt8]) throws -> Void) {
        self.write = write
        buffer.reserveCapacity(Self.chunkSize)
    }

    public mutating func append(_ bytes: borrowing [UInt8]) throws {
        buffer.append(contentsOf: copy bytes)
        if buffer.count >= Self.chunkSize { try flush() }
    }

    /// Writes what is gathered.
    public mutating func flush() throws {
        guard !buffer.isEmpty else { return }
        try write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
