import FerryArchive
import FerryCanonical
@testable import FerryConvert
import FerryCoreData
import FerryJSON
import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

/// Paprika's exports: the repository's own fixtures (`Tests/Fixtures/Paprika`: a current-schema
/// recipe with photos, an old-schema one) and the real exports in the corpus. Each recipe
/// arrives with its title, its ingredient lines in order and its steps; every field of the
/// file is a column or a key of the recipe's extras.
@Suite struct PaprikaTests {
    let directory = TemporaryDirectory("ferry-paprika")
    static let fixtures = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/Paprika")
    static let soup = fixtures.appendingPathComponent("Weeknight Lentil Soup.paprikarecipe").path
    static let pancakes = fixtures.appendingPathComponent("Plain Pancakes.paprikarecipe").path

    /// The recipes of a Paprika file as the file has them, read without the conversion's reader.
    static func sourceRecipes(_ path: String) throws -> [JSONObject] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var compressed: [Data] = []
        if Gzip.isGzip(data) {
            compressed = [data]
        } else {
            let archive = try ArchiveReader(path: path)
            while let entry = try archive.next() {
                let parts = entry.path.split(separator: "/")
                guard entry.path.lowercased().hasSuffix(".paprikarecipe"), parts.first != "__MACOSX" else { continue }
                compressed.append(try archive.readData(limit: 64 << 20))
            }
        }
        return try compressed.map { try #require(try JSONReader().read(Array(try Gzip.decompress($0, maximumOutput: 64 << 20))).object) }
    }

    static func lines(_ text: String?) -> [String] {
        (text ?? "").split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Title, ingredient lines in order, step texts and every field accounted for, per recipe.
    func expectWhole(_ path: String) throws {
        let (store, report) = try directory.convert([path], into: "\(abs(path.hashValue)).ferry")
        let recipes = try Self.sourceRecipes(path)
        #expect(report.counts["recipe"] == recipes.count, "\(path)")
        let columns: Set<String> = ["uid", "name", "created", "description", "difficulty", "source_url", "categories", "servings",
                                    "prep_time", "cook_time", "total_time", "directions", "ingredients", "photo_data", "photo", "photos"]
        for source in recipes {
            let name = source["name"]?.string ?? ""
            let rows = try StoreFixtures.strings(store, "SELECT id FROM recipe WHERE title = '\(name.replacingOccurrences(of: "'", with: "''"))'")
            let id = try #require(rows.first, "\(name) is not in the store")
            let ingredients = try StoreFixtures.strings(store, "SELECT description FROM material_line WHERE recipe_id = '\(id)' ORDER BY position")
            #expect(ingredients == Self.lines(source["ingredients"]?.string), "\(name)")
            let steps = try StoreFixtures.strings(store, "SELECT instruction FROM recipe_step WHERE recipe_id = '\(id)' ORDER BY position")
            #expect(steps == Self.lines(source["directions"]?.string), "\(name)")
            let extras = try #require(try JSONReader().read(Array(try StoreFixtures.strings(store, "SELECT extras FROM recipe WHERE id = '\(id)'")[0].utf8)).object)
            for key in source.keys where !columns.contains(key) {
                #expect(extras[key] != nil, "\(name): \(key) is neither a column nor kept in extras")
            }
        }
    }

    @Test func aCurrentSchemaRecipeArrivesWhole() throws {
        try expectWhole(Self.soup)
        let (store, _) = try directory.convert([Self.soup], into: "soup.ferry")
        let row = try StoreFixtures.strings(store, """
            SELECT id || '|' || kind || '|' || summary || '|' || difficulty || '|' || source_url || '|' || servings || '|' || prep_minutes
                   || '|' || cook_minutes || '|' || coalesce(estimated_minutes, '-') || '|' || created_at FROM recipe
            """)
        #expect(row == ["5A0C6C1E-7D2B-4C8E-9F3A-2B1D4E6F8A90|meal|A soup for cold evenings.|Easy|https://example.org/lentil-soup|4.0|15.0|80.0|-|2024-02-11T18:42:07Z"])
        // Free text that is not a duration stays as written; "4 bowls" keeps its words.
        let extras = try #require(try JSONReader().read(Array(try StoreFixtures.strings(store, "SELECT extras FROM recipe")[0].utf8)).object)
        #expect(extras["total_time"]?.string == "about an hour and a half")
        #expect(extras["servings"]?.string == "4 bowls")
        #expect(extras["rating"]?.number?.int64 == 4 && extras["notes"]?.string == "Freezes well.")
        #expect(try StoreFixtures.strings(store, "SELECT t.name FROM recipe_tag j JOIN tag t ON t.id = j.tag_id ORDER BY j.position") == ["Soup", "Vegetarian"])
        // Both photos arrive with their bytes: the main one as the hero image.
        let photos = try StoreFixtures.strings(store, """
            SELECT a.name || '|' || coalesce(a.tag, '') || '|' || a.media_type || '|' || length(c.data) FROM attachment a
            JOIN attachment_content c ON c.sha256 = a.sha256 ORDER BY a.position
            """)
        #expect(photos.count == 2 && photos[0].hasPrefix("soup.png|hero|image/png|") && photos[1].hasPrefix("step2.png||image/png|"), "\(photos)")
    }

    @Test func anOldSchemaRecipeGetsAStableIDAndItsTimes() throws {
        try expectWhole(Self.pancakes)
        let first = try directory.convert([Self.pancakes], into: "first.ferry")
        let second = try directory.convert([Self.pancakes], into: "second.ferry")
        let id = try StoreFixtures.strings(first.store, "SELECT id FROM recipe")
        #expect(id == (try StoreFixtures.strings(second.store, "SELECT id FROM recipe")) && id.count == 1)
        #expect(try StoreFixtures.strings(first.store, "SELECT servings || '|' || prep_minutes || '|' || cook_minutes FROM recipe") == ["8.0|10.0|20.0"])
    }

    @Test func convertingTheSameExportAgainChangesNothing() throws {
        let store = directory.url.appendingPathComponent("again.ferry").path
        let options = ConversionOptions(openArchive: ArchiveReader.opener)
        _ = try ConversionJob(inputs: [Self.soup, Self.pancakes], store: store, options: options).run()
        let before = try StoreFixtures.strings(store, "SELECT id || extras FROM recipe ORDER BY id")
        _ = try ConversionJob(inputs: [Self.soup, Self.pancakes], store: store, options: options).run()
        #expect(try StoreFixtures.strings(store, "SELECT id || extras FROM recipe ORDER BY id") == before)
        #expect(try StoreFixtures.strings(store, "SELECT count(*) FROM material_line") == ["8"])
    }

    /// A zip made by hand on a Mac: the recipes in a folder, Finder's additions beside them.
    @Test func aHandMadeZipIsReadForItsRecipesAlone() throws {
        let zip = directory.url.appendingPathComponent("my recipes.zip")
        try ZipFixture.write([
            "My Recipes/Weeknight Lentil Soup.paprikarecipe": try Data(contentsOf: URL(fileURLWithPath: Self.soup)),
            "My Recipes/Plain Pancakes.paprikarecipe": try Data(contentsOf: URL(fileURLWithPath: Self.pancakes)),
            "My Recipes/.DS_Store": Data([0, 0, 0, 1]),
            "__MACOSX/My Recipes/._Plain Pancakes.paprikarecipe": Data("resource fork".utf8),
        ], to: zip)
        let (store, report) = try directory.convert([zip.path], into: "zip.ferry")
        #expect(report.inputs.map(\.detected) == ["paprika .paprikarecipes export"])
        #expect(try StoreFixtures.strings(store, "SELECT title FROM recipe ORDER BY title") == ["Plain Pancakes", "Weeknight Lentil Soup"])
    }

    /// Names no zip tool writes: a path out of the archive, an absolute one.
    @Test(arguments: ["../escape.paprikarecipe", "/etc/absolute.paprikarecipe", "My Recipes/../../up.paprikarecipe"])
    func aZipEntryOutsideTheArchiveIsRefused(name: String) throws {
        let zip = directory.url.appendingPathComponent("hostile-\(abs(name.hashValue)).paprikarecipes")
        try ZipFixture.write([name: try Data(contentsOf: URL(fileURLWithPath: Self.soup))], to: zip)
        let store = directory.url.appendingPathComponent("hostile-\(abs(name.hashValue)).ferry").path
        #expect {
            _ = try ConversionJob(inputs: [zip.path], store: store, options: ConversionOptions(openArchive: ArchiveReader.opener)).run()
        } throws: { error in
            "\(error)".contains("is not a plain relative path")
        }
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test func aDamagedRecipeIsNamedAndNothingIsWritten() throws {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: Self.soup))
        bytes[bytes.count / 2] ^= 0xFF
        let damaged = try directory.write(bytes, to: "damaged.paprikarecipe")
        let store = directory.url.appendingPathComponent("damaged.ferry").path
        #expect {
            _ = try ConversionJob(inputs: [damaged], store: store, options: ConversionOptions(openArchive: ArchiveReader.opener)).run()
        } throws: { error in
            "\(error)".hasPrefix("\(damaged): cannot be read: not a gzip'd Paprika recipe: invalid gzip data")
        }
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test(.needsCorpus, arguments: TestPaths.files(under: TestPaths.corpus.appendingPathComponent("formats/paprika")) { _ in true })
    func everyCorpusExportArrivesWhole(_ path: String) throws {
        try expectWhole(path)
    }

    @Test func freeTextTimesAreMinutesOnlyWhenTheyReadWhole() {
        let cases: [(String, Double?)] = [("10 minutes", 10), ("15 mins", 15), ("1 hr 20 m", 80), ("20 m", 20), ("1h30", 90), ("90", 90),
                                          ("2 1/2 hours", 150), ("1 Std. 30 Min.", 90), ("PT1H20M", 80), ("P0DT0H45M", 45), ("PT90S", 1.5),
                                          ("about 20 minutes", nil), ("overnight", nil), ("", nil), ("PT", nil), ("P1W", nil)]
        for (text, minutes) in cases {
            #expect(TextDuration.minutes(text) == minutes, "\(text)")
        }
    }
}
