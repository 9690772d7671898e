import Foundation

/// A JSON value that keeps what the file said: numbers as their literal text (so that
/// decimals and 64-bit integers survive exactly) and object members in file order.
///
/// For example:
/// ```swift
/// let value = try JSONReader().read(Array(#"{"quantity": 0.1, "unit": "rods"}"#.utf8))
/// value["quantity"]?.number?.decimalText   // "0.1"
/// ```
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    public var string: String? { if case .string(let value) = self { return value }; return nil }
    public var number: JSONNumber? { if case .number(let value) = self { return value }; return nil }
    public var bool: Bool? { if case .bool(let value) = self { return value }; return nil }
    public var array: [JSONValue]? { if case .array(let value) = self { return value }; return nil }
    public var object: JSONObject? { if case .object(let value) = self { return value }; return nil }
    public var isNull: Bool { self == .null }

    /// The kind's name, for messages: `object`, `array`, `string`, `number`, `boolean`, `null`.
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    public static func integer<T: BinaryInteger>(_ value: T) -> JSONValue { .number(JSONNumber(integer: value)) }
    public static func double(_ value: Double) -> JSONValue {
        value.isFinite ? .number(JSONNumber(value)) : .string(value.isNaN ? "NaN" : (value < 0 ? "-Infinity" : "Infinity"))
    }
}

/// A JSON number as written: `0.1` stays `0.1`, `9007199254740993` stays exact.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The literal, valid JSON number syntax.
    public let text: String

    /// Only for text already checked against JSON's number grammar.
    init(validText: String) { text = validText }

    public init<T: BinaryInteger>(integer: T) { text = String(integer) }

    /// The shortest text that reads back as the same Double.
    public init(_ value: Double) {
        precondition(value.isFinite, "JSON has no literal for \(value)")
        if value == value.rounded(.towardZero), abs(value) < 1e15 {
            text = String(Int64(value))
        } else {
            text = value.description   // the shortest round-trip form, valid JSON syntax; interpolation gave the same text slower
        }
    }

    /// A double written so that it reads back as one: with a fraction or an exponent (`5.0`, not
    /// `5`), for forms that keep SQLite's REAL apart from INTEGER.
    public init(real value: Double) {
        precondition(value.isFinite, "JSON has no literal for \(value)")
        text = value.description
    }

    /// Whether the text has a fraction or an exponent.
    public var isReal: Bool { text.contains { $0 == "." || $0 == "e" || $0 == "E" } }

    public var description: String { text }
    public var double: Double? { Self.shortDecimal(text) ?? Double(text) }

    /// The value of a plain decimal (`-12.5`, `94`) of at most 15 digits, else nil. Its digits
    /// and the power of ten are exact doubles, so one division is the correctly rounded value,
    /// the same `Double(text)` gives; `strtod` was a twentieth of reading a brew log.
    static func shortDecimal(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { shortDecimal($0) }
    }

    /// As ``shortDecimal(_:)-(String)``, over the bytes of a number literal (as
    /// ``JSONInPlaceReader/number()`` reads them): nil for an exponent or more than 15 digits.
    public static func shortDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { index = 1 }
        var digits: UInt64 = 0, count = 0, fractionCount = 0, point = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= 0x30 && byte <= 0x39 {
                count += 1
                // Past 15 digits it is not a short decimal; accumulating on would overflow (and
                // trapped on 20 digits or more: a fuzzer found it).
                guard count <= 15 else { return nil }
                digits = digits * 10 + UInt64(byte - 0x30)
                if point { fractionCount += 1 }
            } else if byte == UInt8(ascii: "."), !point {
                point = true
            } else {
                return nil   // an exponent, or not a plain decimal
            }
            index += 1
        }
        guard count > 0 else { return nil }
        let magnitude = Double(digits) / exactPowersOfTen[fractionCount]
        return negative ? -magnitude : magnitude
    }

    /// Powers of ten a double holds exactly.
    private static let exactPowersOfTen: [Double] = (0...22).map { pow(10, Double($0)) }

    /// The value when it is an integer that fits Int64 (`3`, `3.0` and `3e0` all give 3).
    public var int64: Int64? {
        if let exact = Int64(text) { return exact }
        guard let double = Double(text), double == double.rounded(.towardZero), abs(double) < 9.2e18 else { return nil }
        return Int64(double)
    }
    public var isInteger: Bool { !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) }
}

/// JSON object members in file order, with lookup by key. Keys are unique: ``JSONReader``
/// refuses duplicates.
public struct JSONObject: Sendable, Hashable, Sequence {
    public private(set) var members: [(key: String, value: JSONValue)]

    public init(_ members: [(key: String, value: JSONValue)] = []) {
        self.members = members
    }

    public subscript(key: String) -> JSONValue? {
        get { members.first { $0.key == key }?.value }
        set {
            if let index = members.firstIndex(where: { $0.key == key }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append((key, newValue))
            }
        }
    }

    /// Room for `count` members, so that adding them allocates once.
    public mutating func reserveCapacity(_ count: Int) {
        members.reserveCapacity(count)
    }

    public var keys: [String] { members.map(\.key) }
    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }

    public func makeIterator() -> IndexingIterator<[(key: String, value: JSONValue)]> { members.makeIterator() }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        for member in members {
            hasher.combine(member.key)
            hasher.combine(member.value)
        }
    }
}

/// No `ExpressibleByNilLiteral`: with it, `cond ? nil : value` where a `JSONValue?` is wanted
/// gave `.null` wrapped in an optional, not nil (a null field read as present; an empty list
/// counted as a value a migration loses). Write `.null` for JSON's null.
extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
                     ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements.map { ($0.0, $0.1) })) }
}
