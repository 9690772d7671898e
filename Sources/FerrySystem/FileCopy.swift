extension SystemCall {
    /// Copies every byte from `source` (read from its current offset) to `target`, in the
    /// kernel where the platform can: `sendfile` on Linux (to a file since 2.6.33), `fcopyfile`
    /// on Apple's systems, a read/write loop elsewhere. Returns the bytes copied, or -1 with errno set.
    public static func copyContents(from source: Int32, to target: Int32) -> Int64 {
        #if os(Linux)
        var copied: Int64 = 0
        while true {
            let count = sendfile(target, source, nil, 1 << 30)
            if count < 0, errno == EINTR { continue }
            if count < 0 {
                // A file system without in-kernel copying: fall back to plain reads and writes.
                if errno == EINVAL || errno == ENOSYS, copied == 0 { return copyByLoop(from: source, to: target) }
                return -1
            }
            if count == 0 { return copied }
            copied += Int64(count)
        }
        #elseif canImport(Darwin)
        let start = lseek(target, 0, SEEK_CUR)
        guard fcopyfile(source, target, nil, copyfile_flags_t(COPYFILE_DATA)) == 0 else { return -1 }
        var status = stat()
        guard fstat(target, &status) == 0 else { return -1 }
        return Int64(status.st_size) - Int64(max(start, 0))
        #else
        return copyByLoop(from: source, to: target)
        #endif
    }

    /// Whether two files hold the same bytes, read from their starts; nil with errno set when
    /// one cannot be read.
    public static func sameContents(_ first: Int32, _ second: Int32) -> Bool? {
        let size = 1 << 20
        let one = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        let other = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        defer {
            one.deallocate()
            other.deallocate()
        }
        guard lseek(first, 0, SEEK_SET) == 0, lseek(second, 0, SEEK_SET) == 0 else { return nil }
        while true {
            let count = readFully(first, into: one), otherCount = readFully(second, into: other)
            if count < 0 || otherCount < 0 { return nil }
            guard count == otherCount, memcmp(one.baseAddress!, other.baseAddress!, count) == 0 else { return false }
            if count < size { return true }
        }
    }

    static func copyByLoop(from source: Int32, to target: Int32) -> Int64 {
        let size = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        var copied: Int64 = 0
        while true {
            let count = read(source, into: buffer.baseAddress!, count: size)
            if count < 0 { return -1 }
            if count == 0 { return copied }
            guard writeAll(target, UnsafeRawBufferPointer(rebasing: buffer[0..<count])) else { return -1 }
            copied += Int64(count)
        }
    }
}

extension SystemCall {
    /// Reads the file at `path` from start to end in 1 MiB reads and lets the bytes go, so that
    /// the system's page cache holds it for a reader that jumps about in it. SQLite reads a store
    /// page by page in b-tree order: 4 KiB reads the kernel does not read ahead of, 3.1 s for a
    /// 109 MB store not in the cache, against 0.25 s for this and 0.35 s for SQLite after it.
    /// Returns false, with errno set, when the file cannot be read: the reader that follows says
    /// why in its own words.
    @discardableResult
    public static func readThrough(_ path: String) -> Bool {
        // Through stdio: naming `open` here brings the overlay's variadic form into this module,
        // whose `mode_t` then no longer resolves for `fileCreationMask` in a release build.
        guard let file = fopen(path, "rbe") else { return false }
        defer { fclose(file) }
        let size = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        while fread(buffer, 1, size, file) == size {}
        return ferror(file) == 0
    }
}
