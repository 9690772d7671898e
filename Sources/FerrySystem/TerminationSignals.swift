import Foundation

/// SIGINT, SIGTERM and SIGHUP, taken by one thread of its own with `sigwait`: the signals are
/// blocked in every thread (the mask is set before any thread starts, and threads inherit it),
/// so no signal handler runs at all, and the response may take locks, remove files and print.
public enum TerminationSignals {
    public static let caught: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    nonisolated(unsafe) private static var installed = false

    /// Calls `respond` with the first signal, on a thread of its own; later ones stay blocked,
    /// so that a second Ctrl-C does not cut the response short. A signal the process was started
    /// with ignored (`nohup` ignores SIGHUP) stays ignored. Call once, first thing in `main`.
    public static func handle(_ respond: @escaping @Sendable (Int32) -> Never) {
        guard !installed else { return }
        installed = true
        var set = sigset_t()
        sigemptyset(&set)
        for signal in caught where !isIgnored(signal) { sigaddset(&set, signal) }
        guard pthread_sigmask(SIG_BLOCK, &set, nil) == 0 else { return }
        let waited = set
        Thread.detachNewThread {
            var signals = waited
            var number: Int32 = 0
            while sigwait(&signals, &number) != 0 {}
            respond(number)
        }
    }

    private static func isIgnored(_ signal: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(signal, nil, &current) == 0 else { return false }
        #if canImport(Darwin)
        let handler = current.__sigaction_u.__sa_handler
        #elseif canImport(Glibc)
        let handler = current.__sigaction_handler.sa_handler
        #else
        let handler = current.__sa_handler.sa_handler
        #endif
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    /// The exit status a shell gives a process ended by `signal`: 128 + its number.
    public static func exitStatus(for signal: Int32) -> Int32 { 128 + signal }

    /// What the signal is called, for the one line Ferry prints.
    public static func name(_ signal: Int32) -> String {
        switch signal {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        default: "signal \(signal)"
        }
    }
}
