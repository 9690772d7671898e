import Foundation
import GRDB

/// A store's values read as SQLite converts them, never stopping on what a file holds: GRDB's
/// typed row subscripts end the process on a value of another type (a `Z_ENT` stored as TEXT by
/// another tool), so every value read from a store goes through here.
enum CoreDataStoreValue {
    /// An integer, whole real or integer text (as SQLite compares `'1'` with `1` in an integer
    /// column); nil for NULL and anything else.
    static func integer(_ value: DatabaseValue) -> Int64? {
        switch value.storage {
        case .int64(let number): return number
        case .double(let number):
            return number.isFinite && number == number.rounded() && abs(number) < 9.2e18 ? Int64(number) : nil
        case .string(let text): return Int64(text.trimmingCharacters(in: .whitespaces))
        case .blob, .null: return nil
        }
    }

    /// Text, UTF-8 bytes as text, or a number's text; nil for NULL and bytes that are not UTF-8.
    static func text(_ value: DatabaseValue) -> String? {
        switch value.storage {
        case .string(let text): return text
        case .blob(let bytes): return String(data: bytes, encoding: .utf8)
        case .int64(let number): return String(number)
        case .double(let number): return String(number)
        case .null: return nil
        }
    }

    /// A number, or numeric text; nil otherwise.
    static func real(_ value: DatabaseValue) -> Double? {
        switch value.storage {
        case .double(let number): return number
        case .int64(let number): return Double(number)
        case .string(let text): return Double(text.trimmingCharacters(in: .whitespaces))
        case .blob, .null: return nil
        }
    }

    /// Bytes, or text's UTF-8 bytes; nil otherwise.
    static func data(_ value: DatabaseValue) -> Data? {
        switch value.storage {
        case .blob(let bytes): return bytes
        case .string(let text): return Data(text.utf8)
        default: return nil
        }
    }
}
