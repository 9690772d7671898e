import FerryFormats
import FerryJSON
import FerryStore

/// Recipes in title order, each with its parameters, steps, tags, materials, images and links.
struct RecipePages {
    private typealias Column = RecipeTable
    static let columns = Selection([
        Column.id, Column.title, Column.kind, Column.method, Column.category, Column.summary, Column.instructions, Column.origin,
        Column.isStarter, Column.sourceURL, Column.author, Column.difficulty, Column.servings, Column.prepMinutes, Column.cookMinutes,
        Column.estimatedMinutes, Column.usageCount, Column.lastUsedAt, Column.isFavorite, Column.isArchived, Column.isValid,
        Column.sourceApp, Column.sourceEntity, Column.sourceKey, Column.sourceFile, Column.createdAt, Column.modifiedAt,
        Column.deletedAt, Column.extras,
    ])
    private static let labels: [(CanonicalColumn, String)] = [
        (Column.method, "Method"), (Column.category, "Category"), (Column.origin, "Origin"), (Column.isStarter, "Starter"),
        (Column.sourceURL, "Source"), (Column.author, "Author"), (Column.difficulty, "Difficulty"), (Column.servings, "Servings"),
        (Column.prepMinutes, "Preparation (minutes)"), (Column.cookMinutes, "Cooking (minutes)"),
        (Column.estimatedMinutes, "Estimated (minutes)"), (Column.usageCount, "Times used"), (Column.lastUsedAt, "Last used"),
        (Column.isFavorite, "Favourite"), (Column.isArchived, "Archived"), (Column.isValid, "Valid"),
        (Column.createdAt, "Created"), (Column.modifiedAt, "Modified"), (Column.deletedAt, "Deleted"),
    ]
    private static let flags: Set<CanonicalColumn> = [Column.isStarter, Column.isFavorite, Column.isArchived, Column.isValid]
    private static let parameterColumns = Selection([
        RecipeParameterTable.recipeID, RecipeParameterTable.name, RecipeParameterTable.value, RecipeParameterTable.textValue,
        RecipeParameterTable.unit,
    ])
    private static let stepColumns = Selection([
        RecipeStepTable.recipeID, RecipeStepTable.id, RecipeStepTable.title, RecipeStepTable.instruction, RecipeStepTable.kind,
        RecipeStepTable.durationSeconds, RecipeStepTable.waterGrams, RecipeStepTable.estimatedMinutes,
    ])

    /// Every recipe's id and title, in the order the pages show them.
    static func order(_ session: FrozenStoreSession) throws -> [(id: String, title: String)] {
        var result: [(String, String)] = []
        try session.select("SELECT \(Column.id), \(Column.title) FROM \(Column.table) ORDER BY \(Column.title) COLLATE NOCASE, \(Column.title), \(Column.id)") { row in
            result.append((row.text(0) ?? "", row.text(1) ?? "(untitled)"))
        }
        return result
    }

    static func render(_ order: [(id: String, title: String)], places: RecordPlaces, perPage: Int, formats: Set<ExportFormat>,
                       session: FrozenStoreSession, write: @escaping (String, [UInt8]) throws -> Void) throws {
        var pages = SectionPages(.recipes, total: order.count, perPage: perPage, write: write)
        for (index, start) in stride(from: 0, to: order.count, by: pages.perPage).enumerated() {
            let ids = order[start..<min(order.count, start + pages.perPage)].map(\.id)
            let arguments = [OwnedParts.idList(ids)]
            let page = OwnedParts.inPage
            let rows = try OwnedParts.records(session, RecipeTable.table, columns: columns, ids: ids)
            let parameters = try OwnedParts.grouped(session, parameterColumns, from: RecipeParameterTable.table, page: page, arguments,
                                                    order: "\(RecipeParameterTable.position), \(RecipeParameterTable.name)")
            let steps = try OwnedParts.grouped(session, stepColumns, from: RecipeStepTable.table, page: page, arguments,
                                               order: "\(RecipeStepTable.position), \(RecipeStepTable.id)")
            let parts = try OwnedParts(of: .recipe, ids: ids, session: session)
            let stepParts = try OwnedParts(of: .recipeStep, ids: steps.values.flatMap { $0.compactMap { $0[RecipeStepTable.id] } }, session: session)
            let records = Dictionary(try RecipeRecords.batch(ids, session: session, parts: parts).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })

            var html = pages.start(page: index + 1)
            for id in ids {
                guard let row = rows[id] else { continue }
                let title = row[Column.title] ?? "(untitled)"
                RecordHTML.open(id: id, title: title, kind: row[Column.kind], into: &html)
                RecordHTML.source(row, app: Column.sourceApp, entity: Column.sourceEntity, file: Column.sourceFile, key: Column.sourceKey, into: &html)
                RecordHTML.prose(row[Column.summary], into: &html)
                let extras = RecordExtras(row[Column.extras])
                RecordHTML.fields(row, labels, flags: flags, codes: [Column.origin], madeUp: extras.madeUp, into: &html)
                if let parameters = parameters[id] { Self.parameters(parameters, into: &html) }
                RecordHTML.prose(row[Column.instructions], label: "Instructions", into: &html)
                if let steps = steps[id] { Self.steps(steps, parts: stepParts, places: places, into: &html) }
                PartsHTML.all(of: id, in: parts, owner: title, places: places, into: &html)
                RecordHTML.extras(extras, into: &html)
                // A recipe deleted in its app is shown, but not offered to another app.
                if let record = records[id], record[RecipeTable.deletedAt] == nil { Self.linkedData(record, formats: formats, into: &html) }
                RecordHTML.close(into: &html)
            }
            try pages.finish(&html, page: index + 1, first: order[start].title, last: order[start + ids.count - 1].title)
        }
        try pages.writeContents(describing: "recipes", titles: order.map { ($0.title, places.recipe($0.id)) })
    }

    /// The recipe as schema.org JSON-LD inside its section, so that a recipe manager's "import
    /// from a web page" finds it in an unpacked bundle, and links to its files in other formats.
    private static func linkedData(_ recipe: RecipeRecord, formats: Set<ExportFormat>, into html: inout HTMLBuffer) {
        let node = SchemaOrgRecipe.node(recipe, imageURL: { image in
            guard image.hasBytes, let sha = image.sha256, RecordPlaces.isSHA256(sha) else { return nil }
            return ViewLayout.attachmentsFromPages + sha
        }, withContext: true)
        html.raw("<script type=\"application/ld+json\">")
        html.trusted(Self.scriptSafe(JSONWriter.string(.object(node), sortedKeys: false)))
        html.raw("</script>\n")
        let links = [(ExportFormat.schemaOrg, "\(ExportFormat.schemaOrg.folder)/\(recipe.id).jsonld", "schema.org JSON-LD"),
                     (ExportFormat.paprika, "\(ExportFormat.paprika.folder)/recipes.paprikarecipes", "Paprika (every recipe)")]
            .filter { formats.contains($0.0) }
        guard !links.isEmpty else { return }
        html.raw("<p class=\"formats\">For other apps: ")
        for (index, link) in links.enumerated() {
            if index > 0 { html.raw(" · ") }
            html.raw("<a href=\"../data/formats/")
            html.text(link.1)
            html.raw("\">")
            html.trusted(link.2)
            html.raw("</a>")
        }
        html.raw("</p>\n")
    }

    /// JSON that cannot end the script element holding it: `<`, `>` and `&` as escapes (they
    /// occur only inside JSON strings, where `\u003c` means the same).
    static func scriptSafe(_ json: String) -> String {
        var safe = ""
        safe.reserveCapacity(json.utf8.count)
        for scalar in json.unicodeScalars {
            switch scalar {
            case "<": safe += "\\u003c"
            case ">": safe += "\\u003e"
            case "&": safe += "\\u0026"
            default: safe.unicodeScalars.append(scalar)
            }
        }
        return safe
    }

    private static func parameters(_ rows: [TextRow], into html: inout HTMLBuffer) {
        html.raw("<h3>Parameters</h3>\n<table class=\"parameters\"><thead><tr><th scope=\"col\">Parameter</th><th scope=\"col\">Value</th><th scope=\"col\">Unit</th></tr></thead><tbody>\n")
        for row in rows {
            html.raw("<tr><th scope=\"row\">")
            html.text(ViewWords.name(row[RecipeParameterTable.name] ?? ""))
            html.raw("</th><td>")
            html.text(row[RecipeParameterTable.value] ?? row[RecipeParameterTable.textValue] ?? "")
            html.raw("</td><td>")
            html.text(row[RecipeParameterTable.unit] ?? "")
            html.raw("</td></tr>\n")
        }
        html.raw("</tbody></table>\n")
    }

    private static func steps(_ rows: [TextRow], parts: OwnedParts, places: RecordPlaces, into html: inout HTMLBuffer) {
        typealias Step = RecipeStepTable
        html.raw("<h3>Steps</h3>\n<ol class=\"steps\">\n")
        for row in rows {
            html.raw("<li>")
            if let title = row[Step.title] {
                html.raw("<strong>")
                html.text(title)
                html.raw("</strong> ")
            }
            html.text(row[Step.instruction] ?? "")
            let details = [row[Step.kind], row[Step.durationSeconds].map { "\($0) s" }, row[Step.waterGrams].map { "\($0) g water" },
                           row[Step.estimatedMinutes].map { "\($0) min" }].compactMap { $0 }
            if !details.isEmpty {
                html.raw(" <span class=\"note\">(")
                html.text(details.joined(separator: ", "))
                html.raw(")</span>")
            }
            if let id = row[Step.id], let materials = parts.materials[id] {
                PartsHTML.materials(materials, places: places, heading: false, into: &html)
            }
            html.raw("</li>\n")
        }
        html.raw("</ol>\n")
    }
}
