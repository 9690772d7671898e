/// An `<attribute>` of an entity or of a composite, with every setting the file gives.
///
/// Flags default as Core Data does when the file omits them: required, persistent, not indexed.
public struct AttributeDescription: Sendable, Hashable {
    public var name: String
    public var type: AttributeType
    public var isOptional: Bool
    public var isTransient: Bool
    public var isDerived: Bool
    public var derivationExpression: String?
    public var isIndexed: Bool
    public var isIndexedBySpotlight: Bool
    public var isStoredInExternalRecord: Bool
    public var defaultValue: String?
    public var defaultDateTimeInterval: String?
    public var minValue: String?
    public var maxValue: String?
    public var minDateTimeInterval: String?
    public var maxDateTimeInterval: String?
    public var regularExpression: String?
    public var valueTransformerName: String?
    public var customClassName: String?
    public var allowsExternalBinaryDataStorage: Bool
    public var allowsCloudEncryption: Bool
    public var preservesValueInHistoryOnDeletion: Bool
    public var usesScalarValueType: Bool?
    /// The ``CompositeDescription`` a `Composite` attribute is made of.
    public var compositeName: String?
    /// Xcode's "Renaming ID", stored as `elementID`.
    public var renamingIdentifier: String?
    public var versionHashModifier: String?
    public var isSyncable: Bool?
    public var userInfo: [String: String]
    public var otherAttributes: [String: String]
    public var unknownElements: [RawXMLElement]
    /// Line of the element in its file.
    public var line: Int

    /// An attribute built in code (from a compiled model or a store's schema): optional,
    /// persistent, no settings; set the rest through the properties.
    public init(name: String, type: AttributeType, line: Int = 0) {
        self.name = name
        self.type = type
        isOptional = true
        isTransient = false
        isDerived = false
        isIndexed = false
        isIndexedBySpotlight = false
        isStoredInExternalRecord = false
        allowsExternalBinaryDataStorage = false
        allowsCloudEncryption = false
        preservesValueInHistoryOnDeletion = false
        userInfo = [:]
        otherAttributes = [:]
        unknownElements = []
        self.line = line
    }

    /// Whether the attribute has a column in the store.
    public var isStored: Bool { !isTransient }
    public var hasDefault: Bool { defaultValue != nil || defaultDateTimeInterval != nil }
}

extension AttributeDescription {
    private enum XML {
        static let name = "name", type = "attributeType", optional = "optional", transient = "transient"
        static let derived = "derived", derivation = "derivationExpression"
        static let defaultValue = "defaultValueString", defaultDate = "defaultDateTimeInterval"
        static let minValue = "minValueString", maxValue = "maxValueString"
        static let minDate = "minDateTimeInterval", maxDate = "maxDateTimeInterval"
        static let regex = "regularExpressionString", transformer = "valueTransformerName"
        static let customClass = "customClassName", external = "allowsExternalBinaryDataStorage"
        static let cloudEncryption = "allowsCloudEncryption", preserve = "preserveAfterDeletion"
        static let scalar = "usesScalarValueType", composite = "composite"
    }

    init(xml node: XMLNode, in location: ModelLocation) throws(ModelError) {
        var reader = NodeReader(node, at: location)
        name = try reader.required(XML.name)
        reader.location.element = "attribute \"\(name)\""
        let rawType = reader.string(XML.type)
        // A missing attributeType is Core Data's Undefined type, not an error.
        guard let type = rawType.map({ AttributeType(rawValue: $0) }) ?? .undefined else {
            throw ModelError(.invalidValue(attribute: XML.type, value: rawType ?? "",
                                           expected: "a known attribute type"), at: reader.location)
        }
        self.type = type
        isOptional = try reader.flag(XML.optional)
        isTransient = try reader.flag(XML.transient)
        isDerived = try reader.flag(XML.derived)
        derivationExpression = reader.string(XML.derivation)
        defaultValue = reader.string(XML.defaultValue)
        defaultDateTimeInterval = reader.string(XML.defaultDate)
        minValue = reader.string(XML.minValue)
        maxValue = reader.string(XML.maxValue)
        minDateTimeInterval = reader.string(XML.minDate)
        maxDateTimeInterval = reader.string(XML.maxDate)
        regularExpression = reader.string(XML.regex)
        valueTransformerName = reader.nonEmptyString(XML.transformer)
        customClassName = reader.nonEmptyString(XML.customClass)
        allowsExternalBinaryDataStorage = try reader.flag(XML.external)
        allowsCloudEncryption = try reader.flag(XML.cloudEncryption)
        preservesValueInHistoryOnDeletion = try reader.flag(XML.preserve)
        usesScalarValueType = try reader.optionalFlag(XML.scalar)
        compositeName = reader.nonEmptyString(XML.composite)
        (isIndexed, isIndexedBySpotlight, isStoredInExternalRecord, renamingIdentifier, versionHashModifier, isSyncable,
         userInfo, otherAttributes, unknownElements, line) = try PropertySettings.read(&reader, node)
    }
}

extension AttributeDescription: Encodable {
    enum CodingKeys: String, CodingKey {
        case name, type, isOptional = "optional", isTransient = "transient", isDerived = "derived"
        case derivationExpression, isIndexed = "indexed", isIndexedBySpotlight = "spotlightIndexingEnabled"
        case isStoredInExternalRecord = "storedInTruthFile", defaultValue, defaultDateTimeInterval
        case minValue, maxValue, minDateTimeInterval, maxDateTimeInterval, regularExpression
        case valueTransformerName, customClassName, allowsExternalBinaryDataStorage, allowsCloudEncryption
        case preservesValueInHistoryOnDeletion = "preserveAfterDeletion", usesScalarValueType
        case compositeName = "composite", renamingIdentifier = "elementID", versionHashModifier
        case isSyncable = "syncable", userInfo, otherAttributes, unknownElements
    }
}
