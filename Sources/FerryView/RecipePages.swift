import FerryStore

/// Recipes in title order, each with its parameters, steps, tags, materials, images and links.
struct RecipePages {
    static let columns = """
        id, title, kind, method, category, summary, instructions, origin, is_starter, source_url, author, difficulty, servings,
        prep_minutes, cook_minutes, estimated_minutes, usage_count, last_used_at, is_favorite, is_archived, is_valid,
        source_app, source_entity, source_key, source_file, created_at, modified_at, deleted_at, extras
        """
    private static let labels: [(Int, String)] = [
        (3, "Method"), (4, "Category"), (7, "Origin"), (8, "Starter"), (9, "Source"), (10, "Author"), (11, "Difficulty"),
        (12, "Servings"), (13, "Preparation (minutes)"), (14, "Cooking (minutes)"), (15, "Estimated (minutes)"),
        (16, "Times used"), (17, "Last used"), (18, "Favourite"), (19, "Archived"), (20, "Valid"),
        (25, "Created"), (26, "Modified"), (27, "Deleted"),
    ]
    private static let flags: Set<Int> = [8, 18, 19, 20]

    /// Every recipe's id and title, in the order the pages show them.
    static func order(_ session: FrozenStoreSession) throws -> [(id: String, title: String)] {
        var result: [(String, String)] = []
        try session.select("SELECT id, title FROM recipe ORDER BY title COLLATE NOCASE, title, id") { row in
            result.append((row.text(0) ?? "", row.text(1) ?? "(untitled)"))
        }
        return result
    }

    static func render(_ order: [(id: String, title: String)], places: RecordPlaces, perPage: Int, session: FrozenStoreSession,
                       write: @escaping (String, [UInt8]) throws -> Void) throws {
        var pages = SectionPages(.recipes, total: order.count, perPage: perPage, write: write)
        for (index, start) in stride(from: 0, to: order.count, by: pages.perPage).enumerated() {
            let ids = order[start..<min(order.count, start + pages.perPage)].map(\.id)
            let arguments = [RecordPlaces.jsonArray(ids)]
            let page = OwnedParts.inPage
            let rows = try OwnedParts.records(session, "recipe", columns: columns, ids: ids)
            let parameters = try OwnedParts.grouped(session, "SELECT recipe_id, name, value, text_value, unit FROM recipe_parameter WHERE recipe_id \(page) ORDER BY recipe_id, position, name", arguments)
            let steps = try OwnedParts.grouped(session, "SELECT recipe_id, id, title, instruction, kind, duration_seconds, water_grams, estimated_minutes FROM recipe_step WHERE recipe_id \(page) ORDER BY recipe_id, position, id", arguments)
            let parts = try OwnedParts(of: .recipe, ids: ids, session: session)
            let stepParts = try OwnedParts(of: .recipeStep, ids: steps.values.flatMap { $0.compactMap { $0[0] } }, session: session)

            var html = pages.start(page: index + 1)
            for id in ids {
                guard let row = rows[id] else { continue }
                let title = row[1] ?? "(untitled)"
                RecordHTML.open(id: id, title: title, kind: row[2], into: &html)
                RecordHTML.source(app: row[21], entity: row[22], file: row[24], key: row[23], into: &html)
                RecordHTML.prose(row[5], into: &html)
                let extras = RecordExtras(row[28])
                RecordHTML.fields(row, labels, flags: flags, codes: [7], madeUp: extras.madeUp(created: 25), into: &html)
                if let parameters = parameters[id] { Self.parameters(parameters, into: &html) }
                RecordHTML.prose(row[6], label: "Instructions", into: &html)
                if let steps = steps[id] { Self.steps(steps, parts: stepParts, places: places, into: &html) }
                PartsHTML.all(of: id, in: parts, owner: title, places: places, into: &html)
                RecordHTML.extras(extras, into: &html)
                RecordHTML.close(into: &html)
            }
            try pages.finish(&html, page: index + 1, first: order[start].title, last: order[start + ids.count - 1].title)
        }
        try pages.writeContents(describing: "recipes", titles: order.map { ($0.title, places.recipe($0.id)) })
    }

    /// name, value, text_value, unit per row.
    private static func parameters(_ rows: [[String?]], into html: inout HTMLBuffer) {
        html.raw("<h3>Parameters</h3>\n<table class=\"parameters\"><thead><tr><th scope=\"col\">Parameter</th><th scope=\"col\">Value</th><th scope=\"col\">Unit</th></tr></thead><tbody>\n")
        for row in rows {
            html.raw("<tr><th scope=\"row\">")
            html.text(ViewWords.name(row[0] ?? ""))
            html.raw("</th><td>")
            html.text(row[1] ?? row[2] ?? "")
            html.raw("</td><td>")
            html.text(row[3] ?? "")
            html.raw("</td></tr>\n")
        }
        html.raw("</tbody></table>\n")
    }

    /// id, title, instruction, kind, duration_seconds, water_grams, estimated_minutes per row.
    private static func steps(_ rows: [[String?]], parts: OwnedParts, places: RecordPlaces, into html: inout HTMLBuffer) {
        html.raw("<h3>Steps</h3>\n<ol class=\"steps\">\n")
        for row in rows {
            html.raw("<li>")
            if let title = row[1] {
                html.raw("<strong>")
                html.text(title)
                html.raw("</strong> ")
            }
            html.text(row[2] ?? "")
            let details = [row[3], row[4].map { "\($0) s" }, row[5].map { "\($0) g water" }, row[6].map { "\($0) min" }].compactMap { $0 }
            if !details.isEmpty {
                html.raw(" <span class=\"note\">(")
                html.text(details.joined(separator: ", "))
                html.raw(")</span>")
            }
            if let id = row[0], let materials = parts.materials[id] {
                PartsHTML.materials(materials, places: places, heading: false, into: &html)
            }
            html.raw("</li>\n")
        }
        html.raw("</ol>\n")
    }
}
