/// Compares one entity with its counterpart in the next version, property by property.
struct EntityPairDiff {
    let oldModel: DataModel
    let newModel: DataModel
    /// Old entity name → new entity name, for every matched entity.
    let newNameForOld: [String: String]

    private var changes: [ModelChange] = []
    /// The new name of the entity being compared.
    private(set) var entity = ""

    init(oldModel: DataModel, newModel: DataModel, newNameForOld: [String: String]) {
        self.oldModel = oldModel
        self.newModel = newModel
        self.newNameForOld = newNameForOld
    }

    mutating func compare(_ old: EntityDescription, _ new: EntityDescription) -> [ModelChange] {
        changes = []
        entity = new.name
        if old.name != new.name {
            add(.entityRenamed, nil, "renamed from \(old.name)", .lightweight, "matched by renaming identifier")
        }
        compareEntitySettings(old, new)
        // Core Data maps every property an entity has, inherited ones included, so properties that
        // move up or down the hierarchy match; each change is reported where it is declared.
        let attributes = Matching(oldModel.allAttributes(of: old), newModel.allAttributes(of: new),
                                  name: \.name, id: \.renamingIdentifier)
        let relationships = Matching(oldModel.allRelationships(of: old), newModel.allRelationships(of: new),
                                     name: \.name, id: \.renamingIdentifier)
        let renames = possibleRenames(attributes)
        for attribute in attributes.added where reportsHere(new: attribute.name, old: nil, old, new) {
            added(attribute, in: new, possibleRenameOf: renames[attribute.name])
        }
        for attribute in attributes.removed where attribute.isStored && reportsHere(new: nil, old: attribute.name, old, new) {
            add(.attributeRemoved, attribute.name, "attribute removed", .lightweight, "its column is dropped")
        }
        for (a, b) in attributes.pairs where reportsHere(new: b.name, old: a.name, old, new) { compare(a, b) }
        let removedAttributes = Set(attributes.removed.filter(\.isStored).map(\.name))
        for relationship in relationships.added where reportsHere(new: relationship.name, old: nil, old, new) {
            added(relationship, in: new, replacesAttribute: removedAttributes.contains(relationship.name))
        }
        for relationship in relationships.removed where !relationship.isTransient && reportsHere(new: nil, old: relationship.name, old, new) {
            add(.relationshipRemoved, relationship.name, "relationship removed", .lightweight, "its column or join table is dropped")
        }
        for (a, b) in relationships.pairs where reportsHere(new: b.name, old: a.name, old, new) { compare(a, b) }
        let fetched = Matching(old.fetchedProperties, new.fetchedProperties, name: \.name, id: \.renamingIdentifier)
        if !fetched.added.isEmpty || !fetched.removed.isEmpty
            || fetched.pairs.contains(where: { $0.old.fetchRequest?.withoutLine != $0.new.fetchRequest?.withoutLine }) {
            add(.fetchedPropertyChanged, nil, "fetched properties changed", .noStoreEffect, "fetched properties are not stored")
        }
        return changes
    }

    mutating func add(_ kind: ModelChange.Kind, _ property: String?, _ detail: String,
                              _ impact: MigrationImpact, _ reason: String) {
        changes.append(ModelChange(kind: kind, entity: entity, property: property, detail: detail, impact: impact, reason: reason))
    }

    private mutating func compareEntitySettings(_ old: EntityDescription, _ new: EntityDescription) {
        let oldParent = old.parentName.map { newNameForOld[$0] ?? "\($0) (removed)" }
        if oldParent != new.parentName {
            add(.entityChanged, nil, "parent: \(old.parentName ?? "none") → \(new.parentName ?? "none")", .lightweight,
                "lightweight migration can add a parent or move an entity out of a hierarchy")
        }
        if old.isAbstract != new.isAbstract {
            add(.entityChanged, nil, "abstract: \(old.isAbstract) → \(new.isAbstract)", .lightweight, "changes the entity hash")
        }
        if old.versionHashModifier != new.versionHashModifier {
            add(.entityChanged, nil, "version hash modifier: \(old.versionHashModifier ?? "none") → \(new.versionHashModifier ?? "none")",
                .lightweight, "forces a new entity hash")
        }
        if old.uniquenessConstraints != new.uniquenessConstraints {
            add(.entityChanged, nil, "uniqueness constraints: \(Self.lists(old.uniquenessConstraints)) → \(Self.lists(new.uniquenessConstraints))",
                .lightweight, "inferable, but the migration fails if existing rows break a new constraint")
        }
        if old.fetchIndexes.map(\.signature) != new.fetchIndexes.map(\.signature) || old.compoundIndexes != new.compoundIndexes {
            add(.entityChanged, nil, "indexes changed", .lightweight, "indexes are rebuilt")
        }
        if old.representedClassName != new.representedClassName || old.codeGenerationType != new.codeGenerationType {
            add(.entityChanged, nil, "class: \(old.representedClassName ?? "none") → \(new.representedClassName ?? "none")",
                .noStoreEffect, "class names and code generation do not reach the store")
        }
        if old.userInfo != new.userInfo {
            add(.entityChanged, nil, "userInfo changed", .noStoreEffect, "userInfo is not stored")
        }
    }

    /// Whether a property's change belongs to this entity: it is declared here (in either
    /// version), or it is inherited from an ancestor that has no counterpart in the other
    /// version, which therefore reports nothing about it.
    private func reportsHere(new newName: String?, old oldName: String?, _ old: EntityDescription, _ new: EntityDescription) -> Bool {
        if let newName {
            if new.ownPropertyNames.contains(newName) { return true }
            if let declaring = newModel.declaringEntity(of: newName, below: new),
               !newNameForOld.values.contains(declaring) { return true }
        }
        if let oldName {
            if old.ownPropertyNames.contains(oldName) { return true }
            if let declaring = oldModel.declaringEntity(of: oldName, below: old), newNameForOld[declaring] == nil { return true }
        }
        return false
    }

    /// A single stored attribute removed and a single one of the same type added looks like a
    /// rename without a renaming identifier.
    private func possibleRenames(_ matching: Matching<AttributeDescription>) -> [String: String] {
        let removed = matching.removed.filter(\.isStored)
        let added = matching.added.filter(\.isStored)
        guard removed.count == 1, added.count == 1, removed[0].type == added[0].type,
              !movedWithinHierarchy(added[0].name) else { return [:] }
        return [added[0].name: removed[0].name]
    }

    /// Whether the old model had a property of this name somewhere in the entity's new hierarchy:
    /// then an "added" property moved up or down, which lightweight migration handles.
    func movedWithinHierarchy(_ property: String) -> Bool {
        guard let newEntity = newModel.entity(named: entity) else { return false }
        let family = newEntity.superentityNames + newModel.hierarchy(below: newEntity).map(\.name)
        let oldNames = Dictionary(newNameForOld.map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        return family.contains { name in
            guard let oldName = oldNames[name], let oldEntity = oldModel.entity(named: oldName) else { return false }
            return oldEntity.ownPropertyNames.contains(property)
        }
    }

    private static func lists(_ lists: [[String]]) -> String {
        lists.isEmpty ? "none" : lists.map { "(\($0.joined(separator: ", ")))" }.joined(separator: " ")
    }
}

extension FetchIndexDescription {
    var signature: [String] {
        [name] + elements.map { "\($0.property ?? $0.expression ?? ""):\($0.type):\($0.order)" }
    }
}
