import Foundation

/// Writes results to stdout and messages to stderr, so that scripts can pipe one and read the other.
enum Console {
    static func output(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    static func error(_ line: String) {
        FileHandle.standardError.write(Data((line.hasSuffix("\n") ? line : line + "\n").utf8))
    }

    /// A count and its noun, singular for one: `1 entity`, `3 entities`.
    static func count(_ number: Int, _ noun: String, plural: String? = nil) -> String {
        "\(number) \(number == 1 ? noun : plural ?? noun + "s")"
    }

    static func warn<Warning: CustomStringConvertible>(_ warnings: [Warning]) {
        for warning in warnings { error("ferry: warning: \(warning)") }
    }
}
