import FerryCanonical
import GRDB

extension CanonicalStore {
    /// The recipes that name the same page as another (``SourceURL/matchKey(_:)``), grouped by
    /// page in the order of their keys, each group's recipes by app and id.
    public func recipesSharingSourceURL() throws -> [ConversionReport.SameSource] {
        let sql = "SELECT \(RecipeTable.id), \(RecipeTable.sourceApp), \(RecipeTable.title), \(RecipeTable.sourceURL) FROM \(RecipeTable.table) "
            + "WHERE \(RecipeTable.sourceURL) IS NOT NULL ORDER BY \(RecipeTable.sourceApp), \(RecipeTable.id)"
        var byPage: [String: [ConversionReport.SameSource.Recipe]] = [:]
        try read { db in
            let rows = try Row.fetchCursor(db, sql: sql)
            while let row = try rows.next() {
                let url: String = row[3]
                guard let page = SourceURL.matchKey(url) else { continue }
                byPage[page, default: []].append(.init(id: row[0], app: row[1], title: row[2], sourceURL: url))
            }
        }
        return byPage.filter { $0.value.count > 1 }.sorted { $0.key < $1.key }.map { .init(page: $0.key, recipes: $0.value) }
    }
}
