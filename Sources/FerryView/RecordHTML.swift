import FerryFormats
import FerryStore

/// Pieces every record's section uses: the heading with its anchor, a list of its fields, long
/// texts, and the legacy fields kept in `extras`.
enum RecordHTML {
    /// `<section id=…>` and its `h2`; the caller closes the section.
    static func open(id: String, title: String?, kind: String?, into html: inout HTMLBuffer) {
        html.raw("<section class=\"record\" id=\"")
        html.text(RecordPlaces.anchor(id))
        html.raw("\">\n<h2>")
        html.text(title ?? "(untitled)")
        html.text(kind.map(ViewWords.code), after: " <span class=\"kind\">", before: "</span>")
        html.raw("</h2>\n")
    }

    static func close(into html: inout HTMLBuffer) {
        html.raw("</section>\n")
    }

    /// The fields that have a value, as a description list of `(column, label)` pairs. Columns
    /// in `flags` read yes or no; columns in `codes` hold codes (`in_progress`), shown as words;
    /// a column in `madeUp` (by name) is a time Ferry made up (not the app's), shown with what it
    /// took instead.
    static func fields(_ row: TextRow, _ labels: [(CanonicalColumn, String)], flags: Set<CanonicalColumn> = [],
                       codes: Set<CanonicalColumn> = [], madeUp: [String: String] = [:], into html: inout HTMLBuffer) {
        let present = labels.filter { row[$0.0].map { !$0.isEmpty } ?? false }
        guard !present.isEmpty else { return }
        html.raw("<dl>\n")
        for (column, label) in present {
            html.raw("<dt>")
            html.trusted(label)
            html.raw("</dt><dd>")
            let value = row[column] ?? ""
            html.text(flags.contains(column) ? (value == "0" ? "no" : "yes") : codes.contains(column) ? ViewWords.code(value) : ViewWords.time(value))
            if ViewWords.isTimestamp(value) { html.raw(" UTC") }
            if let from = madeUp[column.name] {
                html.text(from, after: " <em class=\"reconstructed\">(not the app's: Ferry's stand-in, from ", before: ")</em>")
            }
            html.raw("</dd>\n")
        }
        html.raw("</dl>\n")
    }

    /// A long text (instructions, notes), its line breaks kept.
    static func prose(_ text: String?, label: StaticString? = nil, into html: inout HTMLBuffer) {
        guard let text, !text.isEmpty else { return }
        if let label {
            html.raw("<h3>")
            html.raw(label)
            html.raw("</h3>\n")
        }
        html.raw("<div class=\"prose\">")
        html.text(text)
        html.raw("</div>\n")
    }

    /// Where the record came from: app, legacy entity, file and key.
    static func source(_ row: TextRow, app: CanonicalColumn, entity: CanonicalColumn, file: CanonicalColumn, key: CanonicalColumn,
                       into html: inout HTMLBuffer) {
        source(app: row[app], entity: row[entity], file: row[file], key: row[key], into: &html)
    }

    static func source(app: String?, entity: String?, file: String?, key: String?, into html: inout HTMLBuffer) {
        html.raw("<p class=\"source\">From ")
        html.text(app ?? "an unknown app")
        html.text(entity, after: " (", before: ")")
        html.text(file, after: ", file ")
        html.text(key, after: ", key ")
        html.raw(".</p>\n")
    }

    /// The legacy fields Ferry kept without a column, folded away (Ferry's own marks are shown
    /// where they apply: ``RecordExtras``).
    static func extras(_ extras: RecordExtras, into html: inout HTMLBuffer) {
        guard let json = extras.legacy else { return }
        html.raw("<details><summary>Legacy fields kept as they were</summary><pre>")
        html.text(json)
        html.raw("</pre></details>\n")
    }

    /// A link to a record's page and anchor, or its label alone when it has no place.
    static func link(_ href: String?, _ label: String, into html: inout HTMLBuffer) {
        guard let href else { return html.text(label) }
        html.raw("<a href=\"")
        html.text(href)
        html.raw("\">")
        html.text(label)
        html.raw("</a>")
    }
}
