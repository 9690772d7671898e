import FerrySystem
import Foundation

/// What a run does when it is asked to stop (Ctrl-C, `kill`, a closed terminal): remove every
/// scratch file and folder it made (``ScratchFiles``), leaving each target as it was, say so in
/// one line and exit as a shell expects (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP).
public enum Interruption {
    /// Installs the response; its line starts with `prefix` and goes to standard error.
    public static func install(prefix: String) {
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
}
