import FerryCanonical
import FerryJSON
import FerryCoreData

/// Where a record's child objects come from. JSON files and decoded blobs hold them inline; a
/// store holds ids of other rows, or rows that point back at their parent.
protocol ChildResolver {
    /// The values of the store row with this id, nil when no row has it.
    func object(forID id: String) -> JSONObject?
    /// Rows of entities whose name contains `entity` that point at `parentID` through a to-one
    /// relationship (for stores whose to-many side is unknown, as in inferred schemas).
    func backLinked(to parentID: String, entity: String) -> [JSONObject]
}

/// JSON files: children are always inline.
struct InlineChildren: ChildResolver {
    func object(forID id: String) -> JSONObject? { nil }
    func backLinked(to parentID: String, entity: String) -> [JSONObject] { [] }
}

extension FieldReader {
    /// The child objects under the first present of `keys`, each with a reader whose errors name
    /// `key[index]`: inline objects as they are, store ids through `resolver`, and when no key
    /// is present, the store rows of `entity` that point back at `ownerKey`.
    mutating func children(_ keys: [String], entity: String, ownerKey: String?, resolver: ChildResolver) throws(ConversionError) -> [FieldReader] {
        let key = resolve(keys)
        guard has(key) else {
            guard let ownerKey else { return [] }
            return resolver.backLinked(to: ownerKey, entity: entity).enumerated().map { nested($0.element, field: "\(entity)[\($0.offset)]") }
        }
        guard let elements = try array(key) else { return [] }
        var result: [FieldReader] = []
        for (index, element) in elements.enumerated() {
            if let object = element.object {
                result.append(nested(object, field: "\(key)[\(index)]"))
            } else if let id = element.string, let object = resolver.object(forID: id) {
                result.append(nested(object, field: "\(key)[\(index)]"))
            } else {
                throw error(.wrongType(expected: "an object", found: element.shortDescription), "\(key)[\(index)]")
            }
        }
        return result
    }

    /// Names under the first present of `keys`: strings (a `[String]` blob or JSON array) or
    /// child rows carrying the name in one of `nameKeys` (`ProjectTag.tag`, `Tag.name`).
    /// Empty and repeated names are dropped; the order is kept.
    mutating func names(_ keys: [String], nameKeys: [String], entity: String, ownerKey: String?,
                        resolver: ChildResolver) throws(ConversionError) -> [String] {
        let key = resolve(keys)
        var elements: [(JSONValue, String)] = []
        if has(key) {
            elements = (try array(key) ?? []).enumerated().map { ($0.element, "\(key)[\($0.offset)]") }
        } else if let ownerKey {
            elements = resolver.backLinked(to: ownerKey, entity: entity).enumerated().map { (.object($0.element), "\(entity)[\($0.offset)]") }
        }
        var result: [String] = []
        for (element, field) in elements {
            var name: String?
            if let text = element.string {
                if let row = resolver.object(forID: text) {
                    name = nameKeys.lazy.compactMap { row[$0]?.string }.first
                } else {
                    name = text
                }
            } else if let object = element.object {
                name = nameKeys.lazy.compactMap { object[$0]?.string }.first
                if name == nil { throw error(.missingField, "\(field).\(nameKeys[0])") }
            } else {
                throw error(.wrongType(expected: "a string", found: element.shortDescription), field)
            }
            if let name, case let trimmed = name.trimmedWhitespace, !trimmed.isEmpty, !result.contains(trimmed) {
                result.append(trimmed)
            }
        }
        return result
    }
}
