/// CloudKit's rules for a mirrored Core Data model: NSPersistentCloudKitContainer refuses to
/// load a store whose model breaks any of them.
extension LintContext {
    mutating func checkCloudKit() {
        for entity in model.entities where cloudKitEntities.contains(entity.name) {
            if !entity.uniquenessConstraints.isEmpty {
                let list = entity.uniquenessConstraints.map { "(\($0.joined(separator: ", ")))" }.joined(separator: ", ")
                report(.cloudKitUniquenessConstraint, entity, "has uniqueness constraints \(list)",
                       hint: "remove the constraints and de-duplicate in code after CloudKit imports")
            }
            for attribute in entity.attributes where attribute.isStored {
                checkCloudKit(attribute, of: entity)
            }
            for relationship in entity.relationships where !relationship.isTransient {
                checkCloudKit(relationship, of: entity)
            }
        }
    }

    private mutating func checkCloudKit(_ attribute: AttributeDescription, of entity: EntityDescription) {
        if attribute.type == .undefined || attribute.type == .objectID {
            report(.cloudKitUnsupportedAttributeType, entity, property: attribute.name, line: attribute.line,
                   "is of type \(attribute.type.rawValue), which CloudKit cannot store",
                   hint: "make it transient or give it a storable type")
        }
        if !attribute.isOptional && !attribute.hasDefault && !attribute.isDerived {
            report(.cloudKitRequiredAttribute, entity, property: attribute.name, line: attribute.line,
                   "is required and has no default value",
                   hint: "mark it optional or give it a default value")
        }
    }

    private mutating func checkCloudKit(_ relationship: RelationshipDescription, of entity: EntityDescription) {
        let line = relationship.line
        if !relationship.isOptional {
            report(.cloudKitRequiredRelationship, entity, property: relationship.name, line: line,
                   "is required", hint: "mark the relationship optional")
        }
        if relationship.inverseName == nil {
            report(.cloudKitMissingInverse, entity, property: relationship.name, line: line,
                   "has no inverse", hint: "add an inverse relationship on \(relationship.destinationEntity ?? "the destination")")
        }
        if relationship.deletionRule == .deny {
            report(.cloudKitDenyDeleteRule, entity, property: relationship.name, line: line,
                   "uses the Deny delete rule", hint: "use Nullify or Cascade and enforce the rule in code")
        }
        if relationship.isOrdered {
            report(.cloudKitOrderedRelationship, entity, property: relationship.name, line: line,
                   "is ordered", hint: "make it unordered and store an order index attribute on the destination")
        }
        if let destination = relationship.destinationEntity, let shared = sharedConfiguration(entity.name, destination),
           !shared {
            report(.cloudKitCrossConfigurationRelationship, entity, property: relationship.name, line: line,
                   "points to \(destination), which is in no configuration with \(entity.name)",
                   hint: "put both entities in the same configuration, or link them by an identifier attribute")
        }
    }

    /// Nil when the model has no explicit configurations for the source entity, else whether
    /// some configuration holds both entities.
    private func sharedConfiguration(_ source: String, _ destination: String) -> Bool? {
        let holding = model.configurations.filter { $0.memberEntities.contains(source) }
        guard !holding.isEmpty else { return nil }
        return holding.contains { $0.memberEntities.contains(destination) }
    }
}
