/// An `<entity>` with its own declared properties, indexes and constraints, plus its place in
/// the inheritance hierarchy, resolved by ``DataModel`` when the model is read.
public struct EntityDescription: Sendable, Hashable {
    public var name: String
    public var parentName: String?
    public var isAbstract: Bool
    public var representedClassName: String?
    public var codeGenerationType: String?
    public var renamingIdentifier: String?
    public var versionHashModifier: String?
    public var isSyncable: Bool?
    public var userInfo: [String: String]
    /// Declared on this entity; inherited ones are in ``inheritedAttributeNames``.
    public var attributes: [AttributeDescription]
    public var relationships: [RelationshipDescription]
    public var fetchedProperties: [FetchedPropertyDescription]
    public var fetchIndexes: [FetchIndexDescription]
    /// Pre-Xcode 9 `<compoundIndexes>`: each an ordered list of property names.
    public var compoundIndexes: [[String]]
    /// Each constraint is a list of property names that together must be unique.
    public var uniquenessConstraints: [[String]]
    public var otherAttributes: [String: String]
    public var unknownElements: [RawXMLElement]
    public var line: Int

    // Resolved by DataModel.

    /// Parent first, root last; stops at a missing parent or a cycle.
    public internal(set) var superentityNames: [String] = []
    public internal(set) var subentityNames: [String] = []
    /// The entity whose table stores this one: the top of its hierarchy.
    public internal(set) var rootEntityName: String = ""
    public internal(set) var inheritedAttributeNames: [String] = []
    public internal(set) var inheritedRelationshipNames: [String] = []

    /// An entity built in code; ``DataModel/init(file:versionName:entities:)`` resolves its hierarchy.
    public init(name: String, parentName: String? = nil, line: Int = 0) {
        self.name = name
        self.parentName = parentName
        isAbstract = false
        userInfo = [:]
        attributes = []
        relationships = []
        fetchedProperties = []
        fetchIndexes = []
        compoundIndexes = []
        uniquenessConstraints = []
        otherAttributes = [:]
        unknownElements = []
        self.line = line
    }

    public func attribute(named name: String) -> AttributeDescription? {
        attributes.first { $0.name == name }
    }

    public func relationship(named name: String) -> RelationshipDescription? {
        relationships.first { $0.name == name }
    }

    /// Names of the properties declared here: attributes, relationships and fetched properties.
    public var ownPropertyNames: [String] {
        attributes.map(\.name) + relationships.map(\.name) + fetchedProperties.map(\.name)
    }
}

extension EntityDescription {
    private enum XML {
        static let name = "name", parent = "parentEntity", abstract = "isAbstract"
        static let className = "representedClassName", codegen = "codeGenerationType"
        static let elementID = "elementID", hashModifier = "versionHashModifier", syncable = "syncable"
        static let known: Set<String> = ["attribute", "relationship", "fetchedProperty", "userInfo",
                                         "fetchIndex", "compoundIndexes", "uniquenessConstraints"]
    }

    init(xml node: XMLNode, in location: ModelLocation) throws(ModelError) {
        var reader = NodeReader(node, at: location)
        name = try reader.required(XML.name)
        reader.location.entity = name
        let here = reader.location
        parentName = reader.nonEmptyString(XML.parent)
        isAbstract = try reader.flag(XML.abstract)
        representedClassName = reader.nonEmptyString(XML.className)
        codeGenerationType = reader.nonEmptyString(XML.codegen)
        renamingIdentifier = reader.nonEmptyString(XML.elementID)
        versionHashModifier = reader.nonEmptyString(XML.hashModifier)
        isSyncable = try reader.optionalFlag(XML.syncable)
        userInfo = try UserInfoReader.read(node, at: here)
        attributes = try node.children(named: "attribute").map { child throws(ModelError) in
            try AttributeDescription(xml: child, in: here)
        }
        relationships = try node.children(named: "relationship").map { child throws(ModelError) in
            try RelationshipDescription(xml: child, in: here)
        }
        fetchedProperties = try node.children(named: "fetchedProperty").map { child throws(ModelError) in
            try FetchedPropertyDescription(xml: child, in: here)
        }
        fetchIndexes = try node.children(named: "fetchIndex").map { child throws(ModelError) in
            try FetchIndexDescription(xml: child, in: here)
        }
        compoundIndexes = Self.propertyLists(node, group: "compoundIndexes", item: "compoundIndex", member: "index")
        uniquenessConstraints = Self.propertyLists(node, group: "uniquenessConstraints",
                                                   item: "uniquenessConstraint", member: "constraint")
        otherAttributes = reader.remaining
        unknownElements = node.children.filter { !XML.known.contains($0.name) }.map(RawXMLElement.init)
        line = node.line
    }

    /// Reads `<group><item><member value="a"/><member value="b"/></item>…</group>` as `[["a", "b"], …]`.
    private static func propertyLists(_ node: XMLNode, group: String, item: String, member: String) -> [[String]] {
        node.children(named: group).flatMap { $0.children(named: item) }.map { list in
            list.children(named: member).compactMap { $0.attributes["value"] }
        }
    }
}

extension EntityDescription: Encodable {
    enum CodingKeys: String, CodingKey {
        case name, parentName = "parent", isAbstract = "abstract", representedClassName, codeGenerationType
        case renamingIdentifier = "elementID", versionHashModifier, isSyncable = "syncable", userInfo
        case attributes, relationships, fetchedProperties, fetchIndexes, compoundIndexes, uniquenessConstraints
        case otherAttributes, unknownElements, superentityNames = "superentities"
        case subentityNames = "subentities", rootEntityName = "rootEntity"
        case inheritedAttributeNames = "inheritedAttributes", inheritedRelationshipNames = "inheritedRelationships"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        // `parent` is always present, null for a root entity, so scripts need not test for the key.
        try container.encode(parentName, forKey: .parentName)
        try container.encode(isAbstract, forKey: .isAbstract)
        try container.encodeIfPresent(representedClassName, forKey: .representedClassName)
        try container.encodeIfPresent(codeGenerationType, forKey: .codeGenerationType)
        try container.encodeIfPresent(renamingIdentifier, forKey: .renamingIdentifier)
        try container.encodeIfPresent(versionHashModifier, forKey: .versionHashModifier)
        try container.encodeIfPresent(isSyncable, forKey: .isSyncable)
        try container.encode(userInfo, forKey: .userInfo)
        try container.encode(attributes, forKey: .attributes)
        try container.encode(relationships, forKey: .relationships)
        try container.encode(fetchedProperties, forKey: .fetchedProperties)
        try container.encode(fetchIndexes, forKey: .fetchIndexes)
        try container.encode(compoundIndexes, forKey: .compoundIndexes)
        try container.encode(uniquenessConstraints, forKey: .uniquenessConstraints)
        try container.encode(otherAttributes, forKey: .otherAttributes)
        try container.encode(unknownElements, forKey: .unknownElements)
        try container.encode(superentityNames, forKey: .superentityNames)
        try container.encode(subentityNames, forKey: .subentityNames)
        try container.encode(rootEntityName, forKey: .rootEntityName)
        try container.encode(inheritedAttributeNames, forKey: .inheritedAttributeNames)
        try container.encode(inheritedRelationshipNames, forKey: .inheritedRelationshipNames)
    }
}
