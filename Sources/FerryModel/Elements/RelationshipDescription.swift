/// What happens to the destination when the source object is deleted.
public enum DeletionRule: String, Sendable, Hashable, CaseIterable, Encodable {
    case nullify = "Nullify"
    case cascade = "Cascade"
    case deny = "Deny"
    case noAction = "No Action"
}

/// A `<relationship>` of an entity.
///
/// `toMany` and `maxCount` are kept as the file gives them; a relationship without
/// `toMany="YES"` is to-one.
public struct RelationshipDescription: Sendable, Hashable {
    public var name: String
    /// Nil only in a broken file; lint reports it.
    public var destinationEntity: String?
    public var inverseName: String?
    public var inverseEntity: String?
    public var isToMany: Bool
    public var isOrdered: Bool
    public var isOptional: Bool
    public var isTransient: Bool
    public var minCount: Int?
    public var maxCount: Int?
    public var deletionRule: DeletionRule
    public var isIndexed: Bool
    public var isIndexedBySpotlight: Bool
    public var isStoredInExternalRecord: Bool
    public var renamingIdentifier: String?
    public var versionHashModifier: String?
    public var isSyncable: Bool?
    public var userInfo: [String: String]
    public var otherAttributes: [String: String]
    public var unknownElements: [RawXMLElement]
    public var line: Int

    /// A relationship built in code: optional, to-one, nullify; set the rest through the properties.
    public init(name: String, destination: String?, line: Int = 0) {
        self.name = name
        destinationEntity = destination
        isToMany = false
        isOrdered = false
        isOptional = true
        isTransient = false
        deletionRule = .nullify
        isIndexed = false
        isIndexedBySpotlight = false
        isStoredInExternalRecord = false
        userInfo = [:]
        otherAttributes = [:]
        unknownElements = []
        self.line = line
    }
}

extension RelationshipDescription {
    private enum XML {
        static let name = "name", destination = "destinationEntity", inverseName = "inverseName"
        static let inverseEntity = "inverseEntity", toMany = "toMany", ordered = "ordered"
        static let optional = "optional", transient = "transient", minCount = "minCount", maxCount = "maxCount"
        static let deletionRule = "deletionRule"
    }

    init(xml node: XMLNode, in location: ModelLocation) throws(ModelError) {
        var reader = NodeReader(node, at: location)
        name = try reader.required(XML.name)
        reader.location.element = "relationship \"\(name)\""
        destinationEntity = reader.nonEmptyString(XML.destination)
        inverseName = reader.nonEmptyString(XML.inverseName)
        inverseEntity = reader.nonEmptyString(XML.inverseEntity)
        isToMany = try reader.flag(XML.toMany)
        isOrdered = try reader.flag(XML.ordered)
        isOptional = try reader.flag(XML.optional)
        isTransient = try reader.flag(XML.transient)
        minCount = try reader.integer(XML.minCount)
        maxCount = try reader.integer(XML.maxCount)
        let rule = reader.string(XML.deletionRule) ?? DeletionRule.nullify.rawValue
        guard let deletionRule = DeletionRule(rawValue: rule) else {
            throw ModelError(.invalidValue(attribute: XML.deletionRule, value: rule,
                                           expected: "Nullify, Cascade, Deny or No Action"), at: reader.location)
        }
        self.deletionRule = deletionRule
        (isIndexed, isIndexedBySpotlight, isStoredInExternalRecord, renamingIdentifier, versionHashModifier, isSyncable,
         userInfo, otherAttributes, unknownElements, line) = try PropertySettings.read(&reader, node)
    }
}

extension RelationshipDescription: Encodable {
    enum CodingKeys: String, CodingKey {
        case name, destinationEntity = "destination", inverseName, inverseEntity, isToMany = "toMany"
        case isOrdered = "ordered", isOptional = "optional", isTransient = "transient", minCount, maxCount
        case deletionRule, isIndexed = "indexed", isIndexedBySpotlight = "spotlightIndexingEnabled"
        case isStoredInExternalRecord = "storedInTruthFile", renamingIdentifier = "elementID"
        case versionHashModifier, isSyncable = "syncable", userInfo, otherAttributes, unknownElements
    }
}
