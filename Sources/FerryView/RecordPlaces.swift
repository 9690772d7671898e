import FerryJSON

/// Which page each linkable record is on, so that any page can link to it by its anchor.
struct RecordPlaces {
    var recipes: [String: Int] = [:]
    var recipeTitles: [String: String] = [:]
    var projects: [String: Int] = [:]
    var catalog: [String: Int] = [:]

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
        var result = ""
        for byte in id.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return result
    }

    static func catalogAnchor(_ key: String) -> String { "item-" + anchor(key) }

    /// Ids as a JSON array, the one argument of `… IN (SELECT value FROM json_each(?))`.
    static func jsonArray(_ ids: [String]) -> String {
        JSONWriter.string(.array(ids.map { .string($0) }))
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
