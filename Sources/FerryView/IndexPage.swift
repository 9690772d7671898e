import FerryFormats

/// `index.html`: what the bundle is, where its data came from, how much of each kind it holds,
/// and the way into every section. Its size is bounded whatever the data: every list on it is
/// cut at a fixed length (the rest is one click away) and every value at a fixed width.
enum IndexPage {
    static let maxApps = 20
    static let maxRuns = 10
    static let maxInputsPerRun = 10

    static func render(_ contents: ViewContents, bundle: BundleFacts) -> [UInt8] {
        var html = HTMLBuffer(capacity: 16 * 1024)
        let shell = PageShell.atTop
        shell.open("Ferry bundle", into: &html)
        html.raw("<p>A bundle of data converted by Ferry: recipes, projects and the logs of doing them. This page and the pages in <code>view/</code> show it; the data itself is in <code>data/</code>.</p>\n<dl>\n<dt>Bundle</dt><dd>")
        html.text(bundle.bundleID, limit: 64)
        html.raw("</dd>\n<dt>Data as of</dt><dd>")
        html.text(bundle.createdAt, limit: 64)
        html.raw(" (its newest change)</dd>\n<dt>Written by</dt><dd>")
        html.text(bundle.generator, limit: 64)
        html.raw("</dd>\n</dl>\n")

        html.raw("<h2>What it holds</h2>\n<table><thead><tr><th scope=\"col\">Section</th><th scope=\"col\">Records</th><th scope=\"col\">Pages</th></tr></thead><tbody>\n")
        for section in ViewLayout.Section.allCases {
            let count = contents.counts[section] ?? 0
            html.raw("<tr><th scope=\"row\"><a href=\"")
            html.trusted(shell.prefix + (count > 0 ? section.page(1) : section.contents))
            html.raw("\">")
            html.trusted(section.title)
            html.raw("</a></th><td>")
            html.number(count)
            html.raw("</td><td><a href=\"")
            html.trusted(shell.prefix + section.contents)
            html.raw("\">")
            html.number(contents.pages[section] ?? 0)
            html.raw(" (all pages)</a></td></tr>\n")
        }
        html.raw("</tbody></table>\n")

        sources(contents, prefix: shell.prefix, into: &html)
        otherFormats(contents, into: &html)

        html.raw("<h2>Every table</h2>\n<p>Rows per table of the canonical store, as <code>bundle.json</code> counts them; each table is also in <code>data/tables/</code> as NDJSON, and the whole store is <code>data/store.sqlite</code>.</p>\n")
        html.raw("<table><thead><tr><th scope=\"col\">Table</th><th scope=\"col\">Rows</th></tr></thead><tbody>\n")
        for (table, count) in bundle.counts.sorted(by: { $0.key < $1.key }).prefix(64) {
            html.raw("<tr><th scope=\"row\">")
            html.text(table, limit: 64)
            html.raw("</th><td>")
            html.number(count)
            html.raw("</td></tr>\n")
        }
        html.raw("</tbody></table>\n")
        shell.close(into: &html)
        return html.bytes
    }

    /// Links to the data in the formats other apps import, where the bundle carries them.
    private static func otherFormats(_ contents: ViewContents, into html: inout HTMLBuffer) {
        let formats = contents.formats
        guard !formats.isEmpty else { return }
        html.raw("<h2>For other apps</h2>\n<p>The same data in the formats other apps import; <a href=\"data/formats/fidelity.json\">fidelity.json</a> says what each keeps, coarsens and leaves out.</p>\n<ul>\n")
        if formats.contains(.schemaOrg) {
            html.raw("<li><a href=\"data/formats/schema-org/recipes.jsonld\">Recipes as schema.org JSON-LD</a> (and a file per recipe beside it): Nextcloud Cookbook, Mealie, Tandoor, KitchenOwl</li>\n")
        }
        if formats.contains(.paprika) {
            html.raw("<li><a href=\"data/formats/paprika/recipes.paprikarecipes\">Recipes for Paprika</a>: Paprika, Mealie, Tandoor</li>\n")
        }
        if formats.contains(.ics), !contents.calendars.isEmpty {
            html.raw("<li>Calendars (iCalendar), for Apple Calendar and Reminders, Thunderbird, Nextcloud:")
            for file in contents.calendars.prefix(maxApps) {
                html.raw(" <a href=\"data/formats/")
                html.text(file)
                html.raw("\">")
                html.text(file.split(separator: "/").last.map(String.init) ?? file, limit: 64)
                html.raw("</a>")
            }
            html.raw("</li>\n")
        }
        if formats.contains(.csv) {
            html.raw("<li>Every table as CSV in <code>data/formats/csv/</code>, described by <a href=\"data/datapackage.json\">datapackage.json</a>: spreadsheets, Frictionless Data tools</li>\n")
        }
        html.raw("</ul>\n")
    }

    /// Apps and conversions, each list cut short with a link to `view/sources.html`.
    private static func sources(_ contents: ViewContents, prefix: String, into html: inout HTMLBuffer) {
        html.raw("<h2>Where it came from</h2>\n")
        appsTable(contents.apps, limit: maxApps, into: &html)
        html.raw("<h3>Conversions</h3>\n<ul>\n")
        for run in contents.runs.prefix(maxRuns) {
            html.raw("<li>Ferry ")
            html.text(run.version ?? "?", limit: 40)
            html.raw(" from ")
            html.text(run.inputs.prefix(maxInputsPerRun).joined(separator: ", "), limit: 600)
            if run.inputs.count > maxInputsPerRun {
                html.raw(" and ")
                html.number(run.inputs.count - maxInputsPerRun)
                html.raw(" more")
            }
            html.raw("</li>\n")
        }
        html.raw("</ul>\n<p><a href=\"")
        html.trusted(prefix + ViewLayout.sources)
        html.raw("\">Every app, conversion and input file</a> (")
        html.number(contents.runs.count)
        html.raw(contents.runs.count == 1 ? " conversion)</p>\n" : " conversions)</p>\n")
    }

    /// Records per app and section; at most `limit` apps, the largest first.
    static func appsTable(_ apps: [String: [ViewLayout.Section: Int]], limit: Int, into html: inout HTMLBuffer) {
        let sections: [ViewLayout.Section] = [.recipes, .projects, .logs]
        html.raw("<table><thead><tr><th scope=\"col\">App</th>")
        for section in sections {
            html.raw("<th scope=\"col\">")
            html.trusted(section.title)
            html.raw("</th>")
        }
        html.raw("</tr></thead><tbody>\n")
        let ordered = apps.sorted { a, b in
            let (left, right) = (a.value.values.reduce(0, +), b.value.values.reduce(0, +))
            return left != right ? left > right : a.key < b.key
        }
        for (app, counts) in ordered.prefix(limit) {
            html.raw("<tr><th scope=\"row\">")
            html.text(app, limit: 60)
            html.raw("</th>")
            for section in sections {
                html.raw("<td>")
                html.number(counts[section] ?? 0)
                html.raw("</td>")
            }
            html.raw("</tr>\n")
        }
        html.raw("</tbody></table>\n")
        if ordered.count > limit {
            html.raw("<p>And ")
            html.number(ordered.count - limit)
            html.raw(" more apps.</p>\n")
        }
    }
}
