import FerryFormats
import FerryStore

/// The materials catalog by natural key, which materials link to.
enum CatalogPages {
    private typealias Item = CatalogItemTable

    /// Every key in page order, with its name.
    static func order(_ session: FrozenStoreSession) throws -> [(key: String, name: String?)] {
        var items: [(String, String?)] = []
        try session.select("SELECT \(Item.naturalKey), \(Item.name) FROM \(Item.table) ORDER BY \(Item.naturalKey)") { items.append(($0.text(0) ?? "", $0.text(1))) }
        return items
    }

    static func render(count: Int, perPage: Int, session: FrozenStoreSession, write: @escaping (String, [UInt8]) throws -> Void) throws {
        var table = TablePages(SectionPages(.catalog, total: count, perPage: perPage, write: write),
                               header: "<table class=\"catalog\"><thead><tr><th scope=\"col\">Key</th><th scope=\"col\">Name</th><th scope=\"col\">Manufacturer</th><th scope=\"col\">Code</th><th scope=\"col\">From</th></tr></thead><tbody>\n")
        let selection = Selection([Item.naturalKey, Item.name, Item.manufacturer, Item.code, Item.sourceApp, Item.sourceFile])
        try session.select("SELECT \(selection.list()) FROM \(Item.table) ORDER BY \(Item.naturalKey)") { statementRow in
            let row = TextRow(values: (0..<statementRow.columnCount).map { statementRow.text($0) }, selection: selection)
            let key = row[Item.naturalKey] ?? ""
            try table.beginRow(key)
            table.html.raw("<tr id=\"")
            table.html.text(RecordPlaces.catalogAnchor(key))
            table.html.raw("\"><td>")
            table.html.text(key)
            for column in [Item.name, Item.manufacturer, Item.code] {
                table.html.raw("</td><td>")
                table.html.text(row[column] ?? "")
            }
            table.html.raw("</td><td>")
            table.html.text([row[Item.sourceApp], row[Item.sourceFile]].compactMap { $0 }.joined(separator: ", "))
            table.html.raw("</td></tr>\n")
        }
        try table.finish(describing: "catalog items")
    }
}
