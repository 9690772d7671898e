/// One parsed model version: the `<model>` of a `contents` file, with its inheritance resolved.
///
/// For example:
/// ```swift
/// let model = try ModelBundle(at: "Model.xcdatamodeld").currentModel()
/// for entity in model.entities { print(entity.name, model.allAttributes(of: entity).count) }
/// ```
public struct DataModel: Sendable, Hashable {
    /// The file's path as the user named it, followed by the path inside a bundle.
    public var file: String
    /// The version's name (`Model 2`), or nil for a lone `contents` file outside a bundle.
    public var versionName: String?
    /// The `<model>` element's XML attributes, verbatim.
    public var attributes: [String: String]
    public var entities: [EntityDescription]
    public var fetchRequests: [FetchRequestDescription] = []
    public var configurations: [ConfigurationDescription] = []
    public var composites: [CompositeDescription] = []
    public var layout: [LayoutElement] = []
    public var unknownElements: [RawXMLElement] = []

    private var indexByName: [String: Int] = [:]

    /// A model built in code, from a compiled model or a store's own schema; inheritance is resolved.
    public init(file: String, versionName: String?, entities: [EntityDescription], attributes: [String: String] = [:]) {
        self.file = file
        self.versionName = versionName
        self.attributes = attributes
        self.entities = entities
        resolveInheritance()
    }

    /// `userDefinedModelVersionIdentifier`, the "Core Data Model Identifier" stores record in
    /// `NSStoreModelVersionIdentifiers`; nil when empty.
    public var versionIdentifier: String? {
        attributes["userDefinedModelVersionIdentifier"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether the model itself says it is used with CloudKit (Xcode 11 and later).
    public var usedWithCloudKit: Bool { Self.isYes(attributes["usedWithCloudKit"]) }
    public var usedWithSwiftData: Bool { Self.isYes(attributes["usedWithSwiftData"]) }

    public func entity(named name: String) -> EntityDescription? {
        indexByName[name].map { entities[$0] }
    }

    /// Inherited attributes first (root's first), then the entity's own, as Core Data orders them.
    public func allAttributes(of entity: EntityDescription) -> [AttributeDescription] {
        entity.superentityNames.reversed().flatMap { self.entity(named: $0)?.attributes ?? [] } + entity.attributes
    }

    public func allRelationships(of entity: EntityDescription) -> [RelationshipDescription] {
        entity.superentityNames.reversed().flatMap { self.entity(named: $0)?.relationships ?? [] } + entity.relationships
    }

    /// Every property name the entity has, inherited ones included.
    public func allPropertyNames(of entity: EntityDescription) -> Set<String> {
        var names = Set(entity.ownPropertyNames)
        for ancestor in entity.superentityNames.compactMap({ self.entity(named: $0) }) {
            names.formUnion(ancestor.ownPropertyNames)
        }
        return names
    }

    /// The name of the entity that declares `property` for `entity`: itself or an ancestor.
    public func declaringEntity(of property: String, below entity: EntityDescription) -> String? {
        if entity.ownPropertyNames.contains(property) { return entity.name }
        return entity.superentityNames.first { self.entity(named: $0)?.ownPropertyNames.contains(property) ?? false }
    }

    /// The entity and all entities below it.
    public func hierarchy(below entity: EntityDescription) -> [EntityDescription] {
        var result = [entity]
        var queue = entity.subentityNames
        var seen: Set<String> = [entity.name]
        while let next = queue.first {
            queue.removeFirst()
            guard seen.insert(next).inserted, let sub = self.entity(named: next) else { continue }
            result.append(sub)
            queue.append(contentsOf: sub.subentityNames)
        }
        return result
    }

    private static func isYes(_ value: String?) -> Bool {
        guard let value = value?.lowercased() else { return false }
        return value == "yes" || value == "true" || value == "1"
    }

    private mutating func resolveInheritance() {
        indexByName = [:]
        for (index, entity) in entities.enumerated() where indexByName[entity.name] == nil {
            indexByName[entity.name] = index
        }
        var children: [String: [String]] = [:]
        for entity in entities {
            if let parent = entity.parentName { children[parent, default: []].append(entity.name) }
        }
        for index in entities.indices {
            var chain: [String] = []
            var seen: Set<String> = [entities[index].name]
            var next = entities[index].parentName
            while let parent = next, seen.insert(parent).inserted, let parentIndex = indexByName[parent] {
                chain.append(parent)
                next = entities[parentIndex].parentName
            }
            let ancestors = chain.reversed().compactMap { indexByName[$0].map { entities[$0] } }
            entities[index].superentityNames = chain
            entities[index].rootEntityName = chain.last ?? entities[index].name
            entities[index].subentityNames = children[entities[index].name] ?? []
            entities[index].inheritedAttributeNames = ancestors.flatMap { $0.attributes.map(\.name) }
            entities[index].inheritedRelationshipNames = ancestors.flatMap { $0.relationships.map(\.name) }
        }
    }
}

extension DataModel {
    /// Several models as one, as Core Data merges the models of an app and its frameworks into the
    /// one a store is made for (`NSManagedObjectModel(byMerging:)`): every entity of each, the first
    /// model's settings. The file names them all, joined by ` + `.
    /// - Throws: ``ModelError/Kind/entityInTwoModels(_:other:)`` when two models have an entity of one name.
    public init(merging models: [DataModel]) throws(ModelError) {
        guard let first = models.first else { throw ModelError(.noVersions, at: ModelLocation(file: "")) }
        var owners: [String: String] = [:]
        for model in models {
            for entity in model.entities {
                if let other = owners[entity.name] {
                    throw ModelError(.entityInTwoModels(entity.name, other: other), at: ModelLocation(file: model.file, entity: entity.name))
                }
                owners[entity.name] = model.file
            }
        }
        self.init(file: models.map(\.file).joined(separator: " + "), versionName: first.versionName,
                  entities: models.flatMap(\.entities), attributes: first.attributes)
        fetchRequests = models.flatMap(\.fetchRequests)
        configurations = models.flatMap(\.configurations)
        composites = models.flatMap(\.composites)
    }
}

extension DataModel {
    private enum XML {
        static let known: Set<String> = ["entity", "fetchRequest", "configuration", "composite", "elements"]
    }

    init(xml root: XMLNode, file: String, versionName: String?) throws(ModelError) {
        let location = ModelLocation(file: file)
        guard root.name == "model" else {
            throw ModelError(.wrongRootElement(root.name), at: ModelLocation(file: file, line: root.line))
        }
        self.init(file: file, versionName: versionName, entities: try root.children(named: "entity").map { node throws(ModelError) in
            try EntityDescription(xml: node, in: location)
        }, attributes: root.attributes)
        fetchRequests = try root.children(named: "fetchRequest").map { node throws(ModelError) in try FetchRequestDescription(xml: node, in: location) }
        configurations = try root.children(named: "configuration").map { node throws(ModelError) in
            try ConfigurationDescription(xml: node, in: location)
        }
        composites = try root.children(named: "composite").map { node throws(ModelError) in try CompositeDescription(xml: node, in: location) }
        layout = try root.children(named: "elements").flatMap { $0.children(named: "element") }
            .map { node throws(ModelError) in try LayoutElement(xml: node, in: location) }
        unknownElements = root.children.filter { !XML.known.contains($0.name) }.map(RawXMLElement.init)
    }
}
