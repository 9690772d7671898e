import Foundation

/// Which sanitizer runtime this test process (and so the `ferry` built with it) carries.
public enum Sanitizers {
    /// ThreadSanitizer's runtime faults with SIGBUS when the process runs under a file-size
    /// limit (`ulimit -f`), before Ferry's code is reached: such tests cannot run under it.
    public static let thread: Bool = dlsym(nil, "__tsan_init") != nil   // nil: RTLD_DEFAULT, every loaded object
}
