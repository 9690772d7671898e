/// Checks that the model hangs together: names are unique, everything named exists.
extension LintContext {
    mutating func checkStructure() {
        checkDuplicateEntityNames()
        checkModelReferences()
        for entity in model.entities {
            checkInheritance(of: entity)
            checkDuplicateProperties(of: entity)
            checkIndexes(of: entity)
            for attribute in entity.attributes {
                if attribute.type == .undefined && !attribute.isTransient {
                    report(.undefinedAttributeNotTransient, entity, property: attribute.name, line: attribute.line,
                           "has no type (Undefined) but is stored", hint: "give it a type or mark it transient")
                }
                checkComposite(attribute, of: entity)
            }
        }
    }

    private mutating func checkDuplicateEntityNames() {
        for (name, lines) in duplicates(model.entities.map { ($0.name, $0.line) }) {
            report(.duplicateName, at: name, line: lines.last, "entity name \(name) is used \(lines.count) times",
                   hint: "rename one of the entities")
        }
        for (name, lines) in duplicates(model.configurations.map { ($0.name, $0.line) }) {
            report(.duplicateName, at: "configuration \(name)", line: lines.last,
                   "configuration name \(name) is used \(lines.count) times", hint: "rename one of the configurations")
        }
        for (name, lines) in duplicates(model.composites.map { ($0.name, $0.line) }) {
            report(.duplicateName, at: "composite \(name)", line: lines.last,
                   "composite name \(name) is used \(lines.count) times", hint: "rename one of the composites")
        }
    }

    private mutating func checkDuplicateProperties(of entity: EntityDescription) {
        let own = entity.attributes.map { ($0.name, $0.line) } + entity.relationships.map { ($0.name, $0.line) }
            + entity.fetchedProperties.map { ($0.name, $0.line) }
        for (name, lines) in duplicates(own) {
            report(.duplicateName, entity, property: name, line: lines.last,
                   "property name \(name) is declared \(lines.count) times", hint: "rename one of the properties")
        }
        for ancestorName in entity.superentityNames {
            guard let ancestor = model.entity(named: ancestorName) else { continue }
            let inherited = Set(ancestor.ownPropertyNames)
            for (name, line) in own where inherited.contains(name) {
                report(.duplicateName, entity, property: name, line: line,
                       "redeclares property \(name) inherited from \(ancestorName)",
                       hint: "remove it here or rename it; sub-entities inherit their parent's properties")
            }
        }
    }

    private mutating func checkInheritance(of entity: EntityDescription) {
        guard let parent = entity.parentName else { return }
        if model.entity(named: parent) == nil {
            report(.missingParentEntity, entity, "has parent entity \(parent), which does not exist",
                   hint: "choose an existing parent entity or none")
        } else if let top = entity.superentityNames.last, let topEntity = model.entity(named: top),
                  topEntity.parentName.map({ model.entity(named: $0) != nil }) ?? false {
            // The chain stopped at a known entity that still has a parent: it loops.
            report(.inheritanceCycle, entity, "inherits from itself through \(entity.superentityNames.joined(separator: " → "))",
                   hint: "break the cycle by changing one parent entity")
        }
    }

    private mutating func checkIndexes(of entity: EntityDescription) {
        let names = model.allPropertyNames(of: entity)
        for index in entity.fetchIndexes {
            for property in index.propertyNames where !names.contains(property) {
                report(.indexMissingProperty, entity, line: index.line,
                       "fetch index \(index.name) names property \(property), which \(entity.name) does not have",
                       hint: "remove the element from the index or add the property")
            }
        }
        for compound in entity.compoundIndexes {
            for property in compound where !names.contains(property) {
                report(.indexMissingProperty, entity,
                       "compound index (\(compound.joined(separator: ", "))) names property \(property), which \(entity.name) does not have",
                       hint: "remove the property from the compound index or add it to the entity")
            }
        }
        for constraint in entity.uniquenessConstraints {
            for property in constraint where !names.contains(property) {
                report(.uniquenessMissingProperty, entity,
                       "uniqueness constraint (\(constraint.joined(separator: ", "))) names property \(property), which \(entity.name) does not have",
                       hint: "remove the property from the constraint or add it to the entity")
            }
        }
    }

    private mutating func checkComposite(_ attribute: AttributeDescription, of entity: EntityDescription) {
        guard attribute.type == .composite else { return }
        guard let name = attribute.compositeName else {
            report(.missingComposite, entity, property: attribute.name, line: attribute.line,
                   "is Composite but names no composite", hint: "choose a composite in the model editor")
            return
        }
        if !model.composites.contains(where: { $0.name == name }) {
            report(.missingComposite, entity, property: attribute.name, line: attribute.line,
                   "names composite \(name), which does not exist", hint: "define the composite or choose another one")
        }
    }

    private mutating func checkModelReferences() {
        let entityNames = Set(model.entities.map(\.name))
        for request in model.fetchRequests {
            if let target = request.entity, !entityNames.contains(target) {
                report(.missingEntityReference, at: "fetch request \(request.name)", line: request.line,
                       "fetches entity \(target), which does not exist", hint: "choose an existing entity")
            }
        }
        for entity in model.entities {
            for property in entity.fetchedProperties {
                if let target = property.fetchRequest?.entity, !entityNames.contains(target) {
                    report(.missingEntityReference, entity, property: property.name, line: property.line,
                           "fetches entity \(target), which does not exist", hint: "choose an existing entity")
                }
            }
        }
        for configuration in model.configurations {
            for member in configuration.memberEntities where !entityNames.contains(member) {
                report(.missingEntityReference, at: "configuration \(configuration.name)", line: configuration.line,
                       "lists entity \(member), which does not exist", hint: "remove it from the configuration")
            }
        }
    }

    /// Names that occur more than once, with the lines of their occurrences, in first-seen order.
    private func duplicates(_ items: [(String, Int)]) -> [(String, [Int])] {
        var lines: [String: [Int]] = [:]
        var order: [String] = []
        for (name, line) in items {
            if lines[name] == nil { order.append(name) }
            lines[name, default: []].append(line)
        }
        return order.compactMap { name in lines[name]!.count > 1 ? (name, lines[name]!) : nil }
    }
}
