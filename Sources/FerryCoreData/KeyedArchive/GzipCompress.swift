import CZlib

extension Gzip {
    /// `bytes` as one gzip member (RFC 1952) at zlib's default level. The header carries no file
    /// name and a zero time, so the same bytes always compress to the same output.
    public static func compress(_ bytes: [UInt8]) throws(GzipError) -> [UInt8] {
        // 16 more window bits: a gzip header and trailer.
        try deflated(bytes, windowBits: 16 + MAX_WBITS)
    }

    /// `bytes` as raw DEFLATE, no header: the form of Core Data's `Z_MODELCACHE` (``RawInflate`` reads it).
    public static func rawDeflate(_ bytes: [UInt8]) throws(GzipError) -> [UInt8] {
        try deflated(bytes, windowBits: -MAX_WBITS)
    }

    private static func deflated(_ bytes: [UInt8], windowBits: Int32) throws(GzipError) -> [UInt8] {
        var stream = z_stream()
        // deflateInit2 is a macro.
        guard deflateInit2_(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
                            Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw GzipError(reason: "zlib cannot start deflating")
        }
        defer { deflateEnd(&stream) }
        var input = bytes
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 32)
        let status: Int32 = input.withUnsafeMutableBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                stream.next_in = inputBuffer.baseAddress
                stream.avail_in = uInt(inputBuffer.count)
                stream.next_out = outputBuffer.baseAddress
                stream.avail_out = uInt(outputBuffer.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { throw GzipError(reason: "zlib could not deflate (\(status))") }
        output.removeSubrange(Int(stream.total_out)...)
        return output
    }
}
