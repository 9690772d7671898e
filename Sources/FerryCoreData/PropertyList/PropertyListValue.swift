import Foundation

/// A value of a property list, as the binary format holds it. Keyed archives refer to their
/// objects through ``uid`` values; dictionaries keep their keys in file order.
public enum PropertyListValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    /// An unsigned 64-bit value beyond `Int64.max`, or a 128-bit integer's low half.
    case unsignedInteger(UInt64)
    case real(Double)
    /// Seconds since 2001-01-01 00:00:00 UTC.
    case date(Double)
    case data(Data)
    case string(String)
    case uid(Int)
    case array([PropertyListValue])
    case set([PropertyListValue])
    case dictionary([(key: String, value: PropertyListValue)])

    public subscript(key: String) -> PropertyListValue? {
        if case .dictionary(let members) = self { return members.first { $0.key == key }?.value }
        return nil
    }

    public var string: String? { if case .string(let value) = self { return value }; return nil }
    public var data: Data? { if case .data(let value) = self { return value }; return nil }
    public var uid: Int? { if case .uid(let value) = self { return value }; return nil }
    public var integer: Int64? {
        switch self {
        case .integer(let value): return value
        case .unsignedInteger(let value): return Int64(exactly: value)
        default: return nil
        }
    }
    public var bool: Bool? {
        switch self {
        case .bool(let value): return value
        case .integer(let value): return value != 0
        default: return nil
        }
    }
    public var elements: [PropertyListValue]? {
        switch self {
        case .array(let values), .set(let values): return values
        default: return nil
        }
    }
    public var members: [(key: String, value: PropertyListValue)]? {
        if case .dictionary(let members) = self { return members }
        return nil
    }

    public static func == (lhs: PropertyListValue, rhs: PropertyListValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.integer(a), .integer(b)): return a == b
        case let (.unsignedInteger(a), .unsignedInteger(b)): return a == b
        case let (.real(a), .real(b)), let (.date(a), .date(b)): return a == b
        case let (.data(a), .data(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.uid(a), .uid(b)): return a == b
        case let (.array(a), .array(b)), let (.set(a), .set(b)): return a == b
        case let (.dictionary(a), .dictionary(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .dictionary(let members):
            for member in members { hasher.combine(member.key); hasher.combine(member.value) }
        case .array(let values), .set(let values): hasher.combine(values)
        case .string(let value): hasher.combine(value)
        case .data(let value): hasher.combine(value)
        case .integer(let value): hasher.combine(value)
        default: hasher.combine(String(describing: self))
        }
    }
}
