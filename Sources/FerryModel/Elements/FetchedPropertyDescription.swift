/// A `<fetchedProperty>` of an entity: a lazily evaluated fetch request, not stored.
public struct FetchedPropertyDescription: Sendable, Hashable, Encodable {
    public var name: String
    public var isOptional: Bool
    public var fetchRequest: FetchRequestDescription?
    public var renamingIdentifier: String?
    public var versionHashModifier: String?
    public var isSyncable: Bool?
    public var userInfo: [String: String]
    public var otherAttributes: [String: String]
    public var line: Int

    enum CodingKeys: String, CodingKey {
        case name, isOptional = "optional", fetchRequest, renamingIdentifier = "elementID"
        case versionHashModifier, isSyncable = "syncable", userInfo, otherAttributes
    }
}

extension FetchedPropertyDescription {
    private enum XML {
        static let name = "name", optional = "optional", elementID = "elementID"
        static let hashModifier = "versionHashModifier", syncable = "syncable", fetchRequest = "fetchRequest"
    }

    init(xml node: XMLNode, in location: ModelLocation) throws(ModelError) {
        var reader = NodeReader(node, at: location)
        name = try reader.required(XML.name)
        reader.location.element = "fetched property \"\(name)\""
        isOptional = try reader.flag(XML.optional)
        renamingIdentifier = reader.nonEmptyString(XML.elementID)
        versionHashModifier = reader.nonEmptyString(XML.hashModifier)
        isSyncable = try reader.optionalFlag(XML.syncable)
        fetchRequest = try node.children(named: XML.fetchRequest).first.map { child throws(ModelError) in
            try FetchRequestDescription(xml: child, in: reader.location)
        }
        userInfo = try UserInfoReader.read(node, at: reader.location)
        otherAttributes = reader.remaining
        line = node.line
    }
}
