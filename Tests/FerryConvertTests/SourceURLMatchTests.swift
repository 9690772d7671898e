import FerryCanonical
import FerryTestSupport
import Foundation
import Testing

/// One recipe brought in from two apps is found by the page both name, however each wrote it.
@Suite struct SourceURLMatchTests {
    let directory = TemporaryDirectory("ferry-source-url")

    @Test(arguments: [
        ("https://example.org/lentil-soup", "example.org/lentil-soup"),
        ("http://www.Example.ORG/lentil-soup/?utm_source=pinterest&utm_medium=social", "example.org/lentil-soup"),
        ("https://example.org:443/lentil-soup#recipe", "example.org/lentil-soup"),
        ("www.example.org/lentil-soup", "example.org/lentil-soup"),
        ("https://example.org/recipe?id=12&fbclid=abc", "example.org/recipe?id=12"),
        ("https://example.org:8080/Soup", "example.org:8080/Soup"),
    ])
    func aPageIsKeyedByWhatNamesIt(url: String, key: String) {
        #expect(SourceURL.matchKey(url) == key)
    }

    @Test(arguments: ["Grandma's cookbook", "file:///Users/me/soup.html", "", "https://"])
    func textThatIsNoWebAddressHasNoKey(text: String) {
        #expect(SourceURL.matchKey(text) == nil)
    }

    /// The Paprika fixture's soup and the same soup as the site's JSON-LD (another scheme, `www.`,
    /// a tracking query), beside a recipe of another page: one group of two, named in the report.
    @Test func aPaprikaRecipeAndTheSamePagesJSONLDAreMatched() throws {
        let soup = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/Paprika/Weeknight Lentil Soup.paprikarecipe").path
        let page = directory.url.appendingPathComponent("lentil-soup.json")
        try Data(#"""
            [{"@context": "https://schema.org", "@type": "Recipe", "name": "Weeknight Lentil Soup (site)",
              "url": "http://www.example.org/lentil-soup/?utm_source=pinterest", "recipeIngredient": ["1 cup red lentils"]},
             {"@context": "https://schema.org", "@type": "Recipe", "name": "Bread", "url": "https://example.org/bread",
              "recipeIngredient": ["500 g flour"]}]
            """#.utf8).write(to: page)
        let (_, report) = try directory.convert([soup, page.path], into: "matched.ferry")
        let groups = report.sameSourceURL
        #expect(groups.map(\.page) == ["example.org/lentil-soup"])
        #expect(groups.first?.recipes.map(\.app) == ["paprika", "schema-org"])
        #expect(groups.first?.recipes.map(\.title) == ["Weeknight Lentil Soup", "Weeknight Lentil Soup (site)"])
        #expect(groups.first?.recipes.map(\.sourceURL) == ["https://example.org/lentil-soup", "http://www.example.org/lentil-soup/?utm_source=pinterest"])
        #expect(report.text.contains("1 page is the source of more than one recipe: example.org/lentil-soup"))

        // Converting one of them alone matches nothing.
        let (_, alone) = try directory.convert([soup], into: "alone.ferry")
        #expect(alone.sameSourceURL.isEmpty)
    }
}
