import Foundation

/// Reads the XML attributes of one element with typed accessors, remembering which ones
/// were used so that the rest can be kept verbatim (`otherAttributes`) and nothing the file
/// says is lost.
struct NodeReader {
    let node: XMLNode
    /// Where errors point; callers add the element once they know its name.
    var location: ModelLocation
    private var consumed: Set<String> = []

    init(_ node: XMLNode, at location: ModelLocation) {
        self.node = node
        var located = location
        located.line = node.line
        self.location = located
    }

    mutating func string(_ key: String) -> String? {
        consumed.insert(key)
        return node.attributes[key]
    }

    /// A string that is absent or empty reads as nil: Xcode writes `valueTransformerName=""`.
    mutating func nonEmptyString(_ key: String) -> String? {
        guard let value = string(key), !value.isEmpty else { return nil }
        return value
    }

    mutating func required(_ key: String) throws(ModelError) -> String {
        guard let value = string(key) else { throw ModelError(.missingAttribute(key), at: location) }
        return value
    }

    /// Core Data writes `YES`; `usedWithCloudKit="false"` was seen once in the wild.
    mutating func optionalFlag(_ key: String) throws(ModelError) -> Bool? {
        guard let value = string(key) else { return nil }
        switch value.lowercased() {
        case "yes", "true", "1": return true
        case "no", "false", "0": return false
        default: throw ModelError(.invalidValue(attribute: key, value: value, expected: "YES or NO"), at: location)
        }
    }

    mutating func flag(_ key: String) throws(ModelError) -> Bool {
        try optionalFlag(key) ?? false
    }

    mutating func integer(_ key: String) throws(ModelError) -> Int? {
        guard let value = string(key) else { return nil }
        guard let number = Int(value.trimmingCharacters(in: .whitespaces)) else {
            throw ModelError(.invalidValue(attribute: key, value: value, expected: "an integer"), at: location)
        }
        return number
    }

    mutating func number(_ key: String) throws(ModelError) -> Double? {
        guard let value = string(key) else { return nil }
        guard let number = Double(value.trimmingCharacters(in: .whitespaces)) else {
            throw ModelError(.invalidValue(attribute: key, value: value, expected: "a number"), at: location)
        }
        return number
    }

    /// The attributes no accessor asked for.
    var remaining: [String: String] {
        node.attributes.filter { !consumed.contains($0.key) }
    }
}

/// An element Ferry does not know, kept whole so that nothing the file says is lost.
public struct RawXMLElement: Sendable, Hashable, Encodable {
    public var name: String
    public var attributes: [String: String]
    public var children: [RawXMLElement]

    /// An element of a model read from another form than XML (an Xcode 3 archive), kept by name.
    public init(name: String, attributes: [String: String], children: [RawXMLElement] = []) {
        self.name = name
        self.attributes = attributes
        self.children = children
    }

    init(_ node: XMLNode) {
        name = node.name
        attributes = node.attributes
        children = node.children.map(RawXMLElement.init)
    }
}

/// The `<userInfo>` dictionary of an element: `<entry key="…" value="…"/>` pairs.
enum UserInfoReader {
    static func read(_ node: XMLNode, at location: ModelLocation) throws(ModelError) -> [String: String] {
        var info: [String: String] = [:]
        for userInfo in node.children(named: "userInfo") {
            for entry in userInfo.children(named: "entry") {
                var reader = NodeReader(entry, at: location)
                let key = try reader.required("key")
                info[key] = reader.string("value") ?? ""
            }
        }
        return info
    }
}
