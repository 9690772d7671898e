import FerryFormats
import FerryStore

/// Every attachment by name: shown or linked when the bundle carries its bytes, with the
/// record it belongs to.
enum AttachmentPages {
    static func render(count: Int, places: RecordPlaces, logs: [String: String], perPage: Int, session: FrozenStoreSession,
                       write: @escaping (String, [UInt8]) throws -> Void) throws {
        var table = TablePages(SectionPages(.attachments, total: count, perPage: perPage, write: write),
                               header: "<table class=\"attachments\"><thead><tr><th scope=\"col\">Attachment</th><th scope=\"col\">Belongs to</th></tr></thead><tbody>\n")
        typealias File = AttachmentTable
        let selection = OwnedParts.attachmentColumns([], [File.recipeID, File.projectID, File.logID])
        let query = """
            SELECT \(selection.list("a")), \(OwnedParts.hasContent),
                   coalesce(r.\(RecipeTable.title), p.\(ProjectTable.title), l.\(LogTable.title))
            FROM \(File.table) a LEFT JOIN \(RecipeTable.table) r ON r.\(RecipeTable.id) = a.\(File.recipeID)
                 LEFT JOIN \(ProjectTable.table) p ON p.\(ProjectTable.id) = a.\(File.projectID)
                 LEFT JOIN \(LogTable.table) l ON l.\(LogTable.id) = a.\(File.logID)
            ORDER BY a.\(File.name), a.\(File.id)
            """
        try session.select(query) { statementRow in
            let row = TextRow(values: (0..<statementRow.columnCount).map { statementRow.text($0) }, selection: selection)
            try table.beginRow(row[File.name] ?? "(no name)")
            let owner = row.computed(1) ?? "(untitled)"
            table.html.raw("<tr id=\"")
            table.html.text(RecordPlaces.anchor(row[File.id] ?? ""))
            table.html.raw("\"><td>")
            PartsHTML.attachment(row, owner: owner, into: &table.html)
            table.html.raw("</td><td>")
            if let recipe = row[File.recipeID] {
                table.html.raw("Recipe ")
                RecordHTML.link(places.recipe(recipe), owner, into: &table.html)
            } else if let project = row[File.projectID] {
                table.html.raw("Project ")
                RecordHTML.link(places.project(project), owner, into: &table.html)
            } else if let log = row[File.logID] {
                table.html.raw("Log ")
                RecordHTML.link(logs[log], owner, into: &table.html)
            }
            table.html.raw("</td></tr>\n")
        }
        try table.finish(describing: "attachments")
    }
}
