/// What a change between two model versions means for an existing store.
///
/// Ordered from harmless to hard, so that a pair's verdict is the largest impact of its changes.
public enum MigrationImpact: String, Sendable, Hashable, Comparable, CaseIterable, Encodable {
    /// Same store schema and entity hashes: no migration runs (defaults, class names, userInfo…).
    case noStoreEffect = "no-store-effect"
    /// Core Data's lightweight migration infers the mapping.
    case lightweight
    /// Lightweight migration cannot infer it: a mapping model or a staged migration is needed.
    case mappingModel = "mapping-model"

    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// The verdict for one pair of versions.
public enum MigrationVerdict: String, Sendable, Hashable, Encodable {
    case identical
    case noStoreEffect = "no-store-effect"
    case lightweight
    case mappingModel = "mapping-model"

    init(_ changes: [ModelChange]) {
        switch changes.map(\.impact).max() {
        case nil: self = .identical
        case .noStoreEffect: self = .noStoreEffect
        case .lightweight: self = .lightweight
        case .mappingModel: self = .mappingModel
        }
    }

    /// From harmless to hard, as ``MigrationImpact``.
    var rank: Int { [.identical, .noStoreEffect, .lightweight, .mappingModel].firstIndex(of: self) ?? 0 }
}

/// One step of a comparison across several versions: consecutive versions and their verdict.
public struct MigrationStep: Sendable, Hashable, Encodable {
    public var old: String
    public var new: String
    public var verdict: MigrationVerdict
}

/// One difference between two model versions, with its impact and the reason for it.
public struct ModelChange: Sendable, Hashable, Encodable {
    public enum Kind: String, Sendable, Hashable, Encodable {
        case entityAdded = "entity-added", entityRemoved = "entity-removed"
        case entityRenamed = "entity-renamed", entityChanged = "entity-changed"
        case attributeAdded = "attribute-added", attributeRemoved = "attribute-removed"
        case attributeRenamed = "attribute-renamed", attributeChanged = "attribute-changed"
        case relationshipAdded = "relationship-added", relationshipRemoved = "relationship-removed"
        case relationshipRenamed = "relationship-renamed", relationshipChanged = "relationship-changed"
        case fetchedPropertyChanged = "fetched-property-changed"
        case modelChanged = "model-changed"
    }

    public var kind: Kind
    /// The entity's name in the new version (in the old one for removals); nil for model-level changes.
    public var entity: String?
    public var property: String?
    /// What changed, such as `type: String → Integer 16`.
    public var detail: String
    public var impact: MigrationImpact
    /// Why the change has that impact.
    public var reason: String

    /// `Entity.property`, `Entity`, or `model`.
    public var location: String {
        guard let entity else { return "model" }
        return property.map { "\(entity).\($0)" } ?? entity
    }
}

/// The changes from one model version to the next and the verdict they add up to.
public struct ModelComparison: Sendable, Encodable {
    public var old: String
    public var new: String
    public var verdict: MigrationVerdict
    public var changes: [ModelChange]
    /// Entities of both versions (by the new name) whose Core Data version hash changes: Core
    /// Data sees a new version of each and migrates the store; empty, it opens the store as it is.
    public var versionHashChanged: [String]
    /// Every entity's version hash is the same in both (none added or removed either): Core Data
    /// opens a store of the old version with the new model without migrating.
    public var sameVersionHashes: Bool
    /// When versions lie between the two (in one bundle): each consecutive pair's verdict. An app
    /// that migrates step by step meets every one of them, so the verdict is the hardest of the
    /// direct comparison and the steps.
    public var steps: [MigrationStep]?
    /// The verdict of comparing the two versions directly, when steps were composed.
    public var directVerdict: MigrationVerdict?

    public init(old: String, new: String, changes: [ModelChange], versionHashChanged: [String] = [], sameVersionHashes: Bool = false) {
        self.old = old
        self.new = new
        self.changes = changes
        self.versionHashChanged = versionHashChanged
        self.sameVersionHashes = sameVersionHashes
        verdict = MigrationVerdict(changes)
    }

    /// This comparison with the verdicts of the consecutive versions between its two.
    public func composed(with steps: [ModelComparison]) -> ModelComparison {
        guard steps.count > 1 else { return self }
        var result = self
        result.steps = steps.map { MigrationStep(old: $0.old, new: $0.new, verdict: $0.verdict) }
        result.directVerdict = verdict
        result.verdict = ([verdict] + steps.map(\.verdict)).max { $0.rank < $1.rank } ?? verdict
        return result
    }
}
