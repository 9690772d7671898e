import FerryFormats
import FerryJSON
import FerryStore

/// The human view of a bundle: static HTML pages rendered from its store snapshot, which open
/// from `file://` with no network, no server and no script needed. Every value from the data
/// is escaped; nothing links outside the bundle but a reference link's own web address.
///
/// The pages in `view/` are written first, beside the payload; `index.html` last, once the
/// bundle's id is known:
/// ```swift
/// let contents = try BundleView().writePages(of: snapshot) { path, bytes in try save(path, bytes) }
/// let index = BundleView.index(contents, bundle: BundleFacts(bundleID: id, createdAt: time, generator: "ferry 1", counts: counts))
/// ```
public struct BundleView: Sendable {
    /// Rows per page of a list (logs, catalog, attachments).
    public var rowsPerPage: Int
    /// Records per page of recipes and projects, each shown whole with its parts.
    public var recordsPerPage: Int
    /// The other apps' formats the bundle carries (`data/formats/`), which the pages link.
    public var formats: Set<ExportFormat> = []

    public init(rowsPerPage: Int = 1000, recordsPerPage: Int = 200) {
        self.rowsPerPage = max(1, rowsPerPage)
        self.recordsPerPage = max(1, recordsPerPage)
    }

    /// Whether logs are first read in the order the store keeps them (see ``LogPages``); false
    /// for tests that compare both readings.
    var logsInStorageOrderFirst = true

    /// Writes every page but `index.html` through `write` (a path inside the bag, its bytes),
    /// in an order that depends on the data alone. A page may be written twice: the last is meant.
    public func writePages(of frozen: FrozenStore, write: @escaping (String, [UInt8]) throws -> Void) throws -> ViewContents {
        try frozen.session("writing the bundle's view") { session in
            var contents = ViewContents()
            try write(ViewLayout.file(ViewLayout.styleSheet), Array(ViewAssets.styleSheet.utf8))
            try write(ViewLayout.file(ViewLayout.script), Array(ViewAssets.script.utf8))

            var places = RecordPlaces()
            let recipes = try RecipePages.order(session)
            for (offset, recipe) in recipes.enumerated() {
                places.recipes[recipe.id] = offset / recordsPerPage + 1
                places.recipeTitles[recipe.id] = recipe.title
            }
            let tree = try ProjectPages.tree(session)
            for (offset, id) in tree.order.enumerated() { places.projects[id] = offset / recordsPerPage + 1 }
            let catalog = try CatalogPages.order(session)
            for (offset, item) in catalog.enumerated() {
                places.catalog[item.key] = offset / rowsPerPage + 1
                places.catalogNames[item.key] = item.name
            }

            contents.formats = formats
            if formats.contains(.ics) { contents.calendars = FormatFilesWriter.calendarFiles(try ProjectCalendar.apps(session)) }
            try RecipePages.render(recipes, places: places, perPage: recordsPerPage, formats: formats, session: session, write: write)
            try ProjectPages.render(tree, places: places, perPage: recordsPerPage, session: session, write: write)
            var logs = try LogPages(linkedFrom: session)
            try logs.render(places: places, perPage: rowsPerPage, session: session, frozen: frozen, storageOrderFirst: logsInStorageOrderFirst,
                            write: write)
            try CatalogPages.render(count: catalog.count, perPage: rowsPerPage, session: session, write: write)
            let attachments = try session.count("SELECT count(*) FROM \(AttachmentTable.table)")
            try AttachmentPages.render(count: attachments, places: places, logs: logs.places, perPage: rowsPerPage, session: session, write: write)

            contents.counts = [.recipes: recipes.count, .projects: tree.order.count, .logs: logs.count,
                               .catalog: catalog.count, .attachments: attachments]
            for section in ViewLayout.Section.allCases {
                let count = contents.counts[section] ?? 0
                let perPage = section == .recipes || section == .projects ? recordsPerPage : rowsPerPage
                contents.pages[section] = max(1, (count + perPage - 1) / perPage)
            }
            for (table, app, section) in [(RecipeTable.table, RecipeTable.sourceApp, ViewLayout.Section.recipes),
                                          (ProjectTable.table, ProjectTable.sourceApp, .projects)] {
                try session.select("SELECT \(app), count(*) FROM \(table) GROUP BY \(app) ORDER BY \(app)") { row in
                    contents.apps[row.text(0) ?? "(unknown)", default: [:]][section] = Int(row.integer(1) ?? 0)
                }
            }
            for (app, count) in logs.apps { contents.apps[app, default: [:]][.logs] = count }
            try session.select("SELECT \(ImportRunTable.ferryVersion), \(ImportRunTable.inputs) FROM \(ImportRunTable.table) ORDER BY \(ImportRunTable.id)") { row in
                let inputs = row.withBytes(1) { (try? JSONReader().read($0).array)?.compactMap(\.string) } ?? nil
                contents.runs.append(ViewContents.Run(version: row.text(0), inputs: inputs ?? []))
            }
            try write(ViewLayout.file(ViewLayout.sources), SourcesPage.render(contents))
            return contents
        }
    }

    /// `index.html`, at the top of the bag: under 64 KiB whatever the bundle holds.
    public static func index(_ contents: ViewContents, bundle: BundleFacts) -> [UInt8] {
        IndexPage.render(contents, bundle: bundle)
    }
}

/// What the view's pages hold, for the overview.
public struct ViewContents: Sendable {
    struct Run: Sendable {
        var version: String?
        var inputs: [String]
    }

    var counts: [ViewLayout.Section: Int] = [:]
    var pages: [ViewLayout.Section: Int] = [:]
    var apps: [String: [ViewLayout.Section: Int]] = [:]
    var runs: [Run] = []
    var formats: Set<ExportFormat> = []
    /// The calendar files, under the formats folder.
    var calendars: [String] = []
}

/// What the bundle says of itself, shown on the overview.
public struct BundleFacts: Sendable {
    public var bundleID: String
    public var createdAt: String
    public var generator: String
    public var counts: [String: Int]

    public init(bundleID: String, createdAt: String, generator: String, counts: [String: Int]) {
        self.bundleID = bundleID
        self.createdAt = createdAt
        self.generator = generator
        self.counts = counts
    }
}

/// `view/sources.html`: every app, and every conversion with all its inputs.
enum SourcesPage {
    static func render(_ contents: ViewContents) -> [UInt8] {
        var html = HTMLBuffer(capacity: 16 * 1024)
        PageShell.inView.open("Where the data came from", into: &html)
        html.raw("<h2>Apps</h2>\n")
        IndexPage.appsTable(contents.apps, limit: .max, into: &html)
        html.raw("<h2>Conversions</h2>\n<ol>\n")
        for run in contents.runs {
            html.raw("<li>Ferry ")
            html.text(run.version ?? "?")
            html.raw(", from:<ul>")
            for input in run.inputs {
                html.raw("<li>")
                html.text(input)
                html.raw("</li>")
            }
            html.raw("</ul></li>\n")
        }
        html.raw("</ol>\n")
        PageShell.inView.close(into: &html)
        return html.bytes
    }
}
