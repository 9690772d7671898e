import FerryJSON
import Foundation
import GRDB

/// A store's value as SQLite holds it, for readers that take typed values straight from a row.
public enum CoreDataCell: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    /// A cell as SQLite holds it.
    public init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let number): self = .integer(number)
        case .double(let number): self = .real(number)
        case .string(let text): self = .text(text)
        case .blob(let bytes): self = .blob(bytes)
        }
    }

    /// The cell in `ferry dump --lossless`'s form: integers and text as they are, reals with a
    /// fraction or exponent (a NaN or infinity as `{"real": "nan"}`), blobs as `{"base64": …}`.
    public var losslessJSON: JSONValue {
        switch self {
        case .null: return .null
        case .integer(let value): return .integer(value)
        case .real(let value): return value.isFinite ? .number(JSONNumber(real: value)) : .object(JSONObject([("real", .string("\(value)"))]))
        case .text(let value): return .string(value)
        case .blob(let value): return .object(JSONObject([("base64", .string(value.base64EncodedString()))]))
        }
    }

    /// A cell from its lossless JSON form; nil for anything else.
    public init?(losslessJSON value: JSONValue) {
        switch value {
        case .null: self = .null
        case .string(let text): self = .text(text)
        case .number(let number):
            if number.isReal, let double = number.double { self = .real(double) } else if let integer = number.int64 { self = .integer(integer) } else { return nil }
        case .object(let object):
            if let base64 = object["base64"]?.string, object.members.count == 1, let data = Data(base64Encoded: base64) {
                self = .blob(data)
            } else if let text = object["real"]?.string, object.members.count == 1, let double = Double(text), !double.isFinite {
                self = .real(double)
            } else {
                return nil
            }
        default: return nil
        }
    }

    public var isInteger: Bool {
        if case .integer = self { return true }
        return false
    }

    /// The cell as a value to bind.
    public var databaseValue: DatabaseValue {
        switch self {
        case .null: return .null
        case .integer(let value): return value.databaseValue
        case .real(let value): return value.databaseValue
        case .text(let value): return value.databaseValue
        case .blob(let value): return value.databaseValue
        }
    }
}

/// One row of an entity before it becomes a ``CoreDataRecord``: its key, its id as `ferry dump`
/// names it, the cells of the attributes asked for and the ids of the to-ones asked for.
public struct TypedRow: Sendable {
    public var primaryKey: Int64
    public var id: String
    public var cells: [CoreDataCell]
    public var targets: [String?]
}

/// What a reader of typed rows asks for: attributes and to-ones by name (any case), and what it
/// does with each row; `take` returns false to have the row read as a ``CoreDataRecord`` instead.
/// Rows of entities with to-many relationships are not offered: reading those takes a query per row.
public struct TypedRows {
    public var entity: String
    public var attributes: [String]
    public var toOnes: [String]
    public var take: (TypedRow) throws -> Bool

    public init(entity: String, attributes: [String], toOnes: [String], take: @escaping (TypedRow) throws -> Bool) {
        self.entity = entity
        self.attributes = attributes
        self.toOnes = toOnes
        self.take = take
    }
}
