extension SystemCall {
    /// Fixed glibc thresholds keep a conversion's peak steady and its page faults few
    /// (Formats/performance.md). `mallopt` is looked up: Swift's Glibc module leaves out
    /// malloc.h; -3 is M_MMAP_THRESHOLD, -1 M_TRIM_THRESHOLD. Other C libraries keep their own.
    public static func tuneAllocator() {
        #if os(Linux) && canImport(Glibc)
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") {
            let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
            _ = mallopt(-3, 1 << 20)
            _ = mallopt(-1, 64 << 20)
        }
        #endif
    }
}
