extension SystemCall {
    /// A file's modification time in seconds and nanoseconds: `st_mtim` on Linux, `st_mtimespec`
    /// on Apple's systems.
    public static func modificationTime(_ status: stat) -> (seconds: Int64, nanoseconds: Int64) {
        #if canImport(Darwin)
        (Int64(status.st_mtimespec.tv_sec), Int64(status.st_mtimespec.tv_nsec))
        #else
        (Int64(status.st_mtim.tv_sec), Int64(status.st_mtim.tv_nsec))
        #endif
    }
}

extension SystemCall {
    /// The process's umask, read once (reading it means setting it, which is not safe while
    /// other threads create files): the first use comes before any writing starts.
    public static let fileCreationMask: mode_t = {
        let mask = umask(0)
        umask(mask)
        return mask
    }()
}
