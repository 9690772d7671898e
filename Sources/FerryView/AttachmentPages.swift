import FerryStore

/// Every attachment by name: shown or linked when the bundle carries its bytes, with the
/// record it belongs to.
enum AttachmentPages {
    static func render(count: Int, places: RecordPlaces, logs: [String: String], perPage: Int, session: SnapshotSession,
                       write: @escaping (String, [UInt8]) throws -> Void) throws {
        var pages = SectionPages(.attachments, total: count, perPage: perPage, write: write)
        var html = HTMLBuffer()
        var onPage = 0
        var page = 0
        var first = ""
        var last = ""
        let query = """
            SELECT a.id, a.name, a.media_type, a.sha256, a.local_url, a.tag, a.byte_count,
                   EXISTS (SELECT 1 FROM attachment_content c WHERE c.sha256 = a.sha256),
                   a.recipe_id, a.project_id, a.log_id, coalesce(r.title, p.title, l.title)
            FROM attachment a LEFT JOIN recipe r ON r.id = a.recipe_id LEFT JOIN project p ON p.id = a.project_id
                 LEFT JOIN log l ON l.id = a.log_id
            ORDER BY a.name, a.id
            """
        try session.select(query) { row in
            if onPage == pages.perPage {
                html.raw("</tbody></table>\n")
                try pages.finish(&html, page: page, first: first, last: last)
                onPage = 0
            }
            let values = (0..<row.columnCount).map { row.text($0) }
            let name = values[1] ?? "(no name)"
            if onPage == 0 {
                page += 1
                html = pages.start(page: page)
                html.raw("<table class=\"attachments\"><thead><tr><th scope=\"col\">Attachment</th><th scope=\"col\">Belongs to</th></tr></thead><tbody>\n")
                first = name
            }
            onPage += 1
            last = name
            let owner = values[11] ?? "(untitled)"
            html.raw("<tr id=\"")
            html.text(RecordPlaces.anchor(values[0] ?? ""))
            html.raw("\"><td>")
            PartsHTML.attachment(values, owner: owner, into: &html)
            html.raw("</td><td>")
            if let recipe = values[8] {
                html.raw("Recipe ")
                RecordHTML.link(places.recipe(recipe), owner, into: &html)
            } else if let project = values[9] {
                html.raw("Project ")
                RecordHTML.link(places.project(project), owner, into: &html)
            } else if let log = values[10] {
                html.raw("Log ")
                RecordHTML.link(logs[log], owner, into: &html)
            }
            html.raw("</td></tr>\n")
        }
        if onPage > 0 {
            html.raw("</tbody></table>\n")
            try pages.finish(&html, page: page, first: first, last: last)
        }
        try pages.writeContents(describing: "attachments")
    }
}
