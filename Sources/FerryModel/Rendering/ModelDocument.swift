import FerryJSON

/// The JSON document `ferry inspect --format json` prints for a model.
/// Its schema is `Formats/json/inspect-model.schema.json`.
public struct ModelDocument: Sendable, Encodable {
    public struct Source: Sendable, Encodable {
        public var path: String
        public var layout: ModelBundle.Layout
        public var versions: [ModelVersion]
        /// The version this document describes.
        public var version: String
        public var currentVersion: String
        public var currentVersionSource: ModelBundle.CurrentVersionSource
        public var declaredCurrentVersion: String?
    }

    public var format = "ferry.model/1"
    public var source: Source
    /// The `<model>` element's XML attributes, verbatim.
    public var model: [String: String]
    public var usedWithCloudKit: Bool
    public var versionIdentifier: String?
    public var entities: [EntityDescription]
    /// Each entity's Core Data version hash, computed from the XML (64 lower-case hex digits).
    public var versionHashes: [String: String]
    public var fetchRequests: [FetchRequestDescription]
    public var configurations: [ConfigurationDescription]
    public var composites: [CompositeDescription]
    public var layout: [LayoutElement]
    public var unknownElements: [RawXMLElement]
    public var warnings: [ModelWarning]

    /// - Parameter entityName: limits `entities` to that one entity.
    public init(bundle: ModelBundle, model: DataModel, version: ModelVersion, entityName: String? = nil) {
        source = Source(path: bundle.path, layout: bundle.layout, versions: bundle.versions, version: version.name,
                        currentVersion: bundle.currentVersion.name, currentVersionSource: bundle.currentVersionSource,
                        declaredCurrentVersion: bundle.declaredCurrentVersionName)
        self.model = model.attributes
        usedWithCloudKit = model.usedWithCloudKit
        versionIdentifier = model.versionIdentifier
        entities = model.entities.filter { entityName == nil || $0.name == entityName }
        versionHashes = EntityVersionHash.hashes(of: model).mapValues { Hex.lowercase($0) }
        fetchRequests = model.fetchRequests
        configurations = model.configurations
        composites = model.composites
        layout = model.layout
        unknownElements = model.unknownElements
        warnings = bundle.warnings
    }

    enum CodingKeys: String, CodingKey {
        case format, source, model, usedWithCloudKit, versionIdentifier, entities, fetchRequests
        case configurations, composites, layout, unknownElements, warnings
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(format, forKey: .format)
        try container.encode(source, forKey: .source)
        try container.encode(model, forKey: .model)
        try container.encode(usedWithCloudKit, forKey: .usedWithCloudKit)
        // Always present, null when the model declares none.
        try container.encode(versionIdentifier, forKey: .versionIdentifier)
        try container.encode(entities.map { Entry(entity: $0, versionHash: versionHashes[$0.name] ?? "") }, forKey: .entities)
        try container.encode(fetchRequests, forKey: .fetchRequests)
        try container.encode(configurations, forKey: .configurations)
        try container.encode(composites, forKey: .composites)
        try container.encode(layout, forKey: .layout)
        try container.encode(unknownElements, forKey: .unknownElements)
        try container.encode(warnings, forKey: .warnings)
    }
}

extension ModelDocument {
    /// An entity as the document shows it: its description, then its version hash.
    struct Entry: Encodable {
        var entity: EntityDescription
        var versionHash: String

        enum CodingKeys: String, CodingKey { case versionHash }

        func encode(to encoder: any Encoder) throws {
            try entity.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(versionHash, forKey: .versionHash)
        }
    }
}
