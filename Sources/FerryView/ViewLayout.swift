/// Where the view's files are in a bundle: `index.html` at the top of the bag, every other page
/// in `view/` beside it, attachments linked where the payload keeps them. Specification:
/// `Formats/bundle.md`, "The view".
public enum ViewLayout {
    public static let index = "index.html"
    public static let folder = "view"
    static let styleSheet = "view.css"
    static let script = "filter.js"
    static let sources = "sources.html"
    /// From a page in `view/` to the payload's attachment files.
    static let attachmentsFromPages = "../data/attachments/"

    /// The sections of the view, in the order the overview and every page's menu show them.
    enum Section: String, CaseIterable {
        case recipes, projects, logs, catalog, attachments

        var title: String {
            switch self {
            case .recipes: "Recipes"
            case .projects: "Projects"
            case .logs: "Logs"
            case .catalog: "Catalog"
            case .attachments: "Attachments"
            }
        }

        /// The canonical table whose rows the section lists.
        var table: String {
            switch self {
            case .recipes: "recipe"
            case .projects: "project"
            case .logs: "log"
            case .catalog: "catalog_item"
            case .attachments: "attachment"
            }
        }

        /// The page that lists the section's pages.
        var contents: String { "\(rawValue).html" }

        /// Page `number` (from 1) of the section.
        func page(_ number: Int) -> String { "\(rawValue)-\(number).html" }
    }

    /// A path inside `view/`, as the bag lists it.
    static func file(_ name: String) -> String { "\(folder)/\(name)" }
}
