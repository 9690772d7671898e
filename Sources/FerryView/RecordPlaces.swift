import FerryJSON

/// Which page each linkable record is on, so that any page can link to it by its anchor.
struct RecordPlaces {
    var recipes: [String: Int] = [:]
    var recipeTitles: [String: String] = [:]
    var projects: [String: Int] = [:]
    var catalog: [String: Int] = [:]
    /// Catalog items' names by key: a material reads as its name, its code beside it.
    var catalogNames: [String: String] = [:]

    func recipe(_ id: String) -> String? {
        recipes[id].map { ViewLayout.Section.recipes.page($0) + "#" + Self.anchor(id) }
    }

    func project(_ id: String) -> String? {
        projects[id].map { ViewLayout.Section.projects.page($0) + "#" + Self.anchor(id) }
    }

    func catalogItem(_ key: String) -> String? {
        catalog[key].map { ViewLayout.Section.catalog.page($0) + "#" + Self.catalogAnchor(key) }
    }

    /// A record's anchor: its id, which the canonical schema keeps to upper-case UUID text; any
    /// other byte is percent-encoded, so an anchor is the same text in `id` and in a link.
    static func anchor(_ id: String) -> String {
        var html = HTMLBuffer()
        var id = id
        id.withUTF8 { html.anchor(utf8: $0) }
        return String(decoding: html.bytes, as: UTF8.self)
    }

    static func catalogAnchor(_ key: String) -> String { "item-" + anchor(key) }

    /// Ids as a JSON array, the one argument of `… IN (SELECT value FROM json_each(?))`.
    static func jsonArray(_ ids: [String]) -> String {
        JSONWriter.string(.array(ids.map { .string($0) }))
    }
}
