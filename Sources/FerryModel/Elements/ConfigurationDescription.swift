/// A `<configuration>`: a named subset of the entities, stored together.
///
/// `usedWithCloudKit` here (Xcode 11 and later) or on the model means the entities must
/// follow CloudKit's rules.
public struct ConfigurationDescription: Sendable, Hashable, Encodable {
    public var name: String
    public var usedWithCloudKit: Bool
    public var memberEntities: [String]
    public var otherAttributes: [String: String]
    public var line: Int

    enum CodingKeys: String, CodingKey { case name, usedWithCloudKit, memberEntities, otherAttributes }

    public init(name: String, memberEntities: [String], usedWithCloudKit: Bool = false) {
        self.name = name
        self.usedWithCloudKit = usedWithCloudKit
        self.memberEntities = memberEntities
        otherAttributes = [:]
        line = 0
    }
}

extension ConfigurationDescription {
    init(xml node: XMLNode, in location: ModelLocation) throws(ModelError) {
        var reader = NodeReader(node, at: location)
        name = try reader.required("name")
        reader.location.element = "configuration \"\(name)\""
        usedWithCloudKit = try reader.flag("usedWithCloudKit")
        let here = reader.location
        memberEntities = try node.children(named: "memberEntity").map { child throws(ModelError) in
            var member = NodeReader(child, at: here)
            return try member.required("name")
        }
        otherAttributes = reader.remaining
        line = node.line
    }
}
