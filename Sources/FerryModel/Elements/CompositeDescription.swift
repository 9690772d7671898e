/// A `<composite>` definition (Xcode 15 and later): a named group of attributes that a
/// `Composite` attribute stores inline, flattened into columns.
public struct CompositeDescription: Sendable, Hashable, Encodable {
    public var name: String
    public var attributes: [AttributeDescription]
    public var line: Int

    enum CodingKeys: String, CodingKey { case name, attributes }
}

extension CompositeDescription {
    init(xml node: XMLNode, in location: ModelLocation) throws(ModelError) {
        var reader = NodeReader(node, at: location)
        name = try reader.required("name")
        reader.location.element = "composite \"\(name)\""
        let here = reader.location
        attributes = try node.children(named: "attribute").map { child throws(ModelError) in
            try AttributeDescription(xml: child, in: here)
        }
        line = node.line
    }
}
