import FerryModel
import Foundation

/// Values as Core Data stores an attribute of each type, for writers that take them from
/// SQLite cells or JSON rather than from a dump: dates as seconds since 2001 (from ISO 8601
/// text in UTC), UUIDs as 16 bytes, Booleans as 0 or 1, integers within their type's range.
public enum AttributeCells {
    /// `value` as an attribute of `attribute`'s type stores it.
    /// - Throws: why it cannot be, as a phrase for an error that names the record.
    public static func cell(_ value: CoreDataCell, as attribute: AttributeDescription) throws(AttributeCellError) -> CoreDataCell {
        func refused(_ why: String) -> AttributeCellError { AttributeCellError(reason: "\(attribute.name) is \(article(attribute.type)) \(attribute.type.rawValue) attribute; \(why)") }
        switch (attribute.type, value) {
        case (_, .null):
            return .null
        case (.uuid, .text(let text)):
            var copy = text
            guard let bytes = copy.withUTF8({ UUIDText.bytes($0) }) else { throw refused("\"\(text)\" is not a UUID") }
            return .blob(Data(bytes))
        case (.date, .text(let text)):
            guard let seconds = CoreDataDate.secondsSince2001(iso8601: text) else { throw refused("\"\(text)\" is not an ISO 8601 time in UTC") }
            return .real(seconds)
        case (.date, .real), (.double, .real), (.float, .real), (.decimal, .real), (.string, .text), (.uri, .text), (.binary, .blob):
            return value
        case (.date, .integer(let number)), (.double, .integer(let number)), (.float, .integer(let number)), (.decimal, .integer(let number)):
            return .real(Double(number))
        case (.boolean, .integer(let number)):
            guard number == 0 || number == 1 else { throw refused("\(number) is not 0 or 1") }
            return value
        case (.integer16, _), (.integer32, _), (.integer64, _):
            let whole: Int64?
            switch value {
            case .integer(let number): whole = number
            case .real(let number): whole = number.rounded() == number && abs(number) < 9.2e18 ? Int64(number) : nil
            default: whole = nil
            }
            guard let whole else { throw refused("\(value.shortText) is not a whole number") }
            guard attribute.type.integerRange?.contains(whole) ?? false else { throw refused("\(whole) is outside its range") }
            return .integer(whole)
        default:
            throw refused("it cannot hold \(value.shortText)")
        }
    }

    /// The value Core Data gives a new object's attribute from the model's default, when it has one.
    public static func defaultCell(of attribute: AttributeDescription) -> CoreDataCell? {
        guard let text = attribute.defaultValue else { return nil }
        switch attribute.type {
        case .boolean: return ["YES", "TRUE", "1"].contains(text.uppercased()) ? .integer(1) : .integer(0)
        case .integer16, .integer32, .integer64: return Int64(text).map(CoreDataCell.integer)
        case .double, .float, .decimal: return Double(text).map(CoreDataCell.real)
        case .string, .uri: return .text(text)
        default: return nil
        }
    }

    /// Fills in the model's defaults for the attributes `values` leaves out (and for required
    /// ones it leaves null), as Core Data does for a new object, and returns the required
    /// attributes that still have no value.
    public static func complete(_ values: inout [String: CoreDataCell], of entity: EntityDescription, in model: DataModel) -> [String] {
        var missing: [String] = []
        for attribute in model.allAttributes(of: entity) where attribute.isStored && !attribute.isDerived {
            let unset = values[attribute.name] == nil || (!attribute.isOptional && values[attribute.name] == .null)
            if unset, let cell = defaultCell(of: attribute) { values[attribute.name] = cell }
            if !attribute.isOptional, (values[attribute.name] ?? .null) == .null { missing.append(attribute.name) }
        }
        return missing
    }

    private static func article(_ type: AttributeType) -> String {
        ["a", "e", "i", "o", "u"].contains(type.rawValue.prefix(1).lowercased()) ? "an" : "a"
    }
}

/// Why a value cannot be stored as an attribute.
public struct AttributeCellError: Error, Sendable {
    public let reason: String
}

extension CoreDataCell {
    /// The value in a few characters, for errors.
    var shortText: String {
        switch self {
        case .null: return "null"
        case .integer(let value): return "\(value)"
        case .real(let value): return "\(value)"
        case .text(let value): return "the text \"\(value.prefix(40))\""
        case .blob(let value): return "\(value.count) bytes"
        }
    }
}
