import FerrySystem
import Foundation

/// What a run does when it is asked to stop (Ctrl-C, `kill`, a closed terminal): remove every
/// scratch file and folder it made (``ScratchFiles``), leaving each target as it was, say so in
/// one line and exit as a shell expects (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP).
public enum Interruption {
    /// Installs the response; its line starts with `prefix` and goes to standard error.
    public static func install(prefix: String) {
        // A closed pipe (`ferry dump … | head`) fails the write with EPIPE instead of killing the
        // run where it stands: ``write(_:to:)`` then ends it with its scratch removed.
        signal(SIGPIPE, SIG_IGN)
        TerminationSignals.handle { signal in
            let published = ScratchFiles.removeAllAndStop()
            let name = TerminationSignals.name(signal)
            let line = published.isEmpty
                ? "\(prefix)interrupted (\(name)); nothing was written\n"
                : "\(prefix)interrupted (\(name)) after \(published.joined(separator: ", ")) was written; nothing else was\n"
            // A plain write: with the terminal gone (SIGHUP) it fails, and the exit must still come.
            _ = Array(line.utf8).withUnsafeBytes { SystemCall.writeAll(2, $0) }
            _exit(TerminationSignals.exitStatus(for: signal))
        }
    }

    /// Writes to standard output or error (`descriptor` 1 or 2). When the reader has gone
    /// (`ferry dump … | head`) the run ends as a pipeline's writer does, silently with 141
    /// (128 + SIGPIPE); any other failure (a full disk under `> file`) is said on stderr, with 74.
    /// Either way the run's scratch is removed first, as for an interruption.
    public static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) {
        guard !SystemCall.writeAll(descriptor, bytes) else { return }
        let code = errno
        _ = ScratchFiles.removeAllAndStop()
        if code != EPIPE, descriptor != 2 {
            let line = "ferry: error: cannot write the output: \(String(cString: strerror(code)))\n"
            _ = Array(line.utf8).withUnsafeBytes { SystemCall.writeAll(2, $0) }
        }
        _exit(code == EPIPE ? 128 + SIGPIPE : 74)
    }
}
