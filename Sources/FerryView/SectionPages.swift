/// Writes one section's pages: each page framed with its navigation, and the section's
/// contents page, which lists every page with the first and last record on it.
struct SectionPages {
    let section: ViewLayout.Section
    let total: Int
    let perPage: Int
    let write: (String, [UInt8]) throws -> Void
    var ranges: [(first: String, last: String)] = []

    init(_ section: ViewLayout.Section, total: Int, perPage: Int, write: @escaping (String, [UInt8]) throws -> Void) {
        self.section = section
        self.total = total
        self.perPage = max(1, perPage)
        self.write = write
    }

    var pageCount: Int { max(1, (total + perPage - 1) / perPage) }

    /// The page a record at `offset` (from 0) of the section's order is on, from 1.
    func page(ofOffset offset: Int) -> Int { offset / perPage + 1 }

    /// A page's frame up to its content: the caller appends the records, then ``finish(_:first:last:)``.
    func start(page: Int, filterable: Bool = true) -> HTMLBuffer {
        var html = HTMLBuffer(capacity: 256 * 1024)
        let title = pageCount > 1 ? "\(section.title), page \(page) of \(pageCount)" : section.title
        PageShell.inView.open(title, into: &html, current: section)
        PageShell.pageNavigation(section, page: page, of: pageCount, into: &html)
        if filterable {
            // Shown by filter.js: without JavaScript the page reads the same, with no dead control.
            html.raw("<p class=\"filter\" hidden><label>Show only records containing <input type=\"search\" data-filter></label></p>\n")
        }
        return html
    }

    mutating func finish(_ html: inout HTMLBuffer, page: Int, first: String, last: String) throws {
        PageShell.pageNavigation(section, page: page, of: pageCount, into: &html)
        PageShell.inView.close(into: &html)
        try write(ViewLayout.file(section.page(page)), html.bytes)
        ranges.append((first, last))
    }

    /// Up to this many records, a contents page lists each by title; past it, pages by range.
    static let titlesListed = 10_000

    /// The contents page; a section without records still gets one that says so. With `titles`
    /// (each record's title and place, in page order) and not too many, it lists every title.
    func writeContents(describing noun: String, titles: [(title: String, href: String?)]? = nil) throws {
        var html = HTMLBuffer(capacity: 64 * 1024)
        PageShell.inView.open(section.title, into: &html, current: section)
        html.raw("<p>")
        html.number(total)
        html.raw(" ")
        html.trusted(noun)
        if let titles, total > 0, titles.count <= Self.titlesListed {
            html.raw(".</p>\n<ul class=\"index\">\n")
            for (title, href) in titles {
                html.raw("<li>")
                RecordHTML.link(href, title, into: &html)
                html.raw("</li>\n")
            }
            html.raw("</ul>\n")
        } else if total > 0 {
            html.raw(" on ")
            html.number(ranges.count)
            html.raw(ranges.count == 1 ? " page.</p>\n" : " pages.</p>\n")
            html.raw("<table><thead><tr><th scope=\"col\">Page</th><th scope=\"col\">From</th><th scope=\"col\">To</th></tr></thead><tbody>\n")
            for (index, range) in ranges.enumerated() {
                html.raw("<tr><td><a href=\"")
                html.trusted(section.page(index + 1))
                html.raw("\">Page ")
                html.number(index + 1)
                html.raw("</a></td><td>")
                html.text(range.first, limit: 80)
                html.raw("</td><td>")
                html.text(range.last, limit: 80)
                html.raw("</td></tr>\n")
            }
            html.raw("</tbody></table>\n")
        } else {
            html.raw(".</p>\n")
        }
        PageShell.inView.close(into: &html)
        try write(ViewLayout.file(section.contents), html.bytes)
    }
}

/// A section that is one table, paged as its rows come: a full page is closed and the next
/// opened with the table's header when a row begins. The caller writes each row into `html`.
struct TablePages {
    private var pages: SectionPages
    private let header: StaticString
    var html = HTMLBuffer()
    private var page = 0
    private var onPage = 0
    private var first = ""
    private var last = ""

    init(_ pages: SectionPages, header: StaticString) {
        self.pages = pages
        self.header = header
    }

    /// Makes room for a row that the contents page names by `label`.
    mutating func beginRow(_ label: String) throws {
        if onPage == pages.perPage { try finishPage() }
        if onPage == 0 {
            page += 1
            html = pages.start(page: page)
            html.raw(header)
            first = label
        }
        onPage += 1
        last = label
    }

    /// The last page and the contents page.
    mutating func finish(describing noun: String) throws {
        if onPage > 0 { try finishPage() }
        try pages.writeContents(describing: noun)
    }

    private mutating func finishPage() throws {
        html.raw("</tbody></table>\n")
        try pages.finish(&html, page: page, first: first, last: last)
        onPage = 0
    }
}
