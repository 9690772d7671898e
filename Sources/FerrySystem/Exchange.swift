extension SystemCall {
    /// Swaps two paths in one step (both must exist): `renameat2(RENAME_EXCHANGE)` on Linux,
    /// `renamex_np(RENAME_SWAP)` on Apple's systems. Returns 0, or -1 with errno set (ENOSYS or
    /// EINVAL where the kernel or file system cannot; the caller then renames twice).
    public static func exchange(_ first: String, _ second: String) -> Int32 {
        #if os(Linux) && canImport(Glibc)
        // Looked up: Swift's Glibc module leaves out what _GNU_SOURCE declares. 2 is RENAME_EXCHANGE.
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else {
            errno = ENOSYS
            return -1
        }
        let renameat2 = unsafeBitCast(symbol, to: (@convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32).self)
        return renameat2(AT_FDCWD, first, AT_FDCWD, second, 2)
        #elseif canImport(Darwin)
        return renamex_np(first, second, UInt32(RENAME_SWAP))
        #else
        errno = ENOSYS
        return -1
        #endif
    }
}
