/// Reads and writes on file descriptors that go on through short counts and through
/// interruptions by a signal (EINTR), on every platform: the loops Ferry's targets need, once.
extension SystemCall {
    /// Reads up to `count` bytes into `buffer`; the number read (0 at the end), or -1 with errno set.
    public static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        while true {
            #if canImport(Darwin)
            let result = Darwin.read(descriptor, buffer, count)
            #elseif canImport(Glibc)
            let result = Glibc.read(descriptor, buffer, count)
            #else
            let result = Musl.read(descriptor, buffer, count)
            #endif
            if result < 0, errno == EINTR { continue }
            return result
        }
    }

    /// Reads up to `count` bytes at `offset`; the number read (0 at the end), or -1 with errno set.
    public static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int64) -> Int {
        while true {
            let result = pread(descriptor, buffer, count, off_t(offset))
            if result < 0, errno == EINTR { continue }
            return result
        }
    }

    /// Fills `buffer` from the descriptor until it is full or the file ends; the number read,
    /// or -1 with errno set.
    public static func readFully(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        var done = 0
        while done < buffer.count {
            let count = read(descriptor, into: base + done, count: buffer.count - done)
            if count < 0 { return -1 }
            if count == 0 { break }
            done += count
        }
        return done
    }

    /// Writes every byte; false on an error (errno set, or ENOSPC when the file system took none).
    public static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var offset = 0
        while offset < bytes.count {
            #if canImport(Darwin)
            let written = Darwin.write(descriptor, base + offset, bytes.count - offset)
            #elseif canImport(Glibc)
            let written = Glibc.write(descriptor, base + offset, bytes.count - offset)
            #else
            let written = Musl.write(descriptor, base + offset, bytes.count - offset)
            #endif
            if written < 0, errno == EINTR { continue }
            guard written > 0 else {
                if written == 0 { errno = ENOSPC }
                return false
            }
            offset += written
        }
        return true
    }
}
