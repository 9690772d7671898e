import Foundation

/// A Graphviz `dot` graph of the model: an HTML-table node per entity, an edge per
/// relationship pair (crow's foot for to-many), dashed edges from sub-entity to parent.
public struct DOTRenderer: Sendable {
    public init() {}

    public func render(_ model: DataModel, entityName: String? = nil) -> String {
        let shown = Diagram.entities(of: model, focus: entityName)
        var lines = [
            "digraph \(quote(model.versionName ?? "model")) {",
            "    graph [rankdir=LR, fontname=\"Helvetica\"];",
            "    node [shape=plaintext, fontname=\"Helvetica\"];",
            "    edge [fontname=\"Helvetica\", fontsize=10];",
        ]
        for entity in shown {
            lines.append("    \(quote(entity.name)) [label=<\(table(entity))>];")
        }
        let names = Set(shown.map(\.name))
        for edge in Diagram.edges(of: model) where names.contains(edge.source) && names.contains(edge.destination) {
            let label = [edge.name, edge.inverseName].compactMap { $0 }.joined(separator: " / ")
            let head = edge.relationship.isToMany ? "crow" : "tee"
            let tail = edge.inverse.map { $0.isToMany ? "crow" : "tee" } ?? "none"
            lines.append("    \(quote(edge.source)) -> \(quote(edge.destination)) [label=\(quote(label)), dir=both, arrowhead=\(head), arrowtail=\(tail)];")
        }
        for entity in shown {
            if let parent = entity.parentName, names.contains(parent) {
                lines.append("    \(quote(entity.name)) -> \(quote(parent)) [style=dashed, arrowhead=empty];")
            }
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    private func table(_ entity: EntityDescription) -> String {
        let title = entity.isAbstract ? "<I>\(html(entity.name))</I>" : html(entity.name)
        var rows = ["<TR><TD BGCOLOR=\"#dddddd\"><B>\(title)</B></TD></TR>"]
        for attribute in entity.attributes {
            let type = attribute.type == .composite ? (attribute.compositeName ?? "Composite") : attribute.type.rawValue
            let mark = attribute.isOptional ? "?" : ""
            rows.append("<TR><TD ALIGN=\"LEFT\">\(html(attribute.name)): \(html(type))\(mark)</TD></TR>")
        }
        return "<TABLE BORDER=\"0\" CELLBORDER=\"1\" CELLSPACING=\"0\" CELLPADDING=\"4\">" + rows.joined() + "</TABLE>"
    }

    private func quote(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    private func html(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
