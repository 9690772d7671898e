/// A `<fetchRequest>` template of the model, or the request inside a fetched property.
public struct FetchRequestDescription: Sendable, Hashable, Encodable {
    public var name: String
    /// The entity the request fetches; nil only in a broken file.
    public var entity: String?
    public var predicate: String?
    /// The remaining settings verbatim (`fetchLimit`, `resultType`, `includeSubentities`, …).
    public var settings: [String: String]
    public var line: Int

    enum CodingKeys: String, CodingKey { case name, entity, predicate, settings }

    public init(name: String, entity: String?, predicate: String?, settings: [String: String]) {
        self.name = name
        self.entity = entity
        self.predicate = predicate
        self.settings = settings
        line = 0
    }
}

extension FetchRequestDescription {
    private enum XML {
        static let name = "name", entity = "entity", predicate = "predicateString"
    }

    init(xml node: XMLNode, in location: ModelLocation) throws(ModelError) {
        var reader = NodeReader(node, at: location)
        name = reader.string(XML.name) ?? ""
        reader.location.element = "fetch request \"\(name)\""
        entity = reader.nonEmptyString(XML.entity)
        predicate = reader.nonEmptyString(XML.predicate)
        settings = reader.remaining
        line = node.line
    }
}
