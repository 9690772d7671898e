import FerryFormats
import FerryStore

/// Projects in their nesting: each parent before its children, siblings by position then
/// title; each with where it sits, what it follows, its steps, materials and other parts.
struct ProjectPages {
    struct Node {
        var id: String
        var parent: String?
        var title: String
        var position: Int64?
    }

    /// The tree of projects and their order, depth first.
    struct Tree {
        var nodes: [String: Node] = [:]
        var children: [String: [String]] = [:]
        var order: [String] = []

        /// The titles from the root down to the parent of `id`; a cycle stops the walk.
        func ancestors(of id: String) -> [Node] {
            var result: [Node] = []
            var seen: Set<String> = [id]
            var current = nodes[id]?.parent
            while let parent = current, let node = nodes[parent], seen.insert(parent).inserted {
                result.append(node)
                current = node.parent
            }
            return result.reversed()
        }
    }

    static func tree(_ session: FrozenStoreSession) throws -> Tree {
        var tree = Tree()
        try session.select("SELECT \(Column.id), \(Column.parentID), \(Column.title), \(Column.position) FROM \(Column.table)") { row in
            let node = Node(id: row.text(0) ?? "", parent: row.text(1), title: row.text(2) ?? "(untitled)", position: row.integer(3))
            tree.nodes[node.id] = node
        }
        let sorted = tree.nodes.values.sorted { a, b in
            if a.position != b.position { return (a.position ?? .max) < (b.position ?? .max) }
            if a.title != b.title { return a.title.lowercased() == b.title.lowercased() ? a.title < b.title : a.title.lowercased() < b.title.lowercased() }
            return a.id < b.id
        }
        var roots: [String] = []
        for node in sorted {
            if let parent = node.parent, tree.nodes[parent] != nil { tree.children[parent, default: []].append(node.id) } else { roots.append(node.id) }
        }
        // Depth first, by hand: a nesting as deep as the data is recurses nowhere. Records in a
        // parent cycle are reached from no root; they follow, each as a root of its own.
        var visited: Set<String> = []
        for start in roots + sorted.map(\.id) where !visited.contains(start) {
            var stack = [start]
            while let id = stack.popLast() {
                guard visited.insert(id).inserted else { continue }
                tree.order.append(id)
                stack.append(contentsOf: (tree.children[id] ?? []).reversed())
            }
        }
        return tree
    }

    private typealias Column = ProjectTable
    static let columns = Selection([
        Column.id, Column.parentID, Column.recipeID, Column.title, Column.kind, Column.code, Column.category, Column.status,
        Column.position, Column.startAt, Column.endAt, Column.dueAt, Column.dueTimeMinutes, Column.estimatedMinutes,
        Column.minBlockMinutes, Column.maxBlockMinutes, Column.difficulty, Column.importance, Column.isLocked, Column.recurrence,
        Column.gradeWeightPercent, Column.gradePossible, Column.gradeEarned, Column.gradePercent, Column.gradeLetter, Column.notes,
        Column.isArchived, Column.completedAt, Column.sourceApp, Column.sourceEntity, Column.sourceKey, Column.sourceFile,
        Column.createdAt, Column.modifiedAt, Column.deletedAt, Column.extras,
    ])
    private static let labels: [(CanonicalColumn, String)] = [
        (Column.code, "Code"), (Column.category, "Category"), (Column.status, "Status"), (Column.startAt, "Starts"),
        (Column.endAt, "Ends"), (Column.dueAt, "Due"), (Column.dueTimeMinutes, "Due time (minutes after midnight)"),
        (Column.estimatedMinutes, "Estimated (minutes)"), (Column.minBlockMinutes, "Shortest block (minutes)"),
        (Column.maxBlockMinutes, "Longest block (minutes)"), (Column.difficulty, "Difficulty"), (Column.importance, "Importance"),
        (Column.isLocked, "Locked"), (Column.recurrence, "Repeats"), (Column.gradeWeightPercent, "Grade weight (%)"),
        (Column.gradePossible, "Points possible"), (Column.gradeEarned, "Points earned"), (Column.gradePercent, "Grade (%)"),
        (Column.gradeLetter, "Grade"), (Column.isArchived, "Archived"), (Column.completedAt, "Completed"),
        (Column.createdAt, "Created"), (Column.modifiedAt, "Modified"), (Column.deletedAt, "Deleted"),
    ]
    private static let flags: Set<CanonicalColumn> = [Column.isLocked, Column.isArchived]
    private typealias Step = ProjectStepTable
    private static let stepColumns = Selection([
        Step.projectID, Step.id, Step.title, Step.kind, Step.estimatedMinutes, Step.startAt, Step.dueAt, Step.isCompleted,
        Step.completedAt, Step.notes,
    ])

    static func render(_ tree: Tree, places: RecordPlaces, perPage: Int, session: FrozenStoreSession,
                       write: @escaping (String, [UInt8]) throws -> Void) throws {
        var pages = SectionPages(.projects, total: tree.order.count, perPage: perPage, write: write)
        let order = tree.order
        for (index, start) in stride(from: 0, to: order.count, by: pages.perPage).enumerated() {
            let ids = Array(order[start..<min(order.count, start + pages.perPage)])
            let arguments = [OwnedParts.idList(ids)]
            let page = OwnedParts.inPage
            let rows = try OwnedParts.records(session, Column.table, columns: columns, ids: ids)
            let steps = try OwnedParts.grouped(session, stepColumns, from: Step.table, page: page, arguments, order: "\(Step.position), \(Step.id)")
            let parts = try OwnedParts(of: .project, ids: ids, session: session)
            let stepParts = try OwnedParts(of: .projectStep, ids: steps.values.flatMap { $0.compactMap { $0[Step.id] } }, session: session)

            var html = pages.start(page: index + 1)
            for id in ids {
                guard let row = rows[id] else { continue }
                let title = row[Column.title] ?? "(untitled)"
                RecordHTML.open(id: id, title: title, kind: row[Column.kind], into: &html)
                placement(of: id, recipe: row[Column.recipeID], tree: tree, places: places, into: &html)
                RecordHTML.source(row, app: Column.sourceApp, entity: Column.sourceEntity, file: Column.sourceFile, key: Column.sourceKey, into: &html)
                let extras = RecordExtras(row[Column.extras])
                RecordHTML.fields(row, labels, flags: flags, codes: [Column.status], madeUp: extras.madeUp, into: &html)
                RecordHTML.prose(row[Column.notes], label: "Notes", into: &html)
                if let steps = steps[id] { Self.steps(steps, parts: stepParts, places: places, into: &html) }
                PartsHTML.all(of: id, in: parts, owner: title, places: places, into: &html)
                children(of: id, tree: tree, places: places, into: &html)
                RecordHTML.extras(extras, into: &html)
                RecordHTML.close(into: &html)
            }
            try pages.finish(&html, page: index + 1, first: tree.nodes[ids[0]]?.title ?? "", last: tree.nodes[ids[ids.count - 1]]?.title ?? "")
        }
        try pages.writeContents(describing: "projects", titles: tree.order.map { (tree.nodes[$0]?.title ?? "(untitled)", places.project($0)) })
    }

    /// "In Fall 2025 › Calculus", and the recipe the project follows.
    private static func placement(of id: String, recipe: String?, tree: Tree, places: RecordPlaces, into html: inout HTMLBuffer) {
        let ancestors = tree.ancestors(of: id)
        if !ancestors.isEmpty {
            html.raw("<p class=\"path\">In ")
            for (index, node) in ancestors.enumerated() {
                if index > 0 { html.raw(" › ") }
                RecordHTML.link(places.project(node.id), node.title, into: &html)
            }
            html.raw("</p>\n")
        }
        if let recipe {
            html.raw("<p>Follows the recipe ")
            RecordHTML.link(places.recipe(recipe), places.recipeTitles[recipe] ?? "\(recipe) (not in this bundle)", into: &html)
            html.raw("</p>\n")
        }
    }

    private static func children(of id: String, tree: Tree, places: RecordPlaces, into html: inout HTMLBuffer) {
        guard let children = tree.children[id], !children.isEmpty else { return }
        html.raw("<h3>Contains</h3>\n<ul class=\"children\">\n")
        for child in children {
            html.raw("<li>")
            RecordHTML.link(places.project(child), tree.nodes[child]?.title ?? child, into: &html)
            html.raw("</li>\n")
        }
        html.raw("</ul>\n")
    }

    private static func steps(_ rows: [TextRow], parts: OwnedParts, places: RecordPlaces, into html: inout HTMLBuffer) {
        html.raw("<h3>Steps</h3>\n<table class=\"steps\"><thead><tr><th scope=\"col\">Step</th><th scope=\"col\">Kind</th><th scope=\"col\">Estimated (minutes)</th><th scope=\"col\">Starts</th><th scope=\"col\">Due</th><th scope=\"col\">Done</th><th scope=\"col\">Notes</th></tr></thead><tbody>\n")
        for row in rows {
            html.raw("<tr><td>")
            html.text(row[Step.title] ?? "")
            for column in [Step.kind, Step.estimatedMinutes, Step.startAt, Step.dueAt] {
                html.raw("</td><td>")
                html.text(row[column] ?? "")
            }
            html.raw("</td><td>")
            html.text(row[Step.isCompleted] == "1" ? (row[Step.completedAt] ?? "yes") : "")
            html.raw("</td><td>")
            html.text(row[Step.notes] ?? "")
            if let id = row[Step.id], let materials = parts.materials[id] {
                PartsHTML.materials(materials, places: places, heading: false, into: &html)
            }
            html.raw("</td></tr>\n")
        }
        html.raw("</tbody></table>\n")
    }
}
