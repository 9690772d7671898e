import FerryStore

/// The materials catalog by natural key, which materials link to.
enum CatalogPages {
    /// Every key in page order.
    static func order(_ session: SnapshotSession) throws -> [String] {
        var keys: [String] = []
        try session.select("SELECT natural_key FROM catalog_item ORDER BY natural_key") { keys.append($0.text(0) ?? "") }
        return keys
    }

    static func render(count: Int, perPage: Int, session: SnapshotSession, write: @escaping (String, [UInt8]) throws -> Void) throws {
        var pages = SectionPages(.catalog, total: count, perPage: perPage, write: write)
        var html = HTMLBuffer()
        var onPage = 0
        var page = 0
        var first = ""
        var last = ""
        let header: StaticString = "<table class=\"catalog\"><thead><tr><th scope=\"col\">Key</th><th scope=\"col\">Name</th><th scope=\"col\">Manufacturer</th><th scope=\"col\">Code</th><th scope=\"col\">From</th></tr></thead><tbody>\n"
        try session.select("SELECT natural_key, name, manufacturer, code, source_app, source_file FROM catalog_item ORDER BY natural_key") { row in
            if onPage == pages.perPage {
                html.raw("</tbody></table>\n")
                try pages.finish(&html, page: page, first: first, last: last)
                onPage = 0
            }
            let key = row.text(0) ?? ""
            if onPage == 0 {
                page += 1
                html = pages.start(page: page)
                html.raw(header)
                first = key
            }
            onPage += 1
            last = key
            html.raw("<tr id=\"")
            html.text(RecordPlaces.catalogAnchor(key))
            html.raw("\"><td>")
            html.text(key)
            for column in 1...3 {
                html.raw("</td><td>")
                html.text(row.text(column) ?? "")
            }
            html.raw("</td><td>")
            html.text([row.text(4), row.text(5)].compactMap { $0 }.joined(separator: ", "))
            html.raw("</td></tr>\n")
        }
        if onPage > 0 {
            html.raw("</tbody></table>\n")
            try pages.finish(&html, page: page, first: first, last: last)
        }
        try pages.writeContents(describing: "catalog items")
    }
}
