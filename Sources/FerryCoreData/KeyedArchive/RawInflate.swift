import CZlib
import Foundation

/// Decompresses raw DEFLATE data (RFC 1951, no zlib or gzip header), how Core Data compresses
/// the model cache in `Z_MODELCACHE`, through the system's zlib. Output is bounded, so a
/// damaged or hostile row fails with a reason instead of exhausting memory.
enum RawInflate {
    struct Failure: Error, Equatable, CustomStringConvertible {
        var reason: String
        var description: String { reason }
    }

    /// Not a zlib code: the output passed `maximumOutput`.
    private static let tooLarge: Int32 = .min

    /// - Parameter gzip: the data is a gzip member (RFC 1952: header, DEFLATE, CRC-32 checked by zlib).
    static func decompress(_ data: Data, maximumOutput: Int = 64 << 20, gzip: Bool = false) throws(Failure) -> Data {
        var stream = z_stream()
        // Negative window bits: raw DEFLATE, no header or checksum; 16 more: gzip's header and
        // trailer (zlib's inflateInit2 is a macro).
        guard inflateInit2_(&stream, gzip ? 16 + MAX_WBITS : -MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Failure(reason: "zlib cannot start inflating")
        }
        defer { inflateEnd(&stream) }
        var input = [UInt8](data)
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        let status: Int32 = input.withUnsafeMutableBufferPointer { inputBuffer in
            stream.next_in = inputBuffer.baseAddress
            stream.avail_in = uInt(inputBuffer.count)
            while true {
                let code: Int32 = chunk.withUnsafeMutableBufferPointer { chunkBuffer in
                    stream.next_out = chunkBuffer.baseAddress
                    stream.avail_out = uInt(chunkBuffer.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                guard output.count + produced <= maximumOutput else { return tooLarge }
                output.append(contentsOf: chunk[0..<produced])
                // Z_BUF_ERROR with input left over cannot happen: the output chunk was emptied.
                if code != Z_OK || (stream.avail_in == 0 && produced == 0) { return code }
            }
        }
        switch status {
        case Z_STREAM_END: return output
        case tooLarge: throw Failure(reason: "decompresses to more than \(maximumOutput) bytes")
        case Z_OK, Z_BUF_ERROR: throw Failure(reason: "the compressed data ends early")
        default:
            let message = stream.msg.map { String(cString: $0) } ?? "zlib error \(status)"
            throw Failure(reason: "invalid \(gzip ? "gzip" : "DEFLATE") data: \(message)")
        }
    }
}

/// gzip (`.gz`, Paprika's recipe files) for the readers, which link zlib but not libarchive.
public enum Gzip {
    /// Whether data starts as a gzip member does.
    public static func isGzip(_ data: Data) -> Bool {
        data.count >= 2 && data[data.startIndex] == 0x1F && data[data.startIndex + 1] == 0x8B
    }

    /// The decompressed bytes; fails with a reason for damaged data or output past `maximumOutput`.
    public static func decompress(_ data: Data, maximumOutput: Int) throws -> Data {
        do {
            return try RawInflate.decompress(data, maximumOutput: maximumOutput, gzip: true)
        } catch {
            throw GzipError(reason: error.reason)
        }
    }
}

public struct GzipError: Error, Sendable, CustomStringConvertible {
    public let reason: String
    public var description: String { reason }
}
