import Foundation

/// A Mermaid `erDiagram` of the model: entities with their attributes, one line per
/// relationship pair, and dotted lines from parent to sub-entity.
public struct MermaidRenderer: Sendable {
    public init() {}

    public func render(_ model: DataModel, entityName: String? = nil) -> String {
        let shown = Diagram.entities(of: model, focus: entityName)
        var lines = ["erDiagram"]
        for entity in shown {
            lines.append("    \(identifier(entity.name)) {")
            for attribute in entity.attributes {
                var line = "        \(identifier(typeName(attribute))) \(identifier(attribute.name))"
                let notes = [attribute.isOptional ? "optional" : nil, attribute.isTransient ? "transient" : nil].compactMap { $0 }
                if !notes.isEmpty { line += " \"\(notes.joined(separator: ", "))\"" }
                lines.append(line)
            }
            lines.append("    }")
        }
        let names = Set(shown.map(\.name))
        for edge in Diagram.edges(of: model) where names.contains(edge.source) || names.contains(edge.destination) {
            let label = [edge.name, edge.inverseName].compactMap { $0 }.joined(separator: " / ")
            let left = edge.inverse.map { $0.isToMany ? "}o" : ($0.isOptional ? "|o" : "||") } ?? "}o"
            let right = edge.relationship.isToMany ? (edge.relationship.isOptional ? "o{" : "|{")
                : (edge.relationship.isOptional ? "o|" : "||")
            lines.append("    \(identifier(edge.source)) \(left)--\(right) \(identifier(edge.destination)) : \"\(escape(label))\"")
        }
        for entity in shown {
            if let parent = entity.parentName, model.entity(named: parent) != nil {
                lines.append("    \(identifier(parent)) ||..o| \(identifier(entity.name)) : \"parent of\"")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func typeName(_ attribute: AttributeDescription) -> String {
        attribute.type == .composite ? (attribute.compositeName ?? "Composite") : attribute.type.rawValue.replacingOccurrences(of: " ", with: "")
    }

    /// Mermaid names are `[A-Za-z_][A-Za-z0-9_-]*`; anything else becomes `_`.
    private func identifier(_ name: String) -> String {
        var result = String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") ? $0 : "_" })
        if result.first.map({ !$0.isLetter && $0 != "_" }) ?? true { result = "_" + result }
        return result
    }

    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\"", with: "'")
    }
}

/// What both diagram renderers draw: the entities in view and one edge per relationship pair.
enum Diagram {
    struct Edge {
        var source: String
        var destination: String
        var name: String
        var inverseName: String?
        var relationship: RelationshipDescription
        var inverse: RelationshipDescription?
    }

    /// All entities, or the focused one and its direct neighbours.
    static func entities(of model: DataModel, focus: String?) -> [EntityDescription] {
        guard let focus, let entity = model.entity(named: focus) else { return model.entities }
        var names: Set<String> = [focus]
        names.formUnion(entity.relationships.compactMap(\.destinationEntity))
        if let parent = entity.parentName { names.insert(parent) }
        names.formUnion(entity.subentityNames)
        for other in model.entities where other.relationships.contains(where: { $0.destinationEntity == focus }) {
            names.insert(other.name)
        }
        return model.entities.filter { names.contains($0.name) }
    }

    /// One edge per relationship, with its inverse folded in: the side whose (entity, name) sorts first draws it.
    static func edges(of model: DataModel) -> [Edge] {
        var edges: [Edge] = []
        for entity in model.entities {
            for relationship in entity.relationships {
                guard let destination = relationship.destinationEntity, model.entity(named: destination) != nil else { continue }
                let inverse = relationship.inverseName.flatMap { name in
                    model.entity(named: destination).flatMap { model.allRelationships(of: $0).first { $0.name == name } }
                }
                if let inverse, inverse.inverseName == relationship.name,
                   (destination, inverse.name) < (entity.name, relationship.name) {
                    continue
                }
                edges.append(Edge(source: entity.name, destination: destination, name: relationship.name,
                                  inverseName: inverse?.name, relationship: relationship, inverse: inverse))
            }
        }
        return edges
    }
}
