/// Relationship checks: destinations exist, inverses exist and point back.
extension LintContext {
    mutating func checkRelationships() {
        for entity in model.entities {
            for relationship in entity.relationships {
                check(relationship, of: entity)
            }
        }
    }

    private mutating func check(_ relationship: RelationshipDescription, of entity: EntityDescription) {
        let line = relationship.line
        guard let destinationName = relationship.destinationEntity else {
            report(.relationshipMissingDestination, entity, property: relationship.name, line: line,
                   "has no destination entity", hint: "choose a destination entity in the model editor")
            return
        }
        guard let destination = model.entity(named: destinationName) else {
            report(.relationshipMissingDestination, entity, property: relationship.name, line: line,
                   "points to entity \(destinationName), which does not exist",
                   hint: "choose an existing destination entity")
            return
        }
        guard let inverseName = relationship.inverseName else {
            // Under CloudKit the stricter cloudkit-missing-inverse reports it.
            if !cloudKitEntities.contains(entity.name) {
                report(.relationshipMissingInverse, entity, property: relationship.name, line: line,
                       "has no inverse; Core Data cannot keep both sides consistent",
                       hint: "add an inverse relationship on \(destinationName)")
            }
            return
        }
        if let inverseEntity = relationship.inverseEntity, inverseEntity != destinationName {
            report(.relationshipInverseMismatch, entity, property: relationship.name, line: line,
                   "names its inverse on \(inverseEntity) but points to \(destinationName)",
                   hint: "pick the inverse again in the model editor")
            return
        }
        guard let inverse = model.allRelationships(of: destination).first(where: { $0.name == inverseName }) else {
            report(.relationshipInverseMismatch, entity, property: relationship.name, line: line,
                   "names inverse \(destinationName).\(inverseName), which does not exist",
                   hint: "add \(inverseName) to \(destinationName) or pick another inverse")
            return
        }
        let family = Set([entity.name] + entity.superentityNames + model.hierarchy(below: entity).map(\.name))
        if let back = inverse.destinationEntity, !family.contains(back) {
            report(.relationshipInverseMismatch, entity, property: relationship.name, line: line,
                   "names inverse \(destinationName).\(inverseName), which points to \(back), not \(entity.name)",
                   hint: "make the two relationships point at each other's entities")
        } else if let backName = inverse.inverseName, backName != relationship.name {
            report(.relationshipInverseMismatch, entity, property: relationship.name, line: line,
                   "names inverse \(destinationName).\(inverseName), whose own inverse is \(backName)",
                   hint: "make the two relationships name each other as inverses")
        } else if inverse.inverseName == nil {
            report(.relationshipInverseMismatch, entity, property: relationship.name, line: line,
                   "names inverse \(destinationName).\(inverseName), which names no inverse",
                   hint: "set the inverse on \(destinationName).\(inverseName) too")
        }
    }
}
