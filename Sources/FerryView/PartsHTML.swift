import FerryFormats
import FerryStore

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

    private typealias Material = MaterialLineTable
    private typealias File = AttachmentTable
    private typealias Link = ReferenceLinkTable

    /// Materials as a list, for a table cell: `Black Opalescent (be-0100-0): 0.5 rods, for the body`.
    /// Rows of ``OwnedParts/materialColumns(owner:)``.
    static func materialList(_ rows: [TextRow], places: RecordPlaces, into html: inout HTMLBuffer) {
        html.raw("<ul class=\"materials\">\n")
        for row in rows {
            html.raw("<li>")
            if let key = row[Material.catalogKey] {
                let name = places.catalogNames[key]
                RecordHTML.link(places.catalogItem(key), name ?? key, into: &html)
                if name != nil { html.text(key, after: " <span class=\"note\">(", before: ")</span>") }
                html.text(row[Material.description], after: " ")
            } else {
                html.text(row[Material.description] ?? "")
            }
            let amount = [row[Material.quantity], row[Material.unit]].compactMap { $0 }.joined(separator: " ")
            if !amount.isEmpty { html.text(amount, after: ": ") }
            html.text(row[Material.notes], after: ", ")
            html.raw("</li>\n")
        }
        html.raw("</ul>\n")
    }

    /// Rows of ``OwnedParts/materialColumns(owner:)``.
    static func materials(_ rows: [TextRow], places: RecordPlaces, heading: Bool = true, into html: inout HTMLBuffer) {
        if heading { html.raw("<h3>Materials</h3>\n") }
        html.raw("<table class=\"materials\"><thead><tr><th scope=\"col\">Material</th><th scope=\"col\">Quantity</th><th scope=\"col\">Unit</th><th scope=\"col\">Notes</th></tr></thead><tbody>\n")
        for row in rows {
            html.raw("<tr><td>")
            if let key = row[Material.catalogKey] {
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
                if let description = row[Material.description] {
                    html.raw(" ")
                    html.text(description)
                }
            } else {
                html.text(row[Material.description] ?? "")
            }
            for column in [Material.quantity, Material.unit, Material.notes] {
                html.raw("</td><td>")
                html.text(row[column] ?? "")
            }
            html.raw("</td></tr>\n")
        }
        html.raw("</tbody></table>\n")
    }

    /// Rows of ``OwnedParts/attachmentColumns(_:_:)``, then whether the bundle has the bytes.
    static func attachments(_ rows: [TextRow], owner: String, into html: inout HTMLBuffer) {
        html.raw("<h3>Attachments</h3>\n<ul class=\"attachments\">\n")
        for row in rows {
            html.raw("<li id=\"")
            html.text(RecordPlaces.anchor(row[File.id] ?? ""))
            html.raw("\">")
            attachment(row, owner: owner, into: &html)
            html.raw("</li>\n")
        }
        html.raw("</ul>\n")
    }

    /// One attachment: its image shown when the bundle has its bytes and a browser can show
    /// them, else a link to its file, else its name and where the app kept it, as text.
    static func attachment(_ row: TextRow, owner: String, into html: inout HTMLBuffer) {
        let name = row[File.name] ?? "(no name)"
        guard let path = contentPath(row) else {
            html.text(name)
            html.raw(" <span class=\"note\">(not in the bundle")
            if let local = row[File.localURL] {
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
            html.text(row[File.tag] == "hero" ? "\(owner): hero image \(name)" : "\(owner): \(name)")
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
        if let type = row[File.mediaType] {
            html.raw(" <span class=\"note\">")
            html.text(type)
            if let size = row[File.byteCount] {
                html.raw(", ")
                html.text(size)
                html.raw(" bytes")
            }
            html.raw("</span>")
        }
    }

    /// The attachment's file in the bag, only for a lower-case hex SHA-256 whose bytes the
    /// bundle carries: no name from the data ever becomes part of a path.
    static func contentPath(_ row: TextRow) -> String? {
        guard row.computed(0) == "1", let sha = row[File.sha256], RecordPlaces.isSHA256(sha) else { return nil }
        return ViewLayout.attachmentsFromPages + sha
    }

    static func isShownImage(_ row: TextRow) -> Bool {
        if let type = row[File.mediaType]?.lowercased(), shownImageTypes.contains(type) { return true }
        let name = (row[File.name] ?? "").lowercased()
        guard let dot = name.lastIndex(of: ".") else { return false }
        return shownImageExtensions.contains(String(name[name.index(after: dot)...]))
    }

    /// Links to web pages; any other scheme (`javascript:`, `file:`) is shown as text.
    static func links(_ rows: [TextRow], into html: inout HTMLBuffer) {
        html.raw("<h3>Links</h3>\n<ul class=\"links\">\n")
        for row in rows {
            let url = row[Link.url] ?? ""
            let label = row[Link.title] ?? url
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
            if let description = row[Link.description] {
                html.raw(": ")
                html.text(description)
            }
            html.raw("</li>\n")
        }
        html.raw("</ul>\n")
    }
}
