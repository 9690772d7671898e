import FerryJSON
import FerryModel

/// An old stored property whose values a migration does not carry into the new version: the
/// migration succeeds, and the values are gone. Found per entity pair, checked per record.
struct DroppedProperty {
    enum Loss {
        /// The whole value: the column (or link) has no counterpart in the new version.
        case value
        /// A to-many that became to-one: every object after the first loses the link.
        case beyondFirst
    }

    var name: String
    var loss: Loss
    var reason: String

    /// The value the record loses, or nil when it has none to lose.
    func lostValue(in record: CoreDataRecord) -> JSONValue? {
        switch (record.values[name], loss) {
        case (nil, _), (.null?, _): return nil
        case (.array(let items)?, .value): return items.isEmpty ? nil : .array(items)
        case (.array(let items)?, .beyondFirst): return items.count > 1 ? .array(Array(items.dropFirst())) : nil
        case (let value?, .value): return value
        case (_?, .beyondFirst): return nil
        }
    }

    /// Matches properties as ``EntityPlan`` does (renaming identifier, then name) and names every
    /// old stored one left without a stored counterpart.
    static func find(old: EntityDescription, new: EntityDescription, oldModel: DataModel, newModel: DataModel) -> [DroppedProperty] {
        let oldAttributes = oldModel.allAttributes(of: old).filter(\.isStored)
        let newAttributes = newModel.allAttributes(of: new)
        let newRelationships = newModel.allRelationships(of: new)
        var carried: Set<String> = []
        var added: [AttributeDescription] = []
        for attribute in newAttributes where attribute.isStored {
            if let before = oldAttributes.first(where: { $0.name == attribute.renamingIdentifier }) ?? oldAttributes.first(where: { $0.name == attribute.name }) {
                carried.insert(before.name)
            } else {
                added.append(attribute)
            }
        }
        let gone = oldAttributes.filter { !carried.contains($0.name) }
        var result: [DroppedProperty] = gone.map { attribute in
            let name = attribute.name
            if let relationship = newRelationships.first(where: { $0.name == name && !$0.isTransient }) {
                return DroppedProperty(name: name, loss: .value,
                                       reason: "replaced by the relationship \(name) (→ \(relationship.destinationEntity ?? "?")): the attribute's values are dropped unless code or a mapping model moves them")
            }
            let sameType = added.filter { $0.type == attribute.type }
            if gone.count == 1, sameType.count == 1 {
                return DroppedProperty(name: name, loss: .value,
                                       reason: "looks renamed to \(sameType[0].name) without a renaming identifier: the migration drops these values; set the renaming ID of \(sameType[0].name) to \"\(name)\"")
            }
            if newAttributes.contains(where: { $0.name == name && $0.isTransient }) {
                return DroppedProperty(name: name, loss: .value, reason: "made transient in the new version: its column is dropped")
            }
            return DroppedProperty(name: name, loss: .value, reason: "not in the new version: its column is dropped")
        }
        result += droppedLinks(old: old, oldModel: oldModel, newModel: newModel, newRelationships: newRelationships)
        return result
    }

    private static func droppedLinks(old: EntityDescription, oldModel: DataModel, newModel: DataModel,
                                     newRelationships: [RelationshipDescription]) -> [DroppedProperty] {
        var result: [DroppedProperty] = []
        for relationship in oldModel.allRelationships(of: old) where !relationship.isTransient {
            let counterpart = newRelationships.first { $0.renamingIdentifier == relationship.name && !$0.isTransient }
                ?? newRelationships.first { $0.name == relationship.name && !$0.isTransient }
            if let counterpart {
                if relationship.isToMany && !counterpart.isToMany {
                    result.append(DroppedProperty(name: relationship.name, loss: .beyondFirst,
                                                  reason: "to-many → to-one: every object after the first loses the link"))
                }
                continue
            }
            // The link survives when the other side keeps it, renamed or not: the destination
            // and its inverse are matched as Core Data matches them (renaming identifier, then name).
            if let inverse = relationship.inverseName, let destination = relationship.destinationEntity,
               let newDestination = newModel.entities.first(where: { $0.renamingIdentifier == destination }) ?? newModel.entity(named: destination),
               newModel.allRelationships(of: newDestination).contains(where: { ($0.renamingIdentifier == inverse || $0.name == inverse) && !$0.isTransient }) {
                continue
            }
            result.append(DroppedProperty(name: relationship.name, loss: .value, reason: "relationship not in the new version: the link is dropped"))
        }
        return result
    }
}
