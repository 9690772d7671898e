import FerryArchive
import FerryCanonical
@testable import FerryConvert
import FerryJSON
import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

/// schema.org recipes as JSON-LD (files and web pages) and Nextcloud Cookbook folders: the
/// repository's fixtures (`Tests/Fixtures/SchemaOrg`) and the real pages and files in the corpus.
/// The expected recipes are read with Foundation's JSON reader and a regular expression, not
/// the conversion's own.
@Suite struct SchemaOrgTests {
    let directory = TemporaryDirectory("ferry-schema-org")
    static let fixtures = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/SchemaOrg")
    static let corpus = TestPaths.corpus.appendingPathComponent("formats/schema-org")
    /// Corpus pages without a Recipe in their JSON-LD: refused by name.
    static let negative: [String: String] = [
        "mealie-recipe.html": "no schema.org Recipe in the page's JSON-LD",
        "carottes-rapps-with-rice-and-sunflower-seeds.html": "no schema.org Recipe in the page's JSON-LD",
        "jam-roly-poly-with-custard.html": "only as microdata",
        "schinken-kase-waffeln-ohne-viel-schnickschnack.html": "only as microdata",
        "sous-vide-smoked-beef-ribs.html": "only as microdata",
    ]

    /// Recipe nodes of a file, found with Foundation: JSON as is, pages by their ld+json scripts.
    static func sourceRecipes(_ path: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var documents: [Any] = []
        if path.hasSuffix(".html") {
            let page = String(decoding: data, as: UTF8.self)
            let pattern = try NSRegularExpression(pattern: #"<script[^>]*application/ld\+json[^>]*>(.*?)</script"#, options: [.caseInsensitive, .dotMatchesLineSeparators])
            for match in pattern.matches(in: page, range: NSRange(page.startIndex..., in: page)) {
                guard let range = Range(match.range(at: 1), in: page) else { continue }
                // Raw line breaks inside strings, as pages carry them, read as spaces failing all else
                // (the texts compared here have none).
                let text = String(page[range])
                let value = (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]))
                    ?? (try? JSONSerialization.jsonObject(with: Data(text.replacingOccurrences(of: "\n", with: " ").utf8), options: [.fragmentsAllowed]))
                if let value { documents.append(value) }
            }
        } else {
            documents = [try JSONSerialization.jsonObject(with: data)]
        }
        var found: [[String: Any]] = []
        func walk(_ value: Any) {
            if let object = value as? [String: Any] {
                let types = (object["@type"] as? String).map { [$0] } ?? (object["@type"] as? [String]) ?? []
                if types.contains("Recipe") { found.append(object); return }
                object.values.forEach(walk)
            } else if let list = value as? [Any] {
                list.forEach(walk)
            }
        }
        documents.forEach(walk)
        return found
    }

    static func stepTexts(_ value: Any?) -> [String] {
        if let text = value as? String { return text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
        if let list = value as? [Any] { return list.flatMap { stepTexts($0) } }
        if let object = value as? [String: Any] {
            if let items = object["itemListElement"] { return stepTexts(items) }
            return [(object["text"] as? String ?? object["name"] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines)].compactMap { $0 }
        }
        return []
    }

    func expectWhole(_ path: String) throws {
        let (store, report) = try directory.convert([path], into: "\(abs(path.hashValue)).ferry")
        let sources = try Self.sourceRecipes(path)
        #expect(report.counts["recipe"] == sources.count, "\(path)")
        for source in sources {
            let title = source["name"] as? String ?? ""
            let ids = try StoreFixtures.strings(store, "SELECT id FROM recipe WHERE title = '\(title.replacingOccurrences(of: "'", with: "''"))'")
            let id = try #require(ids.first, "\(title) is not in the store")
            let ingredients = source["recipeIngredient"].map { Self.stepTexts($0) } ?? []
            #expect(try StoreFixtures.strings(store, "SELECT description FROM material_line WHERE recipe_id = '\(id)' ORDER BY position") == ingredients, "\(title)")
            #expect(try StoreFixtures.strings(store, "SELECT instruction FROM recipe_step WHERE recipe_id = '\(id)' ORDER BY position")
                    == Self.stepTexts(source["recipeInstructions"]), "\(title)")
            let extras = try #require(try JSONReader().read(Array(try StoreFixtures.strings(store, "SELECT extras FROM recipe WHERE id = '\(id)'")[0].utf8)).object)
            let columns = SchemaOrgNormalizer.columns
            for key in source.keys where !columns.contains(key) {
                #expect(extras[key] != nil, "\(title): \(key) is neither a column nor kept in extras")
            }
        }
    }

    @Test func aPageWithAGraphSectionsAndAListArrivesWhole() throws {
        let page = Self.fixtures.appendingPathComponent("two-recipes.html").path
        try expectWhole(page)
        let (store, _) = try directory.convert([page], into: "page.ferry")
        let scones = try StoreFixtures.strings(store, """
            SELECT author || '|' || servings || '|' || prep_minutes || '|' || cook_minutes || '|' || estimated_minutes || '|' || category
                   || '|' || created_at || '|' || source_url || '|' || summary FROM recipe WHERE title = 'Cheese Scones'
            """)
        #expect(scones == ["Ada|8.0|15.0|12.0|27.0|Snack|2021-05-04T08:00:00Z|https://bakes.example/scones|Quick scones.\nBest warm."])
        #expect(try StoreFixtures.strings(store, "SELECT t.name FROM recipe_tag j JOIN tag t ON t.id = j.tag_id JOIN recipe r ON r.id = j.recipe_id WHERE r.title = 'Cheese Scones' ORDER BY j.position")
                == ["baking", "cheese"])
        #expect(try StoreFixtures.strings(store, """
            SELECT coalesce(s.title, '-') || '|' || json_extract(s.extras, '$.section') FROM recipe_step s JOIN recipe r ON r.id = s.recipe_id
            WHERE r.title = 'Cheese Scones' ORDER BY s.position
            """) == ["-|Dough", "Cheese|Dough", "-|Bake"])
        let flapjacks = try StoreFixtures.strings(store, "SELECT servings || '|' || json_extract(extras, '$.recipeYield') || '|' || json_extract(extras, '$.cookTime') FROM recipe WHERE title = 'Plain Flapjacks'")
        #expect(flapjacks == ["12.0|12 bars|about half an hour"])
    }

    @Test func aPageWithoutARecipeIsRefusedByName() throws {
        let page = Self.fixtures.appendingPathComponent("no-recipe.html").path
        let result = try CommandRunner.ferry(["convert", page, "--to", directory.url.appendingPathComponent("none.ferry").path], in: TestPaths.packageRoot)
        #expect(result.status == 65)
        #expect(result.stderr == "ferry: error: \(page): not recognized: no recipe found: no schema.org Recipe in the page's JSON-LD (1 block)\n")
    }

    @Test func aNextcloudFolderBringsItsImageAndItsTimes() throws {
        let folder = Self.fixtures.appendingPathComponent("nextcloud").path
        let (store, report) = try directory.convert([folder], into: "nextcloud.ferry")
        #expect(report.inputs.map(\.detected) == ["nextcloud recipe.json"])
        #expect(try StoreFixtures.strings(store, "SELECT source_app || '|' || created_at || '|' || modified_at || '|' || json_extract(extras, '$.dateModified') FROM recipe")
                == ["nextcloud|2021-12-01T10:00:00Z|2021-12-01T10:00:00Z|0"])
        #expect(try StoreFixtures.strings(store, "SELECT a.name || '|' || a.tag || '|' || length(c.data) FROM attachment a JOIN attachment_content c ON c.sha256 = a.sha256")
                == ["full.jpg|hero|\(try Data(contentsOf: URL(fileURLWithPath: folder + "/Lemon Bars/full.jpg")).count)"])
        try expectWhole(folder + "/Lemon Bars/recipe.json")
    }

    @Test(.needsCorpus, arguments: TestPaths.files(under: corpus) { _ in true })
    func everyCorpusFileConvertsOrIsRefusedByName(_ path: String) throws {
        let name = (path as NSString).lastPathComponent.replacingOccurrences(of: "mealie-recipes__mealie__tests__data__html__", with: "")
        if let reason = Self.negative[name] {
            let result = try CommandRunner.ferry(["convert", path, "--to", directory.url.appendingPathComponent("neg.ferry").path], in: TestPaths.packageRoot)
            #expect(result.status == 65 && result.stderr.contains("no recipe found: ") && result.stderr.contains(reason), "\(result.stderr)")
            return
        }
        try expectWhole(path)
    }

    @Test(.needsCorpus) func theNextcloudCorpusZipArrivesWithItsImages() throws {
        let zip = try #require(TestPaths.files(under: TestPaths.corpus.appendingPathComponent("formats/nextcloud")) { $0.hasSuffix(".zip") }.first)
        let (store, report) = try directory.convert([zip], into: "nc-zip.ferry")
        #expect(report.counts["recipe"] == 3)
        #expect(try StoreFixtures.strings(store, "SELECT count(*) FROM attachment WHERE tag = 'hero'") == ["2"])
        #expect(try StoreFixtures.strings(store, "SELECT title FROM recipe ORDER BY title") == ["Air Fryer Shrimp", "Chicken Parmigiana", "Skillet Shepherd's Pie"])
    }
}
