import FerryCanonical
import GRDB

extension CanonicalStore {
    /// The recipes that name the same page as another (``SourceURL/matchKey(_:)``), grouped by
    /// page in the order of their keys, each group's recipes by app and id.
    ///
    /// Read in two passes, so that memory grows by some 40 bytes a page rather than by every
    /// recipe's id, title and address (a store of 100,000 recipes held them all, a fifth of the
    /// conversion's peak): the first keeps a hash of each page's key and the rowids of the
    /// recipes whose hash came before; the second reads those recipes alone and groups them by
    /// the key itself, so that a collision of hashes joins nothing.
    public func recipesSharingSourceURL() throws -> [ConversionReport.SameSource] {
        try read { db in
            // A hash's first recipe, until a second comes (nil then: both are candidates already).
            var firstRow: [Int: Int64?] = [:]
            var candidates: [Int64] = []
            let pages = try Row.fetchCursor(db, sql: "SELECT rowid, \(RecipeTable.sourceURL) FROM \(RecipeTable.table) WHERE \(RecipeTable.sourceURL) IS NOT NULL")
            while let row = try pages.next() {
                guard let page = SourceURL.matchKey(row[1]) else { continue }
                let rowid: Int64 = row[0]
                switch firstRow[page.hashValue] {
                case nil: firstRow[page.hashValue] = .some(rowid)
                case let first??:
                    candidates += [first, rowid]
                    firstRow[page.hashValue] = .some(nil)
                case .some(nil): candidates.append(rowid)
                }
            }
            firstRow = [:]
            var byPage: [String: [ConversionReport.SameSource.Recipe]] = [:]
            let recipe = try db.makeStatement(sql: """
                SELECT \(RecipeTable.id), \(RecipeTable.sourceApp), \(RecipeTable.title), \(RecipeTable.sourceURL) FROM \(RecipeTable.table) WHERE rowid = ?
                """)
            for rowid in candidates.sorted() {
                guard let row = try Row.fetchOne(recipe, arguments: [rowid]), let page = SourceURL.matchKey(row[3]) else { continue }
                byPage[page, default: []].append(.init(id: row[0], app: row[1], title: row[2], sourceURL: row[3]))
            }
            return byPage.filter { $0.value.count > 1 }.sorted { $0.key < $1.key }.map { page, recipes in
                .init(page: page, recipes: recipes.sorted { ($0.app, $0.id) < ($1.app, $1.id) })
            }
        }
    }
}
