import FerryStore

/// The materials catalog by natural key, which materials link to.
enum CatalogPages {
    /// Every key in page order, with its name.
    static func order(_ session: FrozenStoreSession) throws -> [(key: String, name: String?)] {
        var items: [(String, String?)] = []
        try session.select("SELECT natural_key, name FROM catalog_item ORDER BY natural_key") { items.append(($0.text(0) ?? "", $0.text(1))) }
        return items
    }

    static func render(count: Int, perPage: Int, session: FrozenStoreSession, write: @escaping (String, [UInt8]) throws -> Void) throws {
        var table = TablePages(SectionPages(.catalog, total: count, perPage: perPage, write: write),
                               header: "<table class=\"catalog\"><thead><tr><th scope=\"col\">Key</th><th scope=\"col\">Name</th><th scope=\"col\">Manufacturer</th><th scope=\"col\">Code</th><th scope=\"col\">From</th></tr></thead><tbody>\n")
        try session.select("SELECT natural_key, name, manufacturer, code, source_app, source_file FROM catalog_item ORDER BY natural_key") { row in
            let key = row.text(0) ?? ""
            try table.beginRow(key)
            table.html.raw("<tr id=\"")
            table.html.text(RecordPlaces.catalogAnchor(key))
            table.html.raw("\"><td>")
            table.html.text(key)
            for column in 1...3 {
                table.html.raw("</td><td>")
                table.html.text(row.text(column) ?? "")
            }
            table.html.raw("</td><td>")
            table.html.text([row.text(4), row.text(5)].compactMap { $0 }.joined(separator: ", "))
            table.html.raw("</td></tr>\n")
        }
        try table.finish(describing: "catalog items")
    }
}
