import FerryArchive
import FerryCanonical
@testable import FerryConvert
import FerryJSON
import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

/// Mealie's v1 backups (recipes from their tables, meal plans, shopping lists) and v0.5 exports:
/// a backup made here with every kind of row, and the real ones in the corpus.
@Suite struct MealieTests {
    let directory = TemporaryDirectory("ferry-mealie")

    static let database = #"""
        {"alembic_version": [{"version_num": "09aba125b57a"}],
         "recipes": [{"id": "3ef4f12363d742e59b7133315e17401c", "slug": "dal", "name": "Red Dal", "description": "Weeknight dal",
                      "org_url": null, "prep_time": "10 minutes", "perform_time": "about 25", "total_time": null, "recipe_yield": "4 bowls",
                      "rating": 5, "created_at": "2024-04-07T16:57:29.706846", "update_at": "2024-04-08T09:00:00", "date_added": "2024-04-07"}],
         "recipes_ingredients": [
           {"id": "2", "recipe_id": "3ef4f12363d742e59b7133315e17401c", "position": 1, "note": "rinsed", "quantity": 1, "unit_id": "u1", "food_id": "f1",
            "original_text": null, "title": null},
           {"id": "1", "recipe_id": "3ef4f12363d742e59b7133315e17401c", "position": 0, "note": "", "quantity": 2, "unit_id": null, "food_id": null,
            "original_text": "2 tbsp ghee", "title": "Tadka"}],
         "recipe_instructions": [
           {"id": "i2", "recipe_id": "3ef4f12363d742e59b7133315e17401c", "position": 1, "title": "", "text": "Simmer until soft.", "type": null},
           {"id": "i1", "recipe_id": "3ef4f12363d742e59b7133315e17401c", "position": 0, "title": "Start", "text": "Melt the ghee.", "type": null}],
         "ingredient_units": [{"id": "u1", "name": "cup"}], "ingredient_foods": [{"id": "f1", "name": "red lentils"}],
         "tags": [{"id": "t1", "name": "lentils"}], "recipes_to_tags": [{"recipe_id": "3ef4f12363d742e59b7133315e17401c", "tag_id": "t1"}],
         "categories": [{"id": "c1", "name": "Dinner"}], "recipes_to_categories": [{"recipe_id": "3ef4f12363d742e59b7133315e17401c", "category_id": "c1"}],
         "recipe_nutrition": [{"id": "n1", "recipe_id": "3ef4f12363d742e59b7133315e17401c", "calories": "320"}],
         "group_meal_plans": [
           {"id": "m2", "date": "2024-04-10", "entry_type": "dinner", "title": "", "text": "double it", "recipe_id": "3ef4f12363d742e59b7133315e17401c"},
           {"id": "m1", "date": "2024-04-09", "entry_type": "lunch", "title": "Leftovers", "text": "", "recipe_id": null}],
         "shopping_lists": [{"id": "aa4f12363d742e59b7133315e17401cb", "name": "Saturday market", "created_at": "2024-04-06T08:00:00"}],
         "shopping_list_items": [
           {"id": "s2", "shopping_list_id": "aa4f12363d742e59b7133315e17401cb", "position": 1, "note": "ripe", "quantity": 6, "unit_id": null,
            "food_id": null, "display": "6 tomatoes", "checked": true},
           {"id": "s1", "shopping_list_id": "aa4f12363d742e59b7133315e17401cb", "position": 0, "note": "", "quantity": 1, "unit_id": "u1",
            "food_id": "f1", "display": null, "checked": false}],
         "users": [{"id": "x", "username": "admin"}], "long_live_tokens": []}
        """#

    @Test func aBackupBringsRecipesMealPlansAndShoppingLists() throws {
        let path = try directory.write(Self.database, to: "database.json")
        let (store, report) = try directory.convert([path], into: "backup.ferry")
        #expect(report.inputs.map(\.detected) == ["mealie backup"])
        #expect(try StoreFixtures.strings(store, """
            SELECT id || '|' || title || '|' || prep_minutes || '|' || servings || '|' || category || '|' || created_at || '|' || modified_at
                   || '|' || json_extract(extras, '$.perform_time') || '|' || json_extract(extras, '$.nutrition.calories') FROM recipe
            """) == ["3EF4F123-63D7-42E5-9B71-33315E17401C|Red Dal|10.0|4.0|Dinner|2024-04-07T16:57:29.706846Z|2024-04-08T09:00:00Z|about 25|320"])
        #expect(try StoreFixtures.strings(store, "SELECT description || '|' || coalesce(unit, '-') FROM material_line WHERE recipe_id IS NOT NULL ORDER BY position")
                == ["2 tbsp ghee|-", "red lentils rinsed|cup"])
        #expect(try StoreFixtures.strings(store, "SELECT coalesce(title, '-') || '|' || instruction FROM recipe_step ORDER BY position")
                == ["Start|Melt the ghee.", "-|Simmer until soft."])
        #expect(try StoreFixtures.strings(store, """
            SELECT s.title || '|' || s.kind || '|' || s.due_at || '|' || coalesce(s.notes, '-') FROM project_step s
            JOIN project p ON p.id = s.project_id WHERE p.kind = 'meal-plan' ORDER BY s.position
            """) == ["Leftovers|lunch|2024-04-09T00:00:00Z|-", "Red Dal|dinner|2024-04-10T00:00:00Z|double it"])
        #expect(try StoreFixtures.strings(store, """
            SELECT p.title || '|' || m.description || '|' || m.quantity || '|' || json_extract(m.extras, '$.checked') FROM material_line m
            JOIN project p ON p.id = m.project_id WHERE p.kind = 'grocery-list' ORDER BY m.position
            """) == ["Saturday market|red lentils|1|0", "Saturday market|6 tomatoes|6|1"])
        #expect(report.warnings.contains { $0.contains("1 users row not converted") })
    }

    @Test(.needsCorpus) func theCorpusBackupAndExportArriveWhole() throws {
        let folder = TestPaths.corpus.appendingPathComponent("formats/mealie")
        let backup = try #require(TestPaths.files(under: folder) { $0.contains("backup") }.first)
        let (store, report) = try directory.convert([backup], into: "corpus-backup.ferry")
        #expect(report.counts["recipe"] == 42)
        #expect(try StoreFixtures.strings(store, "SELECT count(*) FROM material_line") == ["456"])
        #expect(try StoreFixtures.strings(store, "SELECT count(*) FROM recipe_step") == ["212"])
        let export = try #require(TestPaths.files(under: folder) { $0.hasSuffix("migrations__mealie.zip") }.first)
        let exported = try directory.convert([export], into: "corpus-export.ferry")
        #expect(exported.report.counts["recipe"] == 3)
        #expect(try StoreFixtures.strings(exported.store, "SELECT title FROM recipe ORDER BY title")
                == ["Levain Chocolate Chip Cookies", "Old-Fashioned Beef Stew", "PIZZA DOUGH — Basics With Babish"])
        #expect(try StoreFixtures.strings(exported.store, "SELECT count(*) FROM attachment WHERE tag = 'hero'") == ["3"])
    }
}
