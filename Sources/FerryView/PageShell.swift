/// The frame every page shares: a strict Content-Security-Policy (nothing loads but the
/// bundle's own style sheet, script and images), the menu of sections, one `h1`, and the page
/// navigation of a paged list.
struct PageShell {
    /// "" for pages in `view/`, "view/" for `index.html` at the top of the bag.
    let prefix: String

    static let inView = PageShell(prefix: "")
    static let atTop = PageShell(prefix: "\(ViewLayout.folder)/")

    func open(_ title: String, into html: inout HTMLBuffer, current: ViewLayout.Section? = nil) {
        html.raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        html.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        // No network: only files of the bundle, and no inline script or style a value could inject.
        html.raw("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src 'self' file:; style-src 'self' file:; script-src 'self' file:\">\n")
        html.raw("<title>")
        html.text(title, limit: 200)
        html.raw(" · Ferry bundle</title>\n<link rel=\"stylesheet\" href=\"")
        html.trusted(prefix + ViewLayout.styleSheet)
        html.raw("\">\n<script src=\"")
        html.trusted(prefix + ViewLayout.script)
        html.raw("\" defer></script>\n</head>\n<body>\n<a class=\"skip\" href=\"#main\">Skip to content</a>\n")
        html.raw("<header><nav aria-label=\"Sections\"><ul><li><a href=\"")
        html.trusted(prefix.isEmpty ? "../\(ViewLayout.index)" : ViewLayout.index)
        html.raw("\">Overview</a>")
        for section in ViewLayout.Section.allCases {
            html.raw("<li><a href=\"")
            html.trusted(prefix + section.contents)
            html.raw(section == current ? "\" aria-current=\"true\">" : "\">")
            html.trusted(section.title)
            html.raw("</a>")
        }
        html.raw("</ul></nav></header>\n<main id=\"main\">\n<h1>")
        html.text(title, limit: 200)
        html.raw("</h1>\n")
    }

    func close(into html: inout HTMLBuffer) {
        html.raw("</main>\n<footer><p>A page of a Ferry bundle: a view of the data in <code>data/</code>, made when the bundle was exported.</p></footer>\n</body>\n</html>\n")
    }

    /// First, previous, next, last and all pages of a section, as a labelled navigation.
    static func pageNavigation(_ section: ViewLayout.Section, page: Int, of pages: Int, into html: inout HTMLBuffer) {
        guard pages > 1 else { return }
        html.raw("<nav class=\"pages\" aria-label=\"Pages\"><p>Page ")
        html.number(page)
        html.raw(" of ")
        html.number(pages)
        html.raw(":")
        if page > 1 {
            link(section.page(1), "first", into: &html)
            link(section.page(page - 1), "previous", rel: "prev", into: &html)
        }
        if page < pages {
            link(section.page(page + 1), "next", rel: "next", into: &html)
            link(section.page(pages), "last", into: &html)
        }
        link(section.contents, "all pages", into: &html)
        html.raw("</p></nav>\n")
    }

    private static func link(_ href: String, _ label: StaticString, rel: StaticString? = nil, into html: inout HTMLBuffer) {
        html.raw(" <a href=\"")
        html.trusted(href)
        if let rel {
            html.raw("\" rel=\"")
            html.raw(rel)
        }
        html.raw("\">")
        html.raw(label)
        html.raw("</a>")
    }
}
