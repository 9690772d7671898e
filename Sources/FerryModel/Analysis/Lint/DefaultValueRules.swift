import Foundation

/// Checks that default values fit their attribute's type. Real models carry
/// `defaultValueString="NO"` on Integer attributes, left over from a type change; Core Data
/// silently reads it as 0.
extension LintContext {
    mutating func checkDefaults() {
        for entity in model.entities {
            for attribute in entity.attributes {
                guard let value = attribute.defaultValue, let expected = Self.problem(with: value, for: attribute.type) else { continue }
                report(.invalidDefaultValue, entity, property: attribute.name, line: attribute.line,
                       "has default value \"\(value.truncatedForMessage)\", which is not \(expected)",
                       hint: "set a default of the attribute's type (\(attribute.type.rawValue)) or none")
            }
        }
    }

    /// What the value should have been, or nil when it fits.
    static func problem(with value: String, for type: AttributeType) -> String? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        switch type {
        case .integer16, .integer32, .integer64:
            guard let number = Int64(trimmed), type.integerRange!.contains(number) else {
                return "an integer that fits \(type.rawValue)"
            }
        case .double, .float, .decimal:
            if Double(trimmed) == nil { return "a number" }
        case .boolean:
            if !["YES", "NO", "true", "false", "1", "0"].contains(trimmed) { return "YES or NO" }
        case .uuid:
            if UUID(uuidString: trimmed) == nil { return "a UUID" }
        case .uri:
            if URL(string: trimmed) == nil { return "a URI" }
        default:
            break
        }
        return nil
    }
}
