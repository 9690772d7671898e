/// An optional that JSON output writes as `null` when it is nil, where a synthesized
/// `Encodable` would leave the key out: reports keep every key, so that scripts need not test
/// for one.
@propertyWrapper
public struct NullEncoded<Value: Encodable & Sendable>: Encodable, Sendable {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}
