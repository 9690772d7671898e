import FerryJSON
import Foundation

/// UUIDs as text: written as Apple writes them (upper case, hyphenated); read in either case as
/// `UUID(uuidString:)` reads them, without Foundation's `sscanf` (a tenth of writing a million
/// rows that hold one).
public enum UUIDText {
    public static func uppercase(_ bytes: Data) -> String {
        Hex.uuid([UInt8](bytes))
    }

    /// The 128 bits, the first character's highest; with `upperCaseOnly`, `a`–`f` are refused.
    public static func bits(_ text: UnsafeBufferPointer<UInt8>, upperCaseOnly: Bool = false) -> (high: UInt64, low: UInt64)? {
        guard text.count == 36 else { return nil }
        var high: UInt64 = 0, low: UInt64 = 0, digits = 0
        for (position, character) in text.enumerated() {
            if position == 8 || position == 13 || position == 18 || position == 23 {
                guard character == UInt8(ascii: "-") else { return nil }
                continue
            }
            guard let nibble = hexDigit(character, upperCaseOnly: upperCaseOnly) else { return nil }
            if digits < 16 { high = high << 4 | UInt64(nibble) } else { low = low << 4 | UInt64(nibble) }
            digits += 1
        }
        return (high, low)
    }

    /// The value of one hexadecimal digit; nil for any other character (and, with
    /// `upperCaseOnly`, for `a`–`f`).
    @inline(__always)
    static func hexDigit(_ character: UInt8, upperCaseOnly: Bool = false) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return character - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return character - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f") where !upperCaseOnly: return character - UInt8(ascii: "a") + 10
        default: return nil
        }
    }

    /// The 16 bytes Core Data stores for a UUID attribute.
    public static func bytes(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard let (high, low) = bits(text) else { return nil }
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 {
            let shift = UInt64(56 - 8 * index)
            bytes[index] = UInt8(truncatingIfNeeded: high >> shift)
            bytes[index + 8] = UInt8(truncatingIfNeeded: low >> shift)
        }
        return bytes
    }
}
