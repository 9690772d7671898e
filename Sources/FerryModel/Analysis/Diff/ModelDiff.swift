/// Compares two model versions as Core Data's migration would, and classifies each change as
/// having no effect on the store, as inferable by lightweight migration, or as needing a
/// mapping model.
///
/// Entities and properties are matched as Core Data matches them: by renaming identifier
/// (`elementID`, which defaults to the name), then by name.
///
/// For example:
/// ```swift
/// let bundle = try ModelBundle(at: "Model.xcdatamodeld")
/// let comparison = ModelDiff().compare(try bundle.model(version: "Model"), try bundle.model(version: "Model 2"))
/// print(comparison.verdict)   // lightweight
/// ```
public struct ModelDiff: Sendable {
    public init() {}

    public func compare(_ old: DataModel, _ new: DataModel) -> ModelComparison {
        var changes: [ModelChange] = []
        let entities = Matching(old.entities, new.entities, name: \.name, id: \.renamingIdentifier)
        let renamed = Dictionary(entities.pairs.map { ($0.old.name, $0.new.name) }, uniquingKeysWith: { a, _ in a })
        var pair = EntityPairDiff(oldModel: old, newModel: new, newNameForOld: renamed)

        let possibleRenames = possibleEntityRenames(entities, old: old, new: new)
        for entity in entities.added {
            if let oldName = possibleRenames[entity.name] {
                changes.append(ModelChange(kind: .entityAdded, entity: entity.name, detail: "entity added",
                                           impact: .mappingModel,
                                           reason: "looks like \(oldName) renamed without a renaming identifier: lightweight migration would drop \(oldName)'s rows; set the renaming ID of \(entity.name) to \"\(oldName)\""))
            } else {
                changes.append(ModelChange(kind: .entityAdded, entity: entity.name, detail: "entity added",
                                           impact: .lightweight, reason: "new table or columns, no existing data"))
            }
        }
        for entity in entities.removed {
            changes.append(ModelChange(kind: .entityRemoved, entity: entity.name, detail: "entity removed", impact: .lightweight,
                                       reason: entity.isAbstract ? "abstract: it had no rows of its own" : "its rows are dropped"))
        }
        for (oldEntity, newEntity) in entities.pairs {
            changes += pair.compare(oldEntity, newEntity)
        }
        changes += hierarchyMerges(old: old, new: new, newNameForOld: renamed)
        changes += modelLevelChanges(old, new)
        let (oldHashes, newHashes) = (EntityVersionHash.hashes(of: old), EntityVersionHash.hashes(of: new))
        let hashChanged = entities.pairs.filter { oldHashes[$0.old.name] != newHashes[$0.new.name] }.map(\.new.name).sorted()
        return ModelComparison(old: old.versionName ?? old.file, new: new.versionName ?? new.file, changes: changes,
                               versionHashChanged: hashChanged, sameVersionHashes: oldHashes == newHashes)
    }

    /// An added entity whose stored attributes are exactly those of a removed one is probably
    /// that entity renamed without a renaming identifier.
    private func possibleEntityRenames(_ matching: Matching<EntityDescription>, old: DataModel, new: DataModel) -> [String: String] {
        var result: [String: String] = [:]
        for added in matching.added {
            let signature = Set(new.allAttributes(of: added).filter(\.isStored).map { "\($0.name):\($0.type.rawValue)" })
            guard !signature.isEmpty else { continue }
            let candidates = matching.removed.filter {
                Set(old.allAttributes(of: $0).filter(\.isStored).map { "\($0.name):\($0.type.rawValue)" }) == signature
            }
            if candidates.count == 1 { result[added.name] = candidates[0].name }
        }
        return result
    }

    /// Lightweight migration cannot merge hierarchies: entities that had different roots in the
    /// old model may not share one in the new model.
    private func hierarchyMerges(old: DataModel, new: DataModel, newNameForOld: [String: String]) -> [ModelChange] {
        let oldNameForNew = Dictionary(newNameForOld.map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        var changes: [ModelChange] = []
        for root in new.entities where root.parentName == nil {
            let oldRoots = Set(new.hierarchy(below: root).compactMap { member -> String? in
                guard let oldName = oldNameForNew[member.name], let oldEntity = old.entity(named: oldName) else { return nil }
                return oldEntity.rootEntityName
            })
            if oldRoots.count > 1 {
                changes.append(ModelChange(kind: .entityChanged, entity: root.name, detail: "hierarchy now holds entities of \(oldRoots.sorted().joined(separator: ", "))",
                                           impact: .mappingModel,
                                           reason: "lightweight migration cannot merge entity hierarchies that had different roots"))
            }
        }
        return changes
    }

    private func modelLevelChanges(_ old: DataModel, _ new: DataModel) -> [ModelChange] {
        var changes: [ModelChange] = []
        func note(_ detail: String, _ impact: MigrationImpact, _ reason: String) {
            changes.append(ModelChange(kind: .modelChanged, entity: nil, property: nil, detail: detail, impact: impact, reason: reason))
        }
        if old.configurations.map(\.signature) != new.configurations.map(\.signature) {
            note("configurations changed", .noStoreEffect, "the app chooses a store's configuration in code")
        }
        if old.fetchRequests.map(\.withoutLine) != new.fetchRequests.map(\.withoutLine) {
            note("fetch request templates changed", .noStoreEffect, "fetch requests are not stored")
        }
        if old.composites.map(\.signature) != new.composites.map(\.signature) {
            note("composite definitions changed", .lightweight, "composite attributes are stored as flattened columns")
        }
        if old.usedWithCloudKit != new.usedWithCloudKit {
            note("usedWithCloudKit: \(old.usedWithCloudKit) → \(new.usedWithCloudKit)", .noStoreEffect,
                 "CloudKit use is a model-editor flag; the store schema does not change")
        }
        return changes
    }
}

/// Pairs items of two versions: first by renaming identifier (defaulting to the name), then by name.
struct Matching<Item> {
    var pairs: [(old: Item, new: Item)] = []
    var added: [Item] = []
    var removed: [Item] = []

    init(_ old: [Item], _ new: [Item], name: (Item) -> String, id: (Item) -> String?) {
        var unmatchedOld = Array(old.indices)
        var unmatchedNew: [Int] = []
        var matchedNew: [Int: Int] = [:]
        for (newIndex, item) in new.enumerated() {
            let key = id(item) ?? name(item)
            if let position = unmatchedOld.firstIndex(where: { (id(old[$0]) ?? name(old[$0])) == key }) {
                matchedNew[newIndex] = unmatchedOld.remove(at: position)
            } else {
                unmatchedNew.append(newIndex)
            }
        }
        for newIndex in unmatchedNew {
            if let position = unmatchedOld.firstIndex(where: { name(old[$0]) == name(new[newIndex]) }) {
                matchedNew[newIndex] = unmatchedOld.remove(at: position)
            } else {
                added.append(new[newIndex])
            }
        }
        pairs = matchedNew.keys.sorted().map { (old[matchedNew[$0]!], new[$0]) }
        removed = unmatchedOld.map { old[$0] }
    }
}

extension FetchRequestDescription {
    var withoutLine: FetchRequestDescription {
        var copy = self
        copy.line = 0
        return copy
    }
}

extension ConfigurationDescription {
    var signature: [String] { [name, "\(usedWithCloudKit)"] + memberEntities.sorted() }
}

extension CompositeDescription {
    /// Name and stored attribute types: what decides the composite's columns.
    var signature: [String] {
        [name] + attributes.map { "\($0.name):\($0.type.rawValue):\($0.compositeName ?? "")" }
    }
}

extension ModelDiff {
    /// Compares each version of the bundle with the next, in natural name order.
    /// - Throws: ``ModelError`` when a version cannot be read.
    public func compareConsecutiveVersions(of bundle: ModelBundle) throws(ModelError) -> [ModelComparison] {
        var models: [DataModel] = []
        for version in bundle.versions { models.append(try bundle.load(version)) }
        return zip(models, models.dropFirst()).map { compare($0, $1) }
    }

    /// Compares two versions of one bundle directly and, when versions lie between them,
    /// composes the verdicts of every step from the older to the newer (see
    /// ``ModelComparison/composed(with:)``).
    /// - Throws: ``ModelError`` when a version cannot be read.
    public func compare(_ old: DataModel, _ new: DataModel, across bundle: ModelBundle) throws(ModelError) -> ModelComparison {
        let direct = compare(old, new)
        let names = bundle.versions.map(\.name)
        guard let from = names.firstIndex(where: { $0 == old.versionName }), let to = names.firstIndex(where: { $0 == new.versionName }),
              to - from > 1 else { return direct }
        var models: [DataModel] = []
        for version in bundle.versions[from...to] { models.append(try bundle.load(version)) }
        return direct.composed(with: zip(models, models.dropFirst()).map { compare($0, $1) })
    }
}

/// The JSON document `ferry diff --format json` prints. Schema: `Formats/json/diff.schema.json`.
public struct DiffReport: Sendable, Encodable {
    public var format = "ferry.diff/1"
    public var pairs: [ModelComparison]

    public init(comparisons: [ModelComparison]) {
        pairs = comparisons
    }
}
