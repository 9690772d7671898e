/// A `<fetchIndex>` of an entity (Xcode 9 and later): an ordered list of indexed properties
/// or expressions.
public struct FetchIndexDescription: Sendable, Hashable, Encodable {
    public struct Element: Sendable, Hashable, Encodable {
        /// The indexed property; nil when the element indexes an expression.
        public var property: String?
        public var expression: String?
        /// `Binary` (B-tree) or `RTree`.
        public var type: String
        /// `ascending` or `descending`.
        public var order: String
        public var otherAttributes: [String: String]

        public init(property: String?, expression: String? = nil, type: String = "Binary", order: String = "ascending",
                    otherAttributes: [String: String] = [:]) {
            self.property = property
            self.expression = expression
            self.type = type
            self.order = order
            self.otherAttributes = otherAttributes
        }
    }

    public var name: String
    public var elements: [Element]
    public var line: Int
    /// A partial index's condition; only compiled models hold one.
    public var partialIndexPredicate: IndexPredicate?

    enum CodingKeys: String, CodingKey { case name, elements }

    public init(name: String, elements: [Element], line: Int = 0, partialIndexPredicate: IndexPredicate? = nil) {
        self.name = name
        self.elements = elements
        self.line = line
        self.partialIndexPredicate = partialIndexPredicate
    }

    /// The properties the index names, in order.
    public var propertyNames: [String] { elements.compactMap(\.property) }
}

extension FetchIndexDescription {
    init(xml node: XMLNode, in location: ModelLocation) throws(ModelError) {
        var reader = NodeReader(node, at: location)
        name = reader.string("name") ?? ""
        reader.location.element = "fetch index \"\(name)\""
        let here = reader.location
        elements = node.children(named: "fetchIndexElement").map { child in
            var element = NodeReader(child, at: here)
            return Element(property: element.nonEmptyString("property"),
                           expression: element.nonEmptyString("expression"),
                           type: element.string("type") ?? "Binary",
                           order: element.string("order") ?? "ascending",
                           otherAttributes: element.remaining)
        }
        line = node.line
    }
}
