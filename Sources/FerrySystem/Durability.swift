extension SystemCall {
    /// Makes a file's (or a folder's) data durable: on Apple's systems `fsync` only hands the
    /// data to the drive, which may keep it in its cache; `F_FULLFSYNC` asks the drive to write
    /// it, as SQLite does there. Returns 0, or -1 with errno set.
    public static func flushToDisk(_ descriptor: Int32) -> Int32 {
        #if canImport(Darwin)
        if fcntl(descriptor, F_FULLFSYNC) == 0 { return 0 }
        // Some file systems (network shares, FAT) refuse F_FULLFSYNC: fsync is their best.
        #endif
        while true {
            let result = fsync(descriptor)
            if result < 0, errno == EINTR { continue }
            return result
        }
    }
}
