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

    /// Whether a text is a lower-case hex SHA-256, the only attachment name that becomes part of a path.
    static func isSHA256(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
