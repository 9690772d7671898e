import FerryArchive
import FerryCanonical
@testable import FerryConvert
import FerryJSON
import FerryTestSupport
import Foundation
import Testing

/// What a review of the new readers found, kept: line ends from Windows, split backups, times
/// past year 9999, pages without recipes among others, same names in two folders, and zips of
/// zips that are not Tandoor's.
@Suite struct FormatEdgeTests {
    let directory = TemporaryDirectory("ferry-format-edges")

    @Test func aCooklangFileSavedOnWindowsReadsAsTheSame() throws {
        let text = "---\ntitle: Toast\nservings: 2\n---\n= Make =\nToast the @bread{2%slices}.\n\nButter it.\n"
        let unix = CooklangParser.parse(text)
        let windows = CooklangParser.parse(text.replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(windows == unix)
        #expect(unix.steps.count == 2 && unix.metadata.first?.value == "Toast")
    }

    @Test func aBackupSplitOverFilesBringsEveryBrew() throws {
        let main = #"{"BEANS": [{"name": "Holm", "config": {"uuid": "11111111-2222-4333-8444-555555555555", "unix_timestamp": 1672000000}}], "BREWS": [], "SETTINGS": [], "VERSION": []}"#
        let brews = #"[{"bean": "11111111-2222-4333-8444-555555555555", "grind_weight": 18, "config": {"uuid": "d8647dd2-36cf-4998-8cb7-f5772f91b726", "unix_timestamp": 1672238504}}]"#
        let zip = try ZipFixture.write(["Beanconqueror.json": Data(main.utf8), "Beanconqueror_Brews_1.json": Data(brews.utf8)],
                                       to: directory.url.appendingPathComponent("backup.zip"))
        let (store, report) = try directory.convert([zip], into: "split.ferry")
        #expect(report.counts["log"] == 1)
        #expect(try StoreFixtures.strings(store, "SELECT title FROM log") == ["Holm"])
    }

    /// A site's JSON-LD document as Yoast writes it: the page and the organisation first, the
    /// recipes later in `@graph`. Known by its `@context`, read node by node.
    @Test func aGraphDocumentIsKnownAndReadNodeByNode() throws {
        let path = try directory.write(#"""
            {"@context": "https://schema.org", "@graph": [
              {"@type": "WebPage", "@id": "https://example.org/soup#page", "name": "Soup"},
              {"@type": "Organization", "name": "Example"},
              {"@type": "Recipe", "name": "Soup", "url": "https://example.org/soup", "recipeIngredient": ["1 l stock", "2 leeks"]},
              {"@type": ["Recipe", "NewsArticle"], "name": "Bread", "recipeIngredient": ["500 g flour"]}]}
            """#, to: "site.jsonld")
        let (store, report) = try directory.convert([path], into: "graph.ferry")
        #expect(report.inputs.map(\.detected) == ["schema-org Recipe JSON-LD"])
        #expect(try StoreFixtures.strings(store, "SELECT title FROM recipe ORDER BY title") == ["Bread", "Soup"])
        #expect(try StoreFixtures.strings(store, "SELECT description FROM material_line ORDER BY description") == ["1 l stock", "2 leeks", "500 g flour"])
    }

    /// A brew's config holds its id and time; what else a later app version puts there is kept.
    @Test func aBrewsConfigBeyondItsIDAndTimeIsKept() throws {
        let backup = #"{"BEANS": [], "BREWS": [{"grind_weight": 18, "config": {"uuid": "d8647dd2-36cf-4998-8cb7-f5772f91b726", "unix_timestamp": 1672238504, "synced": true}}]}"#
        let (store, _) = try directory.convert([try directory.write(backup, to: "Beanconqueror.json")], into: "config.ferry")
        #expect(try StoreFixtures.strings(store, "SELECT json_extract(extras, '$.config') FROM log") == [#"{"synced":true}"#])
    }

    /// A graph with no `@context` before it (or none at all), a number before it, and a recipe
    /// beside it: still JSON-LD, every recipe read.
    @Test func aGraphWithoutContextFirstAndARecipeBesideItIsRead() throws {
        let path = try directory.write(#"""
            {"version": 2, "@graph": [{"@type": "WebSite", "name": "Example"}, {"@type": "Recipe", "name": "Soup"}],
             "mainEntity": {"@type": "Recipe", "name": "Bread"}}
            """#, to: "site-no-context.json")
        let (store, _) = try directory.convert([path], into: "graph-no-context.ferry")
        #expect(try StoreFixtures.strings(store, "SELECT title FROM recipe ORDER BY title") == ["Bread", "Soup"])
    }

    /// A file whose time cannot be read is named, not given 1970 as its records' time.
    @Test func aFileWhoseTimeCannotBeReadIsNamed() throws {
        let context = ConversionContext(report: ReportBuilder(store: "s.ferry", dryRun: true), keepGoing: false)
        let missing = directory.url.appendingPathComponent("gone.json").path
        #expect { _ = try context.fileTime(missing) } throws: { error in
            (error as? ConversionError)?.location.file == missing && "\(error)".contains("modification time")
        }
    }

    @Test func aTimePastYear9999IsNoTimeNotACrash() throws {
        let path = try directory.write(#"{"@context": "https://schema.org", "@type": "Recipe", "name": "Far", "dateCreated": "9223372036854775807", "datePublished": "100000000000000000"}"#,
                                       to: "far.json")
        let (store, _) = try directory.convert([path], into: "far.ferry")
        #expect(try StoreFixtures.strings(store, "SELECT json_extract(extras, '$.dateCreated') || '|' || json_extract(extras, '$.datePublished') FROM recipe")
                == ["9223372036854775807|100000000000000000"])
    }

    @Test func aPageWithoutARecipeInAFolderIsSkippedAndTheRestConverts() throws {
        try directory.write(#"{"@context": "https://schema.org", "@type": "Recipe", "name": "Salsa"}"#, to: "site/salsa.json")
        try directory.write("<html><body>hello</body></html>", to: "site/index.html")
        let (store, report) = try directory.convert([directory.url.appendingPathComponent("site").path], into: "site.ferry")
        #expect(try StoreFixtures.strings(store, "SELECT title FROM recipe") == ["Salsa"])
        #expect(report.skipped.map(\.reason) == ["not recognized: no recipe found: no schema.org Recipe in the page's JSON-LD (0 blocks)"])
    }

    @Test func twoCooklangRecipesOfOneNameInTwoFoldersAreTwoRecipes() throws {
        try directory.write("Mix @flour{200%g}.\n", to: "cook/Breakfast/Pancakes.cook")
        try directory.write("Mix @oats{100%g}.\n", to: "cook/Brunch/Pancakes.cook")
        let (store, report) = try directory.convert([directory.url.appendingPathComponent("cook").path], into: "cook.ferry")
        #expect(report.counts["recipe"] == 2)
        #expect(try StoreFixtures.strings(store, "SELECT count(DISTINCT id) FROM recipe") == ["2"])
    }

    @Test func aZipOfZipsThatIsNotTandoorsIsNotTakenForIt() throws {
        let inner = try ZipFixture.write(["Lemon Bars/recipe.json": Data(#"{"@context": "http://schema.org", "@type": "Recipe", "name": "Lemon Bars"}"#.utf8)],
                                         to: directory.url.appendingPathComponent("cookbook.zip"))
        let outer = try ZipFixture.write(["cookbook.zip": try Data(contentsOf: URL(fileURLWithPath: inner))], to: directory.url.appendingPathComponent("outer.zip"))
        let scanned = InputScanner(openArchive: ArchiveReader.opener).classify(outer, named: true)
        #expect(scanned == .unrecognized("not a Core Data store, and not a kind of file Ferry reads (\(SourceReaders.all.flatMap(\.fileKinds).joined(separator: ", ")))"))
    }
}
