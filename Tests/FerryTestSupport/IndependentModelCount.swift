import Foundation

/// Counts each entity's own `<attribute>` and `<relationship>` elements by scanning the raw
/// text, without an XML parser, as an independent check of what Ferry's parser reports.
public enum IndependentModelCount {
    public struct Counts: Equatable, Sendable, CustomStringConvertible {
        public var attributes: Int
        public var relationships: Int
        public var description: String { "\(attributes) attributes, \(relationships) relationships" }

        public init(attributes: Int, relationships: Int) {
            self.attributes = attributes
            self.relationships = relationships
        }
    }

    public static func entities(inFile path: String) throws -> [String: Counts] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var result: [String: Counts] = [:]
        // Each <entity …> up to its </entity>, or a self-closing <entity …/>.
        let entityPattern = /<entity\s[^>]*?name="([^"]*)"[^>]*?(\/>|>(.*?)<\/entity>)/.dotMatchesNewlines()
        for match in text.matches(of: entityPattern) {
            let body = match.output.3.map(String.init) ?? ""
            // Attributes inside a fetched property's request are not properties; none exist, but be exact.
            result[String(match.output.1)] = Counts(
                attributes: body.matches(of: /<attribute\s/).count,
                relationships: body.matches(of: /<relationship\s/).count)
        }
        return result
    }
}
