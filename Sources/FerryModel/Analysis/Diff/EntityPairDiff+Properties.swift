import Foundation

/// Attribute and relationship rules of lightweight migration: what it infers and what not.
extension EntityPairDiff {
    mutating func added(_ attribute: AttributeDescription, in entity: EntityDescription, possibleRenameOf oldName: String?) {
        let name = attribute.name
        if attribute.isTransient {
            add(.attributeAdded, name, "transient attribute added", .noStoreEffect, "transient attributes are not stored")
        } else if let oldName {
            add(.attributeAdded, name, "attribute added (\(attribute.type.rawValue))", .mappingModel,
                "looks like \(oldName) renamed without a renaming identifier: lightweight migration would drop \(oldName)'s values; set the renaming ID of \(name) to \"\(oldName)\"")
        } else if attribute.hasDefault {
            // The inferred mapping inserts each migrated object as new, so it takes the default,
            // optional or not.
            add(.attributeAdded, name, "attribute added (\(attribute.type.rawValue))", .lightweight,
                "existing rows get the default value, \(attribute.defaultValue ?? attribute.defaultDateTimeInterval ?? "")")
        } else if attribute.isOptional || attribute.isDerived {
            add(.attributeAdded, name, "attribute added (\(attribute.type.rawValue))", .lightweight,
                attribute.isDerived ? "derived: computed from other values" : "optional without a default: existing rows get nil")
        } else if movedWithinHierarchy(name) {
            add(.attributeAdded, name, "attribute added (\(attribute.type.rawValue))", .lightweight,
                "moved within the entity hierarchy")
        } else {
            add(.attributeAdded, name, "required attribute added without a default (\(attribute.type.rawValue))", .mappingModel,
                "existing rows have no value for it: make it optional, give it a default, or migrate with a mapping model")
        }
    }

    mutating func added(_ relationship: RelationshipDescription, in entity: EntityDescription, replacesAttribute: Bool = false) {
        let name = relationship.name
        let target = relationship.destinationEntity ?? "?"
        let required = !relationship.isToMany && !relationship.isOptional
        if replacesAttribute && !relationship.isTransient {
            // The same rule as any relationship added: a required to-one has no object in old rows.
            add(.relationshipAdded, name, "\(required ? "required relationship" : "relationship") added (→ \(target)), replacing attribute \(name)",
                required ? .mappingModel : .lightweight,
                required ? "existing rows have no related object, and the attribute's values are dropped: migrate with a mapping model"
                    : "inferable, but the attribute's values are dropped: move them into \(target) with code or a mapping model")
        } else if relationship.isTransient {
            add(.relationshipAdded, name, "transient relationship added", .noStoreEffect, "transient relationships are not stored")
        } else if relationship.isOptional || (relationship.isToMany && (relationship.minCount ?? 0) == 0) || movedWithinHierarchy(name) {
            add(.relationshipAdded, name, "relationship added (→ \(target))", .lightweight, "existing rows start with no related objects")
        } else {
            add(.relationshipAdded, name, "required relationship added (→ \(target))", .mappingModel,
                "existing rows have no related object: make it optional or migrate with a mapping model")
        }
    }

    mutating func compare(_ old: AttributeDescription, _ new: AttributeDescription) {
        let name = new.name
        if old.name != new.name {
            add(.attributeRenamed, name, "renamed from \(old.name)", .lightweight, "matched by renaming identifier")
        }
        if old.isTransient != new.isTransient {
            if new.isTransient {
                add(.attributeChanged, name, "made transient", .lightweight, "its column is dropped")
            } else {
                added(new, in: newModel.entity(named: entity)!, possibleRenameOf: nil)
            }
            return
        }
        guard new.isStored else { return }
        if old.type != new.type {
            add(.attributeChanged, name, "type: \(old.type.rawValue) → \(new.type.rawValue)", .mappingModel,
                "lightweight migration cannot change an attribute's type")
        } else if old.compositeName != new.compositeName {
            add(.attributeChanged, name, "composite: \(old.compositeName ?? "none") → \(new.compositeName ?? "none")",
                .mappingModel, "a different composite is a different type")
        }
        if old.isOptional && !new.isOptional {
            if new.hasDefault {
                add(.attributeChanged, name, "made required, with default \(new.defaultValue ?? new.defaultDateTimeInterval ?? "")",
                    .lightweight, "rows without a value get the default")
            } else {
                add(.attributeChanged, name, "made required without a default", .mappingModel,
                    "rows without a value fail validation: give it a default or migrate with a mapping model")
            }
        } else if !old.isOptional && new.isOptional {
            add(.attributeChanged, name, "made optional", .lightweight, "relaxes a constraint")
        }
        compareStorageSettings(old, new)
        compareValueSettings(old, new)
    }

    private mutating func compareStorageSettings(_ old: AttributeDescription, _ new: AttributeDescription) {
        let settings: [(String, String, String)] = [
            ("derived", "\(old.isDerived) \(old.derivationExpression ?? "")", "\(new.isDerived) \(new.derivationExpression ?? "")"),
            ("indexed", "\(old.isIndexed)", "\(new.isIndexed)"),
            ("spotlight indexing", "\(old.isIndexedBySpotlight)", "\(new.isIndexedBySpotlight)"),
            ("stored in external record", "\(old.isStoredInExternalRecord)", "\(new.isStoredInExternalRecord)"),
            ("external binary storage", "\(old.allowsExternalBinaryDataStorage)", "\(new.allowsExternalBinaryDataStorage)"),
            ("cloud encryption", "\(old.allowsCloudEncryption)", "\(new.allowsCloudEncryption)"),
            ("version hash modifier", old.versionHashModifier ?? "none", new.versionHashModifier ?? "none"),
        ]
        for (label, before, after) in settings where before != after {
            add(.attributeChanged, new.name, "\(label): \(before.trimmed) → \(after.trimmed)", .lightweight,
                "changes how the value is stored or indexed; inferable")
        }
    }

    private mutating func compareValueSettings(_ old: AttributeDescription, _ new: AttributeDescription) {
        let settings: [(String, String?, String?, String)] = [
            ("default", old.defaultValue ?? old.defaultDateTimeInterval, new.defaultValue ?? new.defaultDateTimeInterval,
             "defaults apply to new objects only"),
            ("minimum", old.minValue ?? old.minDateTimeInterval, new.minValue ?? new.minDateTimeInterval, "validation only"),
            ("maximum", old.maxValue ?? old.maxDateTimeInterval, new.maxValue ?? new.maxDateTimeInterval, "validation only"),
            ("regular expression", old.regularExpression, new.regularExpression, "validation only"),
            ("value transformer", old.valueTransformerName, new.valueTransformerName,
             "the stored bytes stay; the new transformer must decode them"),
            ("custom class", old.customClassName, new.customClassName, "the stored bytes stay; they must decode as the new class"),
            ("scalar type", old.usesScalarValueType.map { "\($0)" }, new.usesScalarValueType.map { "\($0)" }, "code generation only"),
        ]
        for (label, before, after, reason) in settings where before != after {
            add(.attributeChanged, new.name, "\(label): \(before ?? "none") → \(after ?? "none")", .noStoreEffect, reason)
        }
        if old.userInfo != new.userInfo {
            add(.attributeChanged, new.name, "userInfo changed", .noStoreEffect, "userInfo is not stored")
        }
    }

    mutating func compare(_ old: RelationshipDescription, _ new: RelationshipDescription) {
        let name = new.name
        if old.name != new.name {
            add(.relationshipRenamed, name, "renamed from \(old.name)", .lightweight, "matched by renaming identifier")
        }
        guard !new.isTransient else { return }
        let oldDestination = old.destinationEntity.map { newNameForOld[$0] ?? $0 }
        if oldDestination != new.destinationEntity {
            add(.relationshipChanged, name, "destination: \(old.destinationEntity ?? "none") → \(new.destinationEntity ?? "none")",
                .mappingModel, "lightweight migration cannot retarget a relationship to another entity")
        }
        if old.isToMany != new.isToMany {
            add(.relationshipChanged, name, old.isToMany ? "to-many → to-one" : "to-one → to-many", .lightweight,
                old.isToMany ? "inferable; objects beyond the first lose the link" : "inferable")
        }
        if old.isOrdered != new.isOrdered {
            add(.relationshipChanged, name, "ordered: \(old.isOrdered) → \(new.isOrdered)", .lightweight, "inferable")
        }
        if old.isOptional && !new.isOptional && !new.isToMany {
            add(.relationshipChanged, name, "made required", .mappingModel,
                "rows without a related object fail validation; a relationship cannot have a default")
        } else if old.isOptional != new.isOptional {
            add(.relationshipChanged, name, "optional: \(old.isOptional) → \(new.isOptional)", .lightweight, "inferable")
        }
        if old.inverseName != new.inverseName {
            add(.relationshipChanged, name, "inverse: \(old.inverseName ?? "none") → \(new.inverseName ?? "none")", .lightweight, "inferable")
        }
        if old.versionHashModifier != new.versionHashModifier || old.isIndexed != new.isIndexed {
            add(.relationshipChanged, name, "hash modifier or index changed", .lightweight, "inferable")
        }
        if old.deletionRule != new.deletionRule {
            add(.relationshipChanged, name, "delete rule: \(old.deletionRule.rawValue) → \(new.deletionRule.rawValue)",
                .noStoreEffect, "delete rules act at run time")
        }
        if (old.minCount, old.maxCount) != (new.minCount, new.maxCount) && old.isToMany == new.isToMany {
            add(.relationshipChanged, name, "count: \(Self.range(old)) → \(Self.range(new))", .noStoreEffect, "validation only")
        }
    }

    private static func range(_ relationship: RelationshipDescription) -> String {
        "\(relationship.minCount.map(String.init) ?? "0")…\(relationship.maxCount.map(String.init) ?? "∞")"
    }
}

private extension String {
    var trimmed: String { trimmingCharacters(in: .whitespaces) }
}
