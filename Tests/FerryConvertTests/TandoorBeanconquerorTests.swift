import FerryArchive
import FerryCanonical
@testable import FerryConvert
import FerryJSON
import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

/// Tandoor's export (a zip of recipe zips) and Beanconqueror's backups and brew shares: small
/// exports made here, and the real ones in the corpus.
@Suite struct TandoorBeanconquerorTests {
    let directory = TemporaryDirectory("ferry-tandoor-bean")

    static let tandoorRecipe = #"""
        {"name": "Green Shakshuka", "description": "", "working_time": 10, "waiting_time": 20, "servings": 2, "servings_text": "pans",
         "internal": true, "nutrition": null,
         "keywords": [{"name": "Eggs", "icon": null, "description": ""}, {"name": "Brunch", "icon": "🍳", "description": "weekend"}],
         "steps": [{"name": "Greens", "instruction": "Wilt the chard.", "time": 5, "order": 0, "show_as_header": false,
                    "ingredients": [{"food": {"name": "chard", "plural_name": null}, "unit": {"name": "g", "plural_name": null}, "amount": 250.0,
                                     "note": "stems apart", "order": 0, "is_header": false, "no_amount": false},
                                    {"food": {"name": "garlic"}, "unit": null, "amount": 2, "note": "", "order": 1, "is_header": false, "no_amount": false}]},
                   {"name": "", "instruction": "Crack in the eggs and cover.", "time": 0, "order": 1, "show_as_header": false,
                    "ingredients": [{"food": {"name": "eggs"}, "unit": null, "amount": 4, "note": "", "order": 0, "is_header": false, "no_amount": false}]}]}
        """#

    @Test func aTandoorExportArrivesWithStepsIngredientsAndImage() throws {
        let inner = try ZipFixture.write(["recipe.json": Data(Self.tandoorRecipe.utf8), "image.png": Data([0x89, 0x50, 0x4E, 0x47])],
                                         to: directory.url.appendingPathComponent("1.zip"))
        let export = try ZipFixture.write(["1.zip": try Data(contentsOf: URL(fileURLWithPath: inner))], to: directory.url.appendingPathComponent("export.zip"))
        let (store, report) = try directory.convert([export], into: "tandoor.ferry")
        #expect(report.inputs.map(\.detected) == ["tandoor export.zip"])
        #expect(try StoreFixtures.strings(store, "SELECT title || '|' || prep_minutes || '|' || cook_minutes || '|' || servings FROM recipe")
                == ["Green Shakshuka|10.0|20.0|2.0"])
        #expect(try StoreFixtures.strings(store, """
            SELECT coalesce(s.title, '-') || '|' || s.instruction || '|' || m.description || '|' || coalesce(m.quantity, '-') || '|'
                   || coalesce(m.unit, '-') || '|' || coalesce(m.notes, '-')
            FROM material_line m JOIN recipe_step s ON s.id = m.recipe_step_id ORDER BY s.position, m.position
            """) == ["Greens|Wilt the chard.|chard|250|g|stems apart", "Greens|Wilt the chard.|garlic|2|-|-",
                     "-|Crack in the eggs and cover.|eggs|4|-|-"])
        #expect(try StoreFixtures.strings(store, "SELECT t.name FROM recipe_tag j JOIN tag t ON t.id = j.tag_id ORDER BY j.position") == ["Eggs", "Brunch"])
        let extras = try StoreFixtures.strings(store, "SELECT json_extract(extras, '$.servings_text') || '|' || json_extract(extras, '$.keywords[1].icon') FROM recipe")
        #expect(extras == ["pans|🍳"])
        #expect(try StoreFixtures.strings(store, "SELECT name || '|' || tag FROM attachment") == ["image.png|hero"])
    }

    @Test(.needsCorpus) func theCorpusTandoorExportArrivesWhole() throws {
        let zip = try #require(TestPaths.files(under: TestPaths.corpus.appendingPathComponent("formats/tandoor")) { $0.hasSuffix(".zip") }.first)
        let (store, report) = try directory.convert([zip], into: "tandoor-corpus.ferry")
        #expect(report.counts["recipe"] == 1)
        #expect(try StoreFixtures.strings(store, "SELECT title FROM recipe") == ["“Texas Red” Chili"])
        #expect(try StoreFixtures.strings(store, "SELECT count(*) FROM material_line") == ["12"])
        #expect(try StoreFixtures.strings(store, "SELECT count(*) FROM attachment_content") == ["1"])
    }

    static let backup = #"""
        {"BEANS": [{"name": "Holm", "roaster": "onoma", "roastingDate": "2022-12-08T06:24:32.574Z", "roast": "LIGHT",
                    "config": {"uuid": "11111111-2222-4333-8444-555555555555", "unix_timestamp": 1672000000}}],
         "MILL": [{"name": "Kinu M47", "note": "", "config": {"uuid": "66eef402-f789-4f5d-bdc9-2c743f939692", "unix_timestamp": 1672000001}}],
         "PREPARATION": [{"name": "Chemex", "type": "CHEMEX", "style_type": "POUR OVER", "finished": false,
                          "config": {"uuid": "0f4faf19-4899-49ca-a41f-8e57898a8a27", "unix_timestamp": 1672000002}}],
         "BREWS": [{"grind_size": "4", "grind_weight": 30, "brew_temperature": 92, "brew_time": 240.5, "brew_quantity": 500,
                    "brew_quantity_type": "GR", "note": "sweet", "rating": 4, "tds": 1.3, "bean": "11111111-2222-4333-8444-555555555555",
                    "mill": "66eef402-f789-4f5d-bdc9-2c743f939692", "method_of_preparation": "0f4faf19-4899-49ca-a41f-8e57898a8a27",
                    "config": {"uuid": "d8647dd2-36cf-4998-8cb7-f5772f91b726", "unix_timestamp": 1672238504}},
                   {"grind_size": "", "grind_weight": 0, "brew_temperature": 0, "brew_time": 0, "brew_quantity": 0, "note": "", "rating": 0,
                    "bean": "11111111-2222-4333-8444-555555555555", "method_of_preparation": "0f4faf19-4899-49ca-a41f-8e57898a8a27",
                    "config": {"uuid": "af21d84f-2508-44e7-9eac-be51b3f6d1fe", "unix_timestamp": 1672300000}}],
         "SETTINGS": [{"language": "de"}], "VERSION": [{"alreadyDisplayedVersions": ["7.5.0"]}]}
        """#

    @Test func aBackupsBrewsAreLogsWithWhatTheyWereMadeWith() throws {
        let path = try directory.write(Self.backup, to: "Beanconqueror.json")
        let (store, report) = try directory.convert([path], into: "bean.ferry")
        #expect(report.counts["log"] == 2 && report.counts["recipe"] == 1 && report.counts["catalog_item"] == 2)
        let first = try StoreFixtures.strings(store, """
            SELECT l.title || '|' || l.started_at || '|' || l.rating || '|' || l.duration_seconds || '|' || l.note || '|' || s.title || '|'
                   || s.method || '|' || s.parameters || '|' || s.is_reconstructed || '|' || s.reconstructed_fields
            FROM log l JOIN log_snapshot s ON s.log_id = l.id WHERE l.id = 'D8647DD2-36CF-4998-8CB7-F5772F91B726'
            """)
        #expect(first == [#"Holm|2022-12-28T14:41:44Z|4.0|240.5|sweet|Chemex|CHEMEX|{"bean":{"text":"Holm"},"brewTime":{"unit":"s","value":240.5},"dose":{"unit":"g","value":30},"grindSize":{"text":"4"},"grinder":{"text":"Kinu M47"},"roastDate":{"text":"2022-12-08T06:24:32.574Z"},"roaster":{"text":"onoma"},"temperature":{"unit":"°C","value":92},"water":{"unit":"g","value":500}}|1|["parameters.bean","parameters.roaster","parameters.roastDate","parameters.grinder","title","method"]"#])
        // Nothing entered is no parameter: the zeros stay in extras as written.
        let second = try StoreFixtures.strings(store, """
            SELECT coalesce(l.rating, '-') || '|' || json_extract(l.extras, '$.rating') || '|' || (json_extract(s.parameters, '$.dose') IS NULL)
            FROM log l JOIN log_snapshot s ON s.log_id = l.id WHERE l.id = 'AF21D84F-2508-44E7-9EAC-BE51B3F6D1FE'
            """)
        #expect(second == ["-|0|1"])
        #expect(try StoreFixtures.strings(store, "SELECT catalog_key || '|' || quantity || '|' || unit FROM material_line WHERE log_id = 'D8647DD2-36CF-4998-8CB7-F5772F91B726'")
                == ["beanconqueror:bean:11111111-2222-4333-8444-555555555555|30|g"])
        #expect(report.warnings.contains { $0.contains("SETTINGS (1 record) is the app's own state") })
    }

    @Test(.needsCorpus) func theCorpusBackupAndShareConvert() throws {
        let folder = TestPaths.corpus.appendingPathComponent("formats/beanconqueror")
        let backup = try #require(TestPaths.files(under: folder) { $0.hasSuffix("TestData.json") }.first)
        let (store, report) = try directory.convert([backup], into: "bean-corpus.ferry")
        #expect(report.counts["log"] == 2000)
        #expect(try StoreFixtures.strings(store, "SELECT count(DISTINCT recipe_id) FROM log") == ["1"])
        let share = try #require(TestPaths.files(under: folder) { $0.hasSuffix("beanconqueror_real.json") }.first)
        let shared = try directory.convert([share], into: "share.ferry")
        #expect(shared.report.counts["log"] == 1)
        #expect(try StoreFixtures.strings(shared.store, "SELECT json_extract(s.parameters, '$.bean.text') || '|' || json_extract(s.parameters, '$.grinder.text') || '|' || s.title || '|' || json_extract(s.parameters, '$.dose.value') FROM log_snapshot s")
                == ["Holm|Kinu M47|Chemex|75"])
        #expect(try StoreFixtures.strings(shared.store, "SELECT json_extract(extras, '$.brewFlow') IS NOT NULL FROM log") == ["1"])
    }
}
