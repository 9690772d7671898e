import Foundation

/// Writes results to stdout and messages to stderr, so that scripts can pipe one and read the other.
enum Console {
    static func output(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    static func error(_ line: String) {
        FileHandle.standardError.write(Data((line.hasSuffix("\n") ? line : line + "\n").utf8))
    }

    static func warn<Warning: CustomStringConvertible>(_ warnings: [Warning]) {
        for warning in warnings { error("ferry: warning: \(warning)") }
    }
}
