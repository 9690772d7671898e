/// The `attributeType` of an attribute, spelled as model files spell it.
///
/// An attribute without `attributeType` is ``undefined``: real models hold thousands of
/// transient ones. ``composite`` attributes name a ``CompositeDescription``.
public enum AttributeType: String, Sendable, Hashable, CaseIterable, Encodable {
    case undefined = "Undefined"
    case integer16 = "Integer 16"
    case integer32 = "Integer 32"
    case integer64 = "Integer 64"
    case decimal = "Decimal"
    case double = "Double"
    case float = "Float"
    case string = "String"
    case boolean = "Boolean"
    case date = "Date"
    case binary = "Binary"
    case uuid = "UUID"
    case uri = "URI"
    case transformable = "Transformable"
    case objectID = "ObjectID"
    case composite = "Composite"

    public var isInteger: Bool { self == .integer16 || self == .integer32 || self == .integer64 }
    public var isNumeric: Bool { isInteger || self == .decimal || self == .double || self == .float }

    /// The range an integer attribute can hold, for checking defaults and bounds.
    public var integerRange: ClosedRange<Int64>? {
        switch self {
        case .integer16: return Int64(Int16.min)...Int64(Int16.max)
        case .integer32: return Int64(Int32.min)...Int64(Int32.max)
        case .integer64: return Int64.min...Int64.max
        default: return nil
        }
    }
}
