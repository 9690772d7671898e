/// Transformable attribute checks: collections in blobs, insecure transformers, Swift type syntax.
extension LintContext {
    /// Transformers that unarchive with NSKeyedUnarchiver's insecure API (the default when none is set).
    static let insecureTransformers: Set<String> = [
        "NSKeyedUnarchiveFromData", "NSKeyedUnarchiveFromDataTransformerName", "NSUnarchiveFromData",
        "NSUnarchiveFromDataTransformerName",
    ]

    mutating func checkTransformables() {
        for entity in model.entities {
            for attribute in entity.attributes where attribute.type == .transformable {
                check(transformable: attribute, of: entity)
            }
        }
    }

    private mutating func check(transformable attribute: AttributeDescription, of entity: EntityDescription) {
        let line = attribute.line
        if let evidence = Self.collectionEvidence(attribute) {
            report(.transformableCollection, entity, property: attribute.name, line: line,
                   "stores a collection in one blob (\(evidence)); CloudKit syncs it whole and it cannot be queried",
                   hint: "model the elements as a child entity with an order index and a to-many relationship")
        }
        if let transformer = attribute.valueTransformerName {
            if Self.insecureTransformers.contains(transformer) {
                report(.transformableInsecureTransformer, entity, property: attribute.name, line: line,
                       "uses \(transformer), which unarchives without class checks",
                       hint: "use NSSecureUnarchiveFromDataTransformer or a subclass listing the allowed classes")
            }
        } else {
            report(.transformableInsecureTransformer, entity, property: attribute.name, line: line,
                   "has no value transformer, so Core Data falls back to the insecure NSKeyedUnarchiveFromData",
                   hint: "set the transformer to NSSecureUnarchiveFromDataTransformer or a subclass")
        }
        if let className = attribute.customClassName, Self.isSwiftSyntax(className) {
            report(.transformableSwiftClassName, entity, property: attribute.name, line: line,
                   "has custom class \"\(className)\", which is Swift syntax and names no Objective-C class",
                   hint: "use a class name such as NSArray or NSDictionary; keep the Swift type in the managed object subclass")
        }
    }

    /// Why the attribute looks like a collection, or nil. The class name is evidence; failing
    /// that, a plural or list-like name is (`tags`, `glass_items_data`, `reference_urls_data`).
    static func collectionEvidence(_ attribute: AttributeDescription) -> String? {
        if let className = attribute.customClassName {
            let collection = #/^\s*(\[|(NS)?(Mutable)?(Array|Set|OrderedSet|Dictionary)\b|Swift\.(Array|Set|Dictionary)\b)/#
            return className.contains(collection) ? "class \(className)" : nil
        }
        var words = nameWords(attribute.name)
        while let last = words.last, words.count > 1, ["data", "blob", "json", "raw", "used", "needed", "encoded", "archived", "cache"].contains(last) {
            words.removeLast()
        }
        guard let last = words.last else { return nil }
        if ["list", "array", "set", "ids", "collection"].contains(last) { return "name \"\(attribute.name)\"" }
        let singular = ["ss", "us", "is", "news", "status", "canvas", "alias", "atlas", "physics", "analytics"]
        if last.count > 2, last.hasSuffix("s"), !singular.contains(where: { last.hasSuffix($0) }) {
            return "plural name \"\(attribute.name)\""
        }
        return nil
    }

    /// `glass_items_data` and `glassItemsData` both give `["glass", "items", "data"]`.
    private static func nameWords(_ name: String) -> [String] {
        var words: [String] = []
        var current = ""
        for character in name {
            if character == "_" || character == "-" || (character.isUppercase && !current.isEmpty && !(current.last?.isUppercase ?? false)) {
                if !current.isEmpty { words.append(current.lowercased()) }
                current = character == "_" || character == "-" ? "" : String(character)
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { words.append(current.lowercased()) }
        return words
    }

    /// `[String]`, `Array<String>`, `[String: Any]`, `String?`: Swift spellings, not class names.
    static func isSwiftSyntax(_ className: String) -> Bool {
        className.contains { "[]<>?: ".contains($0) }
    }
}
