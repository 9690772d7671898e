import FerryJSON
import Foundation

/// Exact decimal quantities: numbers as written in JSON, or decimal strings (`"2.3"`), kept as
/// canonical text so that 0.1 stays 0.1.
public enum DecimalText {
    /// `0.5` → "0.5", `"2.30"` → "2.3", `3` → "3", `1e2` → "100"; nil for anything else.
    public static func from(_ value: JSONValue) -> String? {
        switch value {
        case .number(let number): return normalized(number.text)
        case .string(let text): return normalized(text.trimmingCharacters(in: .whitespaces))
        default: return nil
        }
    }

    static func normalized(_ text: String) -> String? {
        guard let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")),
              text.range(of: #"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$"#, options: .regularExpression) != nil else { return nil }
        return NSDecimalNumber(decimal: decimal).stringValue
    }
}
