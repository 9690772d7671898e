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
        try session.select("SELECT id, parent_id, title, position FROM project") { row in
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

    static let columns = """
        id, parent_id, recipe_id, title, kind, code, category, status, position, start_at, end_at, due_at, due_time_minutes,
        estimated_minutes, min_block_minutes, max_block_minutes, difficulty, importance, is_locked, recurrence,
        grade_weight_percent, grade_possible, grade_earned, grade_percent, grade_letter, notes, is_archived, completed_at,
        source_app, source_entity, source_key, source_file, created_at, modified_at, deleted_at, extras
        """
    private static let labels: [(Int, String)] = [
        (5, "Code"), (6, "Category"), (7, "Status"), (9, "Starts"), (10, "Ends"), (11, "Due"), (12, "Due time (minutes after midnight)"),
        (13, "Estimated (minutes)"), (14, "Shortest block (minutes)"), (15, "Longest block (minutes)"), (16, "Difficulty"),
        (17, "Importance"), (18, "Locked"), (19, "Repeats"), (20, "Grade weight (%)"), (21, "Points possible"), (22, "Points earned"),
        (23, "Grade (%)"), (24, "Grade"), (26, "Archived"), (27, "Completed"), (32, "Created"), (33, "Modified"), (34, "Deleted"),
    ]
    private static let flags: Set<Int> = [18, 26]

    static func render(_ tree: Tree, places: RecordPlaces, perPage: Int, session: FrozenStoreSession,
                       write: @escaping (String, [UInt8]) throws -> Void) throws {
        var pages = SectionPages(.projects, total: tree.order.count, perPage: perPage, write: write)
        let order = tree.order
        for (index, start) in stride(from: 0, to: order.count, by: pages.perPage).enumerated() {
            let ids = Array(order[start..<min(order.count, start + pages.perPage)])
            let arguments = [RecordPlaces.jsonArray(ids)]
            let page = OwnedParts.inPage
            let rows = try OwnedParts.records(session, "project", columns: columns, ids: ids)
            let steps = try OwnedParts.grouped(session, "SELECT project_id, id, title, kind, estimated_minutes, start_at, due_at, is_completed, completed_at, notes FROM project_step WHERE project_id \(page) ORDER BY project_id, position, id", arguments)
            let parts = try OwnedParts(of: .project, ids: ids, session: session)
            let stepParts = try OwnedParts(of: .projectStep, ids: steps.values.flatMap { $0.compactMap { $0[0] } }, session: session)

            var html = pages.start(page: index + 1)
            for id in ids {
                guard let row = rows[id] else { continue }
                let title = row[3] ?? "(untitled)"
                RecordHTML.open(id: id, title: title, kind: row[4], into: &html)
                placement(of: id, recipe: row[2], tree: tree, places: places, into: &html)
                RecordHTML.source(app: row[28], entity: row[29], file: row[31], key: row[30], into: &html)
                let extras = RecordExtras(row[35])
                RecordHTML.fields(row, labels, flags: flags, codes: [7], madeUp: extras.madeUp(created: 32), into: &html)
                RecordHTML.prose(row[25], label: "Notes", into: &html)
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

    /// id, title, kind, estimated_minutes, start_at, due_at, is_completed, completed_at, notes per row.
    private static func steps(_ rows: [[String?]], parts: OwnedParts, places: RecordPlaces, into html: inout HTMLBuffer) {
        html.raw("<h3>Steps</h3>\n<table class=\"steps\"><thead><tr><th scope=\"col\">Step</th><th scope=\"col\">Kind</th><th scope=\"col\">Estimated (minutes)</th><th scope=\"col\">Starts</th><th scope=\"col\">Due</th><th scope=\"col\">Done</th><th scope=\"col\">Notes</th></tr></thead><tbody>\n")
        for row in rows {
            html.raw("<tr><td>")
            html.text(row[1] ?? "")
            for column in 2...5 {
                html.raw("</td><td>")
                html.text(row[column] ?? "")
            }
            html.raw("</td><td>")
            html.text(row[6] == "1" ? (row[7] ?? "yes") : "")
            html.raw("</td><td>")
            html.text(row[8] ?? "")
            if let id = row[0], let materials = parts.materials[id] {
                PartsHTML.materials(materials, places: places, heading: false, into: &html)
            }
            html.raw("</td></tr>\n")
        }
        html.raw("</tbody></table>\n")
    }
}
