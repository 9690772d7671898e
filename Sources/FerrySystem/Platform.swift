// The one place Ferry names the C library of the platform: every other file imports FerrySystem
// and gets the same POSIX names on Linux (Glibc) and on Apple's systems (Darwin).
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#elseif canImport(Darwin)
@_exported import Darwin
#else
#error("Ferry needs a POSIX C library")
#endif

/// What the system calls of Ferry's other targets go through.
public enum SystemCall {
    /// The text of `errno` (or of `code`), as `strerror` says it.
    public static func errorText(_ code: Int32 = errno) -> String {
        String(cString: strerror(code))
    }

    /// Whether a process with this id is running (or exists under another user): a leftover
    /// named after it is still in use.
    public static func isRunning(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }

    /// This process's id.
    public static var processID: Int32 { getpid() }
}
