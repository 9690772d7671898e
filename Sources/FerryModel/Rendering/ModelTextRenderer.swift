import FerryJSON

/// The human-readable `ferry inspect` output: a header, then a table per entity.
public struct ModelTextRenderer: Sendable {
    /// Show each entity's version hash under its heading.
    public var showsVersionHashes: Bool

    public init(showsVersionHashes: Bool = false) {
        self.showsVersionHashes = showsVersionHashes
    }

    public func render(_ model: DataModel, bundle: ModelBundle, version: ModelVersion, entityName: String? = nil) -> String {
        var lines = header(model, bundle: bundle, version: version)
        let hashes = showsVersionHashes ? EntityVersionHash.hashes(of: model) : [:]
        for entity in model.entities where entityName == nil || entity.name == entityName {
            lines.append("")
            var table = render(entity, in: model)
            if let hash = hashes[entity.name] { table.insert("  version hash \(Hex.lowercase(hash))", at: 1) }
            lines += table
        }
        if entityName == nil {
            lines += modelLevelSections(model)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func header(_ model: DataModel, bundle: ModelBundle, version: ModelVersion) -> [String] {
        var title = bundle.path
        if bundle.layout == .bundle || (bundle.layout == .compiled && bundle.versions.count > 1) {
            let source = bundle.layout == .compiled && bundle.currentVersionSource == .declared
                ? "from VersionInfo.plist" : describe(bundle.currentVersionSource)
            let role = version == bundle.currentVersion ? "current, \(source)" : "not current"
            title += " — version \"\(version.name)\" (\(role); \(bundle.versions.count) versions: \(bundle.versions.map(\.name).joined(separator: ", ")))"
        }
        let attributeCount = model.entities.reduce(0) { $0 + $1.attributes.count }
        let relationshipCount = model.entities.reduce(0) { $0 + $1.relationships.count }
        var facts = ["\(model.entities.count) entities", "\(attributeCount) attributes", "\(relationshipCount) relationships"]
        if let language = model.attributes["sourceLanguage"] { facts.append(language) }
        if let identifier = model.versionIdentifier { facts.append("identifier \"\(identifier)\"") }
        if model.usedWithCloudKit { facts.append("used with CloudKit") }
        if model.usedWithSwiftData { facts.append("used with SwiftData") }
        if let tools = model.attributes["lastSavedToolsVersion"] { facts.append("saved by Xcode build \(tools)") }
        return [title, facts.joined(separator: " · ")]
    }

    private func describe(_ source: ModelBundle.CurrentVersionSource) -> String {
        switch source {
        case .declared: return "from .xccurrentversion"
        case .onlyVersion: return "only version"
        case .newestByName: return "newest by name; .xccurrentversion gave none"
        }
    }

    func render(_ entity: EntityDescription, in model: DataModel) -> [String] {
        var heading = "Entity \(entity.name)"
        if let parent = entity.parentName { heading += " : \(parent)" }
        var notes: [String] = []
        if entity.isAbstract { notes.append("abstract") }
        if let className = entity.representedClassName, className != entity.name { notes.append("class \(className)") }
        if let codegen = entity.codeGenerationType { notes.append("codegen \(codegen)") }
        if let id = entity.renamingIdentifier { notes.append("renaming ID \(id)") }
        if let modifier = entity.versionHashModifier { notes.append("hash modifier \(modifier)") }
        if !entity.subentityNames.isEmpty { notes.append("subentities \(entity.subentityNames.joined(separator: ", "))") }
        if entity.rootEntityName != entity.name { notes.append("stored in Z\(entity.rootEntityName.uppercased())") }
        var lines = [notes.isEmpty ? heading : "\(heading)  (\(notes.joined(separator: "; ")))"]
        if !entity.inheritedAttributeNames.isEmpty || !entity.inheritedRelationshipNames.isEmpty {
            lines.append("  inherits: " + (entity.inheritedAttributeNames + entity.inheritedRelationshipNames).joined(separator: ", "))
        }
        var table = TextTable()
        for attribute in entity.attributes {
            table.add(attribute.name, attribute.type == .composite ? "Composite \(attribute.compositeName ?? "?")" : attribute.type.rawValue,
                      flags(attribute).joined(separator: ", "))
        }
        for relationship in entity.relationships {
            let arrow = (relationship.isToMany ? "→> " : "→ ") + (relationship.destinationEntity ?? "?")
            table.add(relationship.name, arrow, flags(relationship).joined(separator: ", "))
        }
        for fetched in entity.fetchedProperties {
            let request = fetched.fetchRequest
            let predicate = request?.predicate.map { " where \($0)" } ?? ""
            table.add(fetched.name, "fetched", "\(request?.entity ?? "?")\(predicate)")
        }
        lines += table.isEmpty ? ["  (no properties)"] : table.render()
        for index in entity.fetchIndexes {
            let parts = index.elements.map { "\($0.property ?? $0.expression ?? "?") \($0.order == "descending" ? "↓" : "↑")" }
            lines.append("  index \(index.name): \(parts.joined(separator: ", "))")
        }
        for index in entity.compoundIndexes {
            lines.append("  compound index: \(index.joined(separator: ", "))")
        }
        for constraint in entity.uniquenessConstraints {
            lines.append("  unique: \(constraint.joined(separator: ", "))")
        }
        if !entity.userInfo.isEmpty {
            lines.append("  userInfo: " + entity.userInfo.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", "))
        }
        return lines
    }

    private func flags(_ attribute: AttributeDescription) -> [String] {
        var flags: [String] = [attribute.isOptional ? "optional" : "required"]
        if attribute.isTransient { flags.append("transient") }
        if attribute.isDerived { flags.append("derived" + (attribute.derivationExpression.map { " = \($0)" } ?? "")) }
        if attribute.isIndexed { flags.append("indexed") }
        if let value = attribute.defaultValue ?? attribute.defaultDateTimeInterval { flags.append("default \(value)") }
        if attribute.minValue != nil || attribute.maxValue != nil {
            flags.append("range \(attribute.minValue ?? "")…\(attribute.maxValue ?? "")")
        }
        if let transformer = attribute.valueTransformerName { flags.append("transformer \(transformer)") }
        if let className = attribute.customClassName { flags.append("class \(className)") }
        if attribute.allowsExternalBinaryDataStorage { flags.append("external storage") }
        if attribute.allowsCloudEncryption { flags.append("cloud encrypted") }
        if attribute.isIndexedBySpotlight { flags.append("spotlight") }
        if let id = attribute.renamingIdentifier { flags.append("renaming ID \(id)") }
        return flags
    }

    private func flags(_ relationship: RelationshipDescription) -> [String] {
        var flags: [String] = [relationship.isOptional ? "optional" : "required"]
        if relationship.isToMany { flags.append(relationship.isOrdered ? "to-many ordered" : "to-many") }
        if relationship.isTransient { flags.append("transient") }
        flags.append(relationship.inverseName.map { "inverse \($0)" } ?? "no inverse")
        flags.append(relationship.deletionRule.rawValue.lowercased())
        if let id = relationship.renamingIdentifier { flags.append("renaming ID \(id)") }
        return flags
    }

    private func modelLevelSections(_ model: DataModel) -> [String] {
        var lines: [String] = []
        if !model.configurations.isEmpty {
            lines.append("")
            lines.append("Configurations")
            for configuration in model.configurations {
                let cloud = configuration.usedWithCloudKit ? " (CloudKit)" : ""
                lines.append("  \(configuration.name)\(cloud): \(configuration.memberEntities.joined(separator: ", "))")
            }
        }
        if !model.fetchRequests.isEmpty {
            lines.append("")
            lines.append("Fetch requests")
            for request in model.fetchRequests {
                lines.append("  \(request.name): \(request.entity ?? "?")" + (request.predicate.map { " where \($0)" } ?? ""))
            }
        }
        if !model.composites.isEmpty {
            lines.append("")
            lines.append("Composites")
            for composite in model.composites {
                lines.append("  \(composite.name): " + composite.attributes.map { "\($0.name) \($0.type.rawValue)" }.joined(separator: ", "))
            }
        }
        return lines
    }
}
