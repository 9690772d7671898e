import FerryCanonical
import FerryJSON
import FerryCoreData
import Foundation

/// Reads one legacy record's fields by name with typed accessors, remembering which it used:
/// the rest become the record's extras, so that nothing is dropped. Type errors name the file,
/// record, id and field.
///
/// For example:
/// ```swift
/// var fields = FieldReader(task, at: location, dates: dates)
/// let title = try fields.string("title") ?? ""
/// let due = try fields.date("due")
/// recipe.extras = fields.extras
/// ```
struct FieldReader {
    let object: JSONObject
    var location: RecordLocation
    let dates: LegacyDateDecoder
    /// Store rows read without a model have lower-case names; match keys regardless of case.
    let caseInsensitive: Bool
    /// Which members an accessor used, by position: a bit each for the first 64 (records have a
    /// dozen), the rest in a set. Hashing each key name cost a tenth of reading a brew log.
    private var consumedBits: UInt64 = 0
    private var consumedBeyond: Set<Int> = []

    init(_ object: JSONObject, at location: RecordLocation, dates: LegacyDateDecoder = LegacyDateDecoder(),
                caseInsensitive: Bool = false) {
        self.object = object
        self.location = location
        self.dates = dates
        self.caseInsensitive = caseInsensitive
    }

    /// The value of a key, nil when absent or null; the key counts as used either way.
    mutating func value(_ key: String) -> JSONValue? {
        guard let position = position(key) else { return nil }
        consume(position)
        let value = object.members[position].value
        // Not `value.isNull ? nil : value`: JSONValue takes `nil` as a literal, so that gave `.null` back.
        if value.isNull { return nil }
        return value
    }

    func has(_ key: String) -> Bool { position(key) != nil }

    /// A value read without using it up: it stays in the extras too.
    func peek(_ keys: String...) -> JSONValue? {
        guard let position = position(resolve(keys)), !object.members[position].value.isNull else { return nil }
        return object.members[position].value
    }

    private mutating func consume(_ position: Int) {
        if position < 64 { consumedBits |= 1 << UInt64(position) } else { consumedBeyond.insert(position) }
    }

    private func isConsumed(_ position: Int) -> Bool {
        position < 64 ? consumedBits & (1 << UInt64(position)) != 0 : consumedBeyond.contains(position)
    }

    /// The first of several names a field has had that the record uses (the legacy formats
    /// renamed fields between versions: `order_index`, `orderIndex`), else the first name.
    func resolve(_ keys: [String]) -> String {
        // A loop, not `first(where: has)`: that closure copies the whole reader on every call.
        if keys.count > 1 {
            for key in keys where position(key) != nil { return key }
        }
        return keys[0]
    }

    private func position(_ key: String) -> Int? {
        // Lengths first: most keys differ in length, and comparing strings was a tenth of reading a brew log.
        let length = key.utf8.count
        if let exact = object.members.firstIndex(where: { $0.key.utf8.count == length && $0.key == key }) { return exact }
        guard caseInsensitive else { return nil }
        let lowered = key.lowercased()
        return object.members.firstIndex { $0.key.lowercased() == lowered }
    }

    func error(_ kind: ConversionError.Kind, _ key: String) -> ConversionError {
        var here = location
        here.field = [here.field, key].compactMap { $0 }.joined(separator: ".")
        return ConversionError(kind, at: here)
    }

    mutating func string(_ keys: String...) throws(ConversionError) -> String? {
        let key = resolve(keys)
        guard let value = value(key) else { return nil }
        switch value {
        case .string(let text): return text
        case .number(let number): return number.text
        default: throw error(.wrongType(expected: "a string", found: value.shortDescription), key)
        }
    }

    mutating func requiredString(_ keys: String...) throws(ConversionError) -> String {
        let key = resolve(keys)
        return try present(try string(key), key)
    }

    /// The value read, or a missing-field error naming the key.
    private func present(_ value: String?, _ key: String) throws(ConversionError) -> String {
        guard let value else { throw error(.missingField, key) }
        return value
    }

    mutating func double(_ keys: String...) throws(ConversionError) -> Double? {
        let key = resolve(keys)
        guard let value = value(key) else { return nil }
        switch value {
        case .number(let number): return number.double
        case .string(let text):
            guard let number = Double(text.trimmingCharacters(in: .whitespaces)) else {
                throw error(.wrongType(expected: "a number", found: value.shortDescription), key)
            }
            return number
        case .bool(let flag): return flag ? 1 : 0
        default: throw error(.wrongType(expected: "a number", found: value.shortDescription), key)
        }
    }

    mutating func integer(_ keys: String...) throws(ConversionError) -> Int64? {
        let key = resolve(keys)
        guard let value = value(key) else { return nil }
        if case .number(let number) = value, let integer = number.int64 { return integer }
        if case .string(let text) = value, let integer = Int64(text.trimmingCharacters(in: .whitespaces)) { return integer }
        throw error(.wrongType(expected: "an integer", found: value.shortDescription), key)
    }

    /// `true`/`false`, or 0/1 as stores without a model give them.
    mutating func bool(_ keys: String...) throws(ConversionError) -> Bool? {
        let key = resolve(keys)
        guard let value = value(key) else { return nil }
        switch value {
        case .bool(let flag): return flag
        case .number(let number) where number.int64 == 0 || number.int64 == 1: return number.int64 == 1
        default: throw error(.wrongType(expected: "true or false", found: value.shortDescription), key)
        }
    }

    /// A canonical timestamp from any date form ``LegacyDateDecoder`` knows.
    mutating func date(_ keys: String...) throws(ConversionError) -> String? {
        let key = resolve(keys)
        guard let value = value(key) else { return nil }
        guard let seconds = dates.unixSeconds(value) else {
            throw error(.wrongType(expected: "a date", found: value.shortDescription), key)
        }
        return CanonicalTime.string(unixSeconds: seconds)
    }

    /// A UUID, upper-cased.
    mutating func uuid(_ keys: String...) throws(ConversionError) -> String? {
        let key = resolve(keys)
        guard let text = try string(key) else { return nil }
        guard let uuid = StableID.normalized(text) else {
            throw error(.wrongType(expected: "a UUID", found: JSONValue.string(text).shortDescription), key)
        }
        return uuid
    }

    mutating func requiredUUID(_ keys: String...) throws(ConversionError) -> String {
        let key = resolve(keys)
        return try present(try uuid(key), key)
    }

    /// A decimal as exact text (`0.5`, `"2.3"` → `2.3`).
    mutating func decimal(_ keys: String...) throws(ConversionError) -> String? {
        let key = resolve(keys)
        guard let value = value(key) else { return nil }
        guard let text = DecimalText.from(value) else {
            throw error(.wrongType(expected: "a decimal number", found: value.shortDescription), key)
        }
        return text
    }

    /// A decimal when the field holds one; anything else (`"1/2"`, `"a pinch"`) is left unread,
    /// so that it stays in the extras as written.
    mutating func decimalIfExact(_ keys: String...) -> String? {
        let key = resolve(keys)
        guard let position = position(key), let text = DecimalText.from(object.members[position].value) else { return nil }
        consume(position)
        return text
    }

    mutating func array(_ keys: String...) throws(ConversionError) -> [JSONValue]? {
        let key = resolve(keys)
        guard let value = value(key) else { return nil }
        guard case .array(let elements) = value else { throw error(.wrongType(expected: "an array", found: value.shortDescription), key) }
        return elements
    }

    mutating func object(_ keys: String...) throws(ConversionError) -> JSONObject? {
        let key = resolve(keys)
        guard let value = value(key) else { return nil }
        guard case .object(let object) = value else { throw error(.wrongType(expected: "an object", found: value.shortDescription), key) }
        return object
    }

    /// Strings of an array (`["boro", "sculpture"]`).
    mutating func strings(_ keys: String...) throws(ConversionError) -> [String] {
        let key = resolve(keys)
        guard let elements = try array(key) else { return [] }
        var result: [String] = []
        for (index, element) in elements.enumerated() {
            guard case .string(let text) = element else {
                throw error(.wrongType(expected: "a string", found: element.shortDescription), "\(key)[\(index)]")
            }
            result.append(text)
        }
        return result
    }

    /// A reader for a nested object, whose errors name `parent.child`.
    func nested(_ object: JSONObject, field: String) -> FieldReader {
        var here = location
        here.field = [location.field, field].compactMap { $0 }.joined(separator: ".")
        return FieldReader(object, at: here, dates: dates, caseInsensitive: caseInsensitive)
    }

    /// Marks keys as used without reading them (known fields that carry nothing to keep).
    mutating func skip(_ keys: String...) {
        for key in keys { if let position = position(key) { consume(position) } }
    }

    /// The fields no accessor asked for, verbatim.
    var extras: JSONObject {
        if consumedBeyond.isEmpty, object.members.count < 64, consumedBits == (1 << UInt64(object.members.count)) - 1 { return JSONObject() }
        return JSONObject(object.members.indices.filter { !isConsumed($0) }.map { object.members[$0] })
    }
}
