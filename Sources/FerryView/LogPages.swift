import FerryJSON
import FerryStore

/// Logs in time order, a table row each: when, what (linked to its recipe or project while that
/// exists), rating, outcome, what it was made with (its snapshot, marked where Ferry
/// reconstructed it) and the note. The one section as large as the data: rows are written
/// straight from SQLite's column bytes into the page.
struct LogPages {
    private static let query = """
        SELECT l.id, l.started_at, l.title, l.kind, l.rating, l.outcome, l.note, l.recipe_id, l.project_id, l.source_app,
               s.title, s.parameters, s.is_reconstructed, s.reconstructed_fields, l.duration_seconds
        FROM log l LEFT JOIN log_snapshot s ON s.log_id = l.id
        ORDER BY l.started_at, l.id
        """

    /// Logs per app, counted on the way for the overview.
    private(set) var apps: [String: Int] = [:]
    private(set) var count = 0

    mutating func render(places: RecordPlaces, perPage: Int, session: SnapshotSession, write: @escaping (String, [UInt8]) throws -> Void) throws {
        let total = try session.count("SELECT count(*) FROM log")
        var pages = SectionPages(.logs, total: total, perPage: perPage, write: write)
        let withParts = try OwnedParts.exist(for: .log, session: session)
        var html = HTMLBuffer()
        var page = 0
        var onPage = 0
        var first = ""
        var last = ""
        // Where each row's last cell ends, to add the parts cell when logs have parts.
        var rowEnds: [(id: String, end: Int)] = []
        var lastApp: [UInt8] = []
        var lastAppCount = 0

        func finishPage() throws {
            html.raw("</tbody></table>\n")
            if withParts { try addParts(to: &html, rows: rowEnds, places: places, session: session) }
            try pages.finish(html, page: page, first: first, last: last)
        }

        try session.select(Self.query) { row in
            if onPage == pages.perPage {
                try finishPage()
                onPage = 0
            }
            if onPage == 0 {
                page += 1
                html = pages.start(page: page)
                html.raw("<table class=\"logs\"><thead><tr><th scope=\"col\">Started</th><th scope=\"col\">Log</th><th scope=\"col\">Rating</th><th scope=\"col\">Outcome</th><th scope=\"col\">Made with</th><th scope=\"col\">Note</th>")
                if withParts { html.raw("<th scope=\"col\">Tags, materials, attachments</th>") }
                html.raw("</tr></thead><tbody>\n")
                rowEnds.removeAll(keepingCapacity: true)
                first = row.text(1) ?? "(no time)"
            }
            onPage += 1
            count += 1
            let id = row.text(0) ?? ""
            html.raw("<tr id=\"")
            html.text(RecordPlaces.anchor(id))
            html.raw("\"><td>")
            cell(row, 1, into: &html)
            html.raw("<td>")
            let title = row.text(2) ?? "(untitled)"
            let target = row.text(7).flatMap { places.recipe($0) } ?? row.text(8).flatMap { places.project($0) }
            RecordHTML.link(target, title, into: &html)
            if let kind = row.text(3) {
                html.raw(" <span class=\"kind\">")
                html.text(kind)
                html.raw("</span>")
            }
            html.raw("<td>")
            cell(row, 4, into: &html)
            html.raw("<td>")
            cell(row, 5, into: &html)
            html.raw("<td>")
            madeWith(row, title: title, into: &html)
            html.raw("<td>")
            cell(row, 6, into: &html)
            if withParts { rowEnds.append((id, html.count)) }
            html.raw("\n")
            last = row.text(1) ?? "(no time)"
            // Logs come app by app more often than not: count runs, not every row in a dictionary.
            _ = row.withBytes(9) { app in
                if app.elementsEqual(lastApp) {
                    lastAppCount += 1
                } else {
                    if lastAppCount > 0 { apps[String(decoding: lastApp, as: UTF8.self), default: 0] += lastAppCount }
                    lastApp = Array(app)
                    lastAppCount = 1
                }
            }
        }
        if lastAppCount > 0 { apps[String(decoding: lastApp, as: UTF8.self), default: 0] += lastAppCount }
        if onPage > 0 { try finishPage() }
        try pages.writeContents(describing: "logs")
    }

    private func cell(_ row: SnapshotRow, _ column: Int, into html: inout HTMLBuffer) {
        if row.withBytes(column, { html.text(utf8: $0) }) == nil, let value = row.text(column) { html.text(value) }
    }

    /// The snapshot: its title where it differs from the log's, each parameter as "name value
    /// unit", and which fields were filled in from the record as it was at conversion.
    private func madeWith(_ row: SnapshotRow, title: String, into html: inout HTMLBuffer) {
        if let snapshotTitle = row.text(10), snapshotTitle != title {
            html.text(snapshotTitle)
            html.raw(": ")
        }
        _ = row.withBytes(11) { bytes in
            guard let parameters = try? JSONReader().read(bytes).object else { return html.text(utf8: bytes) }
            for (index, member) in parameters.enumerated() {
                if index > 0 { html.raw(", ") }
                html.text(member.key)
                html.raw(" ")
                if let text = member.value["text"]?.string {
                    html.text(text)
                } else if let number = member.value["value"]?.number {
                    html.text(number.text)
                    if let unit = member.value["unit"]?.string {
                        html.raw(" ")
                        html.text(unit)
                    }
                } else {
                    html.text(JSONWriter.string(member.value))
                }
            }
        }
        if row.integer(12) == 1 {
            html.raw(" <em class=\"reconstructed\">(reconstructed")
            if let fields = row.withBytes(13, { try? JSONReader().read($0).array }) ?? nil, !fields.isEmpty {
                html.raw(": ")
                html.text(fields.compactMap(\.string).joined(separator: ", "))
            }
            html.raw(")</em>")
        }
    }

    /// The page's logs' tags, materials and attachments, each in a last cell of its row.
    private func addParts(to html: inout HTMLBuffer, rows: [(id: String, end: Int)], places: RecordPlaces, session: SnapshotSession) throws {
        let parts = try OwnedParts(of: .log, ids: rows.map(\.id), session: session)
        var result = HTMLBuffer(capacity: html.count + rows.count * 16)
        var copied = 0
        let bytes = html.bytes
        for (id, end) in rows {
            result.appendBytes(bytes[copied..<end])
            copied = end
            result.raw("<td>")
            PartsHTML.names(parts.tags[id], label: "Tags", into: &result)
            PartsHTML.names(parts.techniques[id], label: "Techniques", into: &result)
            if let materials = parts.materials[id] { PartsHTML.materials(materials, places: places, heading: false, into: &result) }
            for attachment in parts.attachments[id] ?? [] {
                result.raw("<p>")
                PartsHTML.attachment(attachment, owner: "log", into: &result)
                result.raw("</p>")
            }
        }
        result.appendBytes(bytes[copied...])
        html = result
    }
}
