/// How serious a finding is. `ferry lint` exits with 1 when any finding is an ``error``.
public enum LintSeverity: String, Sendable, Hashable, Encodable, Comparable, CaseIterable {
    case error, warning, info

    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// Every check `ferry lint` makes, with its id (stable, for scripts), severity and summary.
/// `Formats/lint-rules.md` documents them.
public enum LintRule: String, Sendable, Hashable, CaseIterable, Encodable {
    // CloudKit: Apple's "Creating a Core Data Model for CloudKit" and the load-time errors.
    case cloudKitUniquenessConstraint = "cloudkit-uniqueness-constraint"
    case cloudKitUnsupportedAttributeType = "cloudkit-unsupported-attribute-type"
    case cloudKitRequiredAttribute = "cloudkit-required-attribute-without-default"
    case cloudKitRequiredRelationship = "cloudkit-required-relationship"
    case cloudKitMissingInverse = "cloudkit-missing-inverse"
    case cloudKitDenyDeleteRule = "cloudkit-deny-delete-rule"
    case cloudKitOrderedRelationship = "cloudkit-ordered-relationship"
    case cloudKitCrossConfigurationRelationship = "cloudkit-cross-configuration-relationship"
    // Transformable attributes.
    case transformableCollection = "transformable-collection"
    case transformableInsecureTransformer = "transformable-insecure-transformer"
    case transformableSwiftClassName = "transformable-swift-class-name"
    // Relationships.
    case relationshipMissingInverse = "relationship-missing-inverse"
    case relationshipInverseMismatch = "relationship-inverse-mismatch"
    case relationshipMissingDestination = "relationship-missing-destination"
    // Structure.
    case duplicateName = "duplicate-name"
    case undefinedAttributeNotTransient = "undefined-attribute-not-transient"
    case indexMissingProperty = "index-missing-property"
    case uniquenessMissingProperty = "uniqueness-missing-property"
    case missingParentEntity = "missing-parent-entity"
    case inheritanceCycle = "inheritance-cycle"
    case missingComposite = "missing-composite"
    case missingEntityReference = "missing-entity-reference"
    case invalidDefaultValue = "invalid-default-value"

    public var severity: LintSeverity {
        switch self {
        case .transformableCollection, .transformableInsecureTransformer, .transformableSwiftClassName,
             .relationshipMissingInverse, .invalidDefaultValue:
            return .warning
        default:
            return .error
        }
    }

    public var isCloudKitRule: Bool { rawValue.hasPrefix("cloudkit-") }

    public var summary: String {
        switch self {
        case .cloudKitUniquenessConstraint: return "CloudKit does not support uniqueness constraints"
        case .cloudKitUnsupportedAttributeType: return "CloudKit does not support Undefined or ObjectID attributes"
        case .cloudKitRequiredAttribute: return "CloudKit needs every attribute optional or with a default value"
        case .cloudKitRequiredRelationship: return "CloudKit needs every relationship optional"
        case .cloudKitMissingInverse: return "CloudKit needs every relationship to have an inverse"
        case .cloudKitDenyDeleteRule: return "CloudKit does not support the Deny delete rule"
        case .cloudKitOrderedRelationship: return "CloudKit does not support ordered relationships"
        case .cloudKitCrossConfigurationRelationship: return "CloudKit does not support relationships across configurations"
        case .transformableCollection: return "a Transformable attribute holds a collection; child entities sync and query better"
        case .transformableInsecureTransformer: return "a Transformable attribute has no secure value transformer"
        case .transformableSwiftClassName: return "a Transformable attribute's custom class is Swift syntax, not a class name"
        case .relationshipMissingInverse: return "a relationship has no inverse"
        case .relationshipInverseMismatch: return "a relationship's inverse is missing or does not point back"
        case .relationshipMissingDestination: return "a relationship's destination entity does not exist"
        case .duplicateName: return "two entities, properties, configurations or composites share a name"
        case .undefinedAttributeNotTransient: return "an Undefined attribute must be transient"
        case .indexMissingProperty: return "an index names a property the entity does not have"
        case .uniquenessMissingProperty: return "a uniqueness constraint names a property the entity does not have"
        case .missingParentEntity: return "an entity's parent entity does not exist"
        case .inheritanceCycle: return "an entity inherits from itself"
        case .missingComposite: return "a Composite attribute names no existing composite"
        case .missingEntityReference: return "a fetch request or configuration names an entity that does not exist"
        case .invalidDefaultValue: return "a default value does not fit the attribute's type"
        }
    }
}

/// One problem found by ``ModelLinter``.
public struct LintFinding: Sendable, Hashable, Encodable {
    public var rule: LintRule
    public var severity: LintSeverity
    /// `Entity.property`, `Entity`, or `configuration Name` for model-level findings.
    public var location: String
    public var message: String
    public var hint: String
    public var file: String
    public var line: Int?

    public init(_ rule: LintRule, at location: String, _ message: String, hint: String, file: String, line: Int?) {
        self.rule = rule
        self.severity = rule.severity
        self.location = location
        self.message = message
        self.hint = hint
        self.file = file
        self.line = line
    }
}
