@testable import FerryCoreData
import FerryModel
import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

/// Several `Z_FOK_` columns in one table: in the order Core Data's own table of the entity's
/// properties gives them (`Formats/coredata-sql-mapping.md` §4.3), held against real stores.
@Suite struct ForeignOrderKeyTests {
    /// Shaped as DuckDuckGo's bookmarks (BookmarksModel 1–3, 14 or 15 properties and keys: a table
    /// of 23 buckets, as here): a store it made has `Z_FOK_FAVORITEFOLDER` before `Z_FOK_PARENT`,
    /// where ordering by the to-manys' names (or their lengths: `children` before `favorites`)
    /// gives the other order.
    static let bookmarks = fixture("Bookmarks")

    /// Shaped as Wire's messages (19 properties and keys: 41 buckets, as Wire's 18 to 24): its
    /// stores have `Z_FOK_VISIBLEINCONVERSATION` before `Z_FOK_HIDDENINCONVERSATION`, where name
    /// order gives the other. With the bookmarks above, neither name nor length order passes both.
    static let messages = fixture("Messages")

    /// A model of `Tests/Fixtures/SQLMapping/OrderingColumns`.
    static func fixture(_ name: String) -> URL {
        TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/SQLMapping/OrderingColumns/\(name).xcdatamodel/contents")
    }

    static func orderColumns(_ model: DataModel, table: String) throws -> [String] {
        let layout = CoreDataSQLLayout(model: model)
        return try #require(layout.table(named: table)).columns.map(\.name).filter { $0.hasPrefix("Z_FOK_") }
    }

    @Test func aBookmarksModelOrdersItsColumnsAsItsStore() throws {
        let model = try ModelParser().parse(data: Data(contentsOf: Self.bookmarks), file: Self.bookmarks.path)
        #expect(try Self.orderColumns(model, table: "ZBOOKMARKENTITY") == ["Z_FOK_FAVORITEFOLDER", "Z_FOK_PARENT"])
    }

    @Test func aMessagesModelOrdersItsColumnsAsWiresStores() throws {
        let model = try ModelParser().parse(data: Data(contentsOf: Self.messages), file: Self.messages.path)
        #expect(try Self.orderColumns(model, table: "ZMESSAGE") == ["Z_FOK_VISIBLEINCONVERSATION", "Z_FOK_HIDDENINCONVERSATION"])
    }

    /// The hash, against values of an independent implementation (Python, from the rule as
    /// `Formats/coredata-sql-mapping.md` states it): a short name, one past 23 units (only six of
    /// its 4-unit chunks count) and one beyond ASCII.
    @Test func theNameHashIsTheRules() {
        #expect(ForeignOrderKeyOrder.hash("") == 0)
        #expect(ForeignOrderKeyOrder.hash("a") == 1062)
        #expect(ForeignOrderKeyOrder.hash("visibleInConversation") == 3_589_291_701)
        #expect(ForeignOrderKeyOrder.hash("dayHighlightBeingCollageAssetsPrivate") == 3_979_509_770)
        #expect(ForeignOrderKeyOrder.hash("größeDerPortion") == 2_093_841_704)
    }

    /// DuckDuckGo's own model versions that have both to-ones.
    @Test(.needsCorpus) func duckDuckGosBookmarkModelsOrderTheirColumnsAsItsStore() throws {
        let bundle = try ModelBundle(at: TestPaths.corpus.appendingPathComponent(
            "models/009__duckduckgo__BrowserServicesKit__BookmarksModel.xcdatamodeld/BookmarksModel.xcdatamodeld").path)
        for version in ["BookmarksModel", "BookmarksModel 2", "BookmarksModel 3"] {
            #expect(try Self.orderColumns(bundle.model(version: version), table: "ZBOOKMARKENTITY") == ["Z_FOK_FAVORITEFOLDER", "Z_FOK_PARENT"], "\(version)")
        }
    }

    /// The Photos libraries' tables, laid out from their own model caches: Photos 15.4.1's
    /// `ZASSET` has four (`…PRIVATE`, `…MIXED`, `…SHARED` in neither name nor length order).
    @Test(.needsCorpus, arguments: photosAndSwiftDataStores)
    func everyTableOrdersItsColumnsAsTheStore(path: String) throws {
        let reader = try CoreDataStoreReader(path: path)
        let layout = CoreDataSQLLayout(model: reader.model, frameworkVersion: reader.metadata.frameworkVersion.flatMap { Int($0) })
        var compared = 0
        for table in layout.tables where table.rootEntity != nil {
            let predicted = table.columns.map(\.name).filter { $0.hasPrefix("Z_FOK_") }
            guard predicted.count > 1, let real = reader.schema.tables.first(where: { $0.name == table.name }) else { continue }
            #expect(predicted == real.columns.map(\.name).filter { $0.hasPrefix("Z_FOK_") }, "\(table.name)")
            compared += 1
        }
        if path.contains("15.4.1") { #expect(compared == 2) }
    }
}
