import FerryStore

/// Every attachment by name: shown or linked when the bundle carries its bytes, with the
/// record it belongs to.
enum AttachmentPages {
    static func render(count: Int, places: RecordPlaces, logs: [String: String], perPage: Int, session: FrozenStoreSession,
                       write: @escaping (String, [UInt8]) throws -> Void) throws {
        var table = TablePages(SectionPages(.attachments, total: count, perPage: perPage, write: write),
                               header: "<table class=\"attachments\"><thead><tr><th scope=\"col\">Attachment</th><th scope=\"col\">Belongs to</th></tr></thead><tbody>\n")
        let query = """
            SELECT a.id, a.name, a.media_type, a.sha256, a.local_url, a.tag, a.byte_count,
                   EXISTS (SELECT 1 FROM attachment_content c WHERE c.sha256 = a.sha256),
                   a.recipe_id, a.project_id, a.log_id, coalesce(r.title, p.title, l.title)
            FROM attachment a LEFT JOIN recipe r ON r.id = a.recipe_id LEFT JOIN project p ON p.id = a.project_id
                 LEFT JOIN log l ON l.id = a.log_id
            ORDER BY a.name, a.id
            """
        try session.select(query) { row in
            let values = (0..<row.columnCount).map { row.text($0) }
            try table.beginRow(values[1] ?? "(no name)")
            let owner = values[11] ?? "(untitled)"
            table.html.raw("<tr id=\"")
            table.html.text(RecordPlaces.anchor(values[0] ?? ""))
            table.html.raw("\"><td>")
            PartsHTML.attachment(values, owner: owner, into: &table.html)
            table.html.raw("</td><td>")
            if let recipe = values[8] {
                table.html.raw("Recipe ")
                RecordHTML.link(places.recipe(recipe), owner, into: &table.html)
            } else if let project = values[9] {
                table.html.raw("Project ")
                RecordHTML.link(places.project(project), owner, into: &table.html)
            } else if let log = values[10] {
                table.html.raw("Log ")
                RecordHTML.link(logs[log], owner, into: &table.html)
            }
            table.html.raw("</td></tr>\n")
        }
        try table.finish(describing: "attachments")
    }
}
