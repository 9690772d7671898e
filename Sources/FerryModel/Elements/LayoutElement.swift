/// Where Xcode's graph editor draws an entity: an `<element>` of the model's `<elements>`.
/// Written by Xcode versions before 14; kept so that nothing the file says is lost.
public struct LayoutElement: Sendable, Hashable, Encodable {
    public var name: String
    public var positionX: Double?
    public var positionY: Double?
    public var width: Double?
    public var height: Double?
}

extension LayoutElement {
    init(xml node: XMLNode, in location: ModelLocation) throws(ModelError) {
        var reader = NodeReader(node, at: location)
        name = reader.string("name") ?? ""
        positionX = try reader.number("positionX")
        positionY = try reader.number("positionY")
        width = try reader.number("width")
        height = try reader.number("height")
    }
}
