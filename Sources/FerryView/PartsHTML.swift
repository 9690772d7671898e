/// The shared parts of a record as HTML: tags, materials, attachments and links. Headings are
/// `h3`, under the record's `h2`.
enum PartsHTML {
    /// Image types every browser shows; other attachments are linked, not shown.
    private static let shownImageTypes: Set<String> = ["image/png", "image/jpeg", "image/jpg", "image/gif", "image/webp", "image/bmp", "image/avif"]
    private static let shownImageExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "webp", "bmp", "avif"]

    static func all(of id: String, in parts: OwnedParts, owner title: String, places: RecordPlaces, into html: inout HTMLBuffer) {
        names(parts.tags[id], label: "Tags", into: &html)
        names(parts.techniques[id], label: "Techniques", into: &html)
        if let rows = parts.materials[id] { materials(rows, places: places, into: &html) }
        if let rows = parts.attachments[id] { attachments(rows, owner: title, into: &html) }
        if let rows = parts.links[id] { links(rows, into: &html) }
    }

    static func names(_ names: [String]?, label: StaticString, into html: inout HTMLBuffer) {
        guard let names, !names.isEmpty else { return }
        html.raw("<p class=\"names\">")
        html.raw(label)
        html.raw(": ")
        for (index, name) in names.enumerated() {
            if index > 0 { html.raw(", ") }
            html.raw("<span class=\"tag\">")
            html.text(name)
            html.raw("</span>")
        }
        html.raw("</p>\n")
    }

    /// Materials as a list, for a table cell: `Black Opalescent (be-0100-0): 0.5 rods, for the body`.
    /// catalog_key, description, quantity, unit, notes per row.
    static func materialList(_ rows: [[String?]], places: RecordPlaces, into html: inout HTMLBuffer) {
        html.raw("<ul class=\"materials\">\n")
        for row in rows {
            html.raw("<li>")
            if let key = row[0] {
                let name = places.catalogNames[key]
                RecordHTML.link(places.catalogItem(key), name ?? key, into: &html)
                if name != nil { html.text(key, after: " <span class=\"note\">(", before: ")</span>") }
                html.text(row[1], after: " ")
            } else {
                html.text(row[1] ?? "")
            }
            let amount = [row[2], row[3]].compactMap { $0 }.joined(separator: " ")
            if !amount.isEmpty { html.text(amount, after: ": ") }
            html.text(row[4], after: ", ")
            html.raw("</li>\n")
        }
        html.raw("</ul>\n")
    }

    /// catalog_key, description, quantity, unit, notes per row.
    static func materials(_ rows: [[String?]], places: RecordPlaces, heading: Bool = true, into html: inout HTMLBuffer) {
        if heading { html.raw("<h3>Materials</h3>\n") }
        html.raw("<table class=\"materials\"><thead><tr><th scope=\"col\">Material</th><th scope=\"col\">Quantity</th><th scope=\"col\">Unit</th><th scope=\"col\">Notes</th></tr></thead><tbody>\n")
        for row in rows {
            html.raw("<tr><td>")
            if let key = row[0] {
                let name = places.catalogNames[key]
                if let href = places.catalogItem(key) {
                    html.raw("<a href=\"")
                    html.text(href)
                    html.raw("\">")
                    html.text(name ?? key)
                    html.raw("</a>")
                } else {
                    html.text(name ?? key)
                }
                if name != nil { html.text(key, after: " <span class=\"note\">", before: "</span>") }
                if let description = row[1] {
                    html.raw(" ")
                    html.text(description)
                }
            } else {
                html.text(row[1] ?? "")
            }
            for column in 2...4 {
                html.raw("</td><td>")
                html.text(row[column] ?? "")
            }
            html.raw("</td></tr>\n")
        }
        html.raw("</tbody></table>\n")
    }

    /// id, name, media_type, sha256, local_url, tag, byte_count, has content per row.
    static func attachments(_ rows: [[String?]], owner: String, into html: inout HTMLBuffer) {
        html.raw("<h3>Attachments</h3>\n<ul class=\"attachments\">\n")
        for row in rows {
            html.raw("<li id=\"")
            html.text(RecordPlaces.anchor(row[0] ?? ""))
            html.raw("\">")
            attachment(row, owner: owner, into: &html)
            html.raw("</li>\n")
        }
        html.raw("</ul>\n")
    }

    /// One attachment: its image shown when the bundle has its bytes and a browser can show
    /// them, else a link to its file, else its name and where the app kept it, as text.
    static func attachment(_ row: [String?], owner: String, into html: inout HTMLBuffer) {
        let name = row[1] ?? "(no name)"
        guard let path = contentPath(row) else {
            html.text(name)
            html.raw(" <span class=\"note\">(not in the bundle")
            if let local = row[4] {
                html.raw("; the app kept it at ")
                html.text(local)
            }
            html.raw(")</span>")
            return
        }
        if isShownImage(row) {
            html.raw("<figure><img src=\"")
            html.trusted(path)
            html.raw("\" alt=\"")
            html.text(row[5] == "hero" ? "\(owner): hero image \(name)" : "\(owner): \(name)")
            html.raw("\" loading=\"lazy\"><figcaption>")
            html.text(name)
            html.raw("</figcaption></figure>")
        } else {
            html.raw("<a href=\"")
            html.trusted(path)
            html.raw("\">")
            html.text(name)
            html.raw("</a>")
        }
        if let type = row[2] {
            html.raw(" <span class=\"note\">")
            html.text(type)
            if let size = row[6] {
                html.raw(", ")
                html.text(size)
                html.raw(" bytes")
            }
            html.raw("</span>")
        }
    }

    /// The attachment's file in the bag, only for a lower-case hex SHA-256 whose bytes the
    /// bundle carries: no name from the data ever becomes part of a path.
    static func contentPath(_ row: [String?]) -> String? {
        guard row[7] == "1", let sha = row[3], sha.utf8.count == 64,
              sha.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else { return nil }
        return ViewLayout.attachmentsFromPages + sha
    }

    static func isShownImage(_ row: [String?]) -> Bool {
        if let type = row[2]?.lowercased(), shownImageTypes.contains(type) { return true }
        let name = (row[1] ?? "").lowercased()
        guard let dot = name.lastIndex(of: ".") else { return false }
        return shownImageExtensions.contains(String(name[name.index(after: dot)...]))
    }

    /// url, title, description per row. Only web addresses are links; any other scheme
    /// (`javascript:`, `file:`) is shown as text.
    static func links(_ rows: [[String?]], into html: inout HTMLBuffer) {
        html.raw("<h3>Links</h3>\n<ul class=\"links\">\n")
        for row in rows {
            let url = row[0] ?? ""
            let label = row[1] ?? url
            html.raw("<li>")
            let lower = url.lowercased()
            if lower.hasPrefix("https://") || lower.hasPrefix("http://") {
                html.raw("<a href=\"")
                html.text(url)
                html.raw("\" rel=\"noreferrer nofollow\">")
                html.text(label)
                html.raw("</a>")
            } else {
                html.text(label)
                if label != url {
                    html.raw(" (")
                    html.text(url)
                    html.raw(")")
                }
            }
            if let description = row[2] {
                html.raw(": ")
                html.text(description)
            }
            html.raw("</li>\n")
        }
        html.raw("</ul>\n")
    }
}
