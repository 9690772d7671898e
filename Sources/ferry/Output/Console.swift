import FerryFiles
import Foundation

/// Writes results to stdout and messages to stderr, so that scripts can pipe one and read the other.
enum Console {
    static func output(_ text: String) {
        write(text, to: 1)
    }

    static func output<Bytes: ContiguousBytes>(bytes: Bytes) {
        bytes.withUnsafeBytes { Interruption.write($0, to: 1) }
    }

    static func error(_ line: String) {
        write(line.hasSuffix("\n") ? line : line + "\n", to: 2)
    }

    /// Text on stderr that is not a whole line (a progress line drawn over itself).
    static func error(partial text: String) {
        write(text, to: 2)
    }

    private static func write(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { Interruption.write(UnsafeRawBufferPointer($0), to: descriptor) }
    }

    /// A count and its noun, singular for one: `1 entity`, `3 entities`.
    static func count(_ number: Int, _ noun: String, plural: String? = nil) -> String {
        "\(number) \(number == 1 ? noun : plural ?? noun + "s")"
    }

    static func warn<Warning: CustomStringConvertible>(_ warnings: [Warning]) {
        for warning in warnings { error("ferry: warning: \(warning)") }
    }
}
