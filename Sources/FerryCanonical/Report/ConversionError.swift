import FerryJSON

/// Why a legacy record or file could not be converted, naming the file, the record, its id
/// and the field: `tasks.json: record 17: id 3F2A…: field "recurrence.end": unknown case "sometimes"`.
public struct ConversionError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case wrongType(expected: String, found: String)
        case invalidValue(String)
        case missingField
        case duplicateID(String, firstRecord: Int?)
        case malformedJSON(String)
        case unreadable(String)
        /// The input is not there: its own kind, so that callers tell it from a read failure by type.
        case fileNotFound
        case notRecognized(String)
    }

    public var kind: Kind
    public var location: RecordLocation

    public init(_ kind: Kind, at location: RecordLocation) {
        self.kind = kind
        self.location = location
    }

    public var message: String {
        switch kind {
        case .wrongType(let expected, let found): return "expected \(expected), found \(found)"
        case .invalidValue(let reason): return reason
        case .missingField: return "required field is missing"
        case .duplicateID(let id, let first): return "duplicate id \(id)" + (first.map { " (first seen at record \($0))" } ?? "")
        case .malformedJSON(let reason): return "malformed JSON: \(reason)"
        case .unreadable(let reason): return "cannot be read: \(reason)"
        case .fileNotFound: return "cannot be read: no such file or directory"
        case .notRecognized(let reason): return "not recognized: \(reason)"
        }
    }

    public var description: String { "\(location): \(message)" }
}

extension JSONValue {
    /// Short text for messages: the kind and, for scalars, the value cut to one line.
    public var shortDescription: String {
        switch self {
        case .string(let text): return "string \"\(text.count > 40 ? String(text.prefix(37)) + "…" : text)\""
        case .number(let number): return "number \(number.text)"
        case .bool(let flag): return "boolean \(flag)"
        default: return kindName
        }
    }
}
