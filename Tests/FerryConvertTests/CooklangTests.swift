import FerryArchive
import FerryCanonical
@testable import FerryConvert
import FerryJSON
import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

/// Cooklang: the spec's own canonical tests (`canonical.yaml` in the corpus, read to JSON by
/// Python's YAML reader) are the parser's test suite; the corpus's recipes and menus convert.
@Suite struct CooklangTests {
    let directory = TemporaryDirectory("ferry-cooklang")
    static let folder = TestPaths.corpus.appendingPathComponent("formats/cooklang")

    /// The parse in the canonical tests' own shape: steps of typed items, and the metadata.
    static func canonicalShape(_ recipe: CooklangRecipe) -> JSONValue {
        func quantity(_ quantity: CooklangRecipe.Quantity?, default fallback: JSONValue) -> JSONValue {
            switch quantity {
            case .number(let value)?: return .double(value)
            case .text(let text)?: return .string(text)
            case nil: return fallback
            }
        }
        let steps: [JSONValue] = recipe.steps.map { step in
            .array(step.items.map { item -> JSONValue in
                switch item {
                case .text(let text): return ["type": "text", "value": .string(text)]
                case .ingredient(let name, let amount, let units, _):
                    return ["type": "ingredient", "name": .string(name), "quantity": quantity(amount, default: "some"), "units": .string(units)]
                case .cookware(let name, let amount): return ["type": "cookware", "name": .string(name), "quantity": quantity(amount, default: 1)]
                case .timer(let name, let amount, let units):
                    return ["type": "timer", "name": .string(name), "quantity": quantity(amount, default: ""), "units": .string(units)]
                }
            })
        }
        return ["steps": .array(steps), "metadata": .object(JSONObject(recipe.metadata.map { ($0.key, JSONValue.string($0.value)) }))]
    }

    /// Numbers compared by value (`2` and `2.0` are one quantity); a cookware's `units: ""` is
    /// the spec's own extra key.
    static func same(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.number(let a), .number(let b)): return a.double == b.double
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { same($0, $1) }
        case (.object(let a), .object(let b)):
            let keys = Set(a.keys).union(b.keys).subtracting(a["type"]?.string == "cookware" ? ["units"] : [])
            return keys.allSatisfy { key in
                guard let x = a[key], let y = b[key] else { return false }
                return same(x, y)
            }
        default: return lhs == rhs
        }
    }

    @Test(.needsCorpus) func everyCanonicalTestOfTheSpecPasses() throws {
        let yaml = try #require(TestPaths.files(under: Self.folder) { $0.hasSuffix("canonical.yaml") }.first)
        let result = try CommandRunner.run("/usr/bin/env", ["python3", "-c", "import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))", yaml],
                                           in: TestPaths.packageRoot)
        #expect(result.status == 0, "\(result.stderr)")
        let suite = try #require(try JSONReader().read(Array(result.stdout.utf8)).object?["tests"]?.object)
        #expect(suite.count > 50)
        var failed: [String] = []
        for (name, test) in suite {
            guard let source = test["source"]?.string, let expected = test["result"] else { continue }
            let got = Self.canonicalShape(CooklangParser.parse(source))
            if !Self.same(got, expected) { failed.append("\(name): got \(JSONWriter.string(got)), expected \(JSONWriter.string(expected))") }
        }
        #expect(failed.isEmpty, "\(failed.count) of \(suite.count) failed:\n\(failed.joined(separator: "\n"))")
    }

    @Test(.needsCorpus) func theCorpusRecipesAndMenusConvert() throws {
        let store = directory.url.appendingPathComponent("cook.ferry").path
        let inputs = TestPaths.files(under: Self.folder) { $0.hasSuffix(".cook") || $0.hasSuffix(".menu") }
        let report = try ConversionJob(inputs: inputs, store: store, options: ConversionOptions(openArchive: ArchiveReader.opener)).run()
        #expect(report.counts["recipe"] == inputs.filter { $0.hasSuffix(".cook") }.count)
        #expect(report.counts["project"] == 2)
        let risotto = try StoreFixtures.strings(store, """
            SELECT title || '|' || servings || '|' || prep_minutes || '|' || cook_minutes || '|' || difficulty || '|' || source_url FROM recipe
            WHERE title = 'Classic Risotto alla Milanese'
            """)
        #expect(risotto == ["Classic Risotto alla Milanese|4.0|10.0|35.0|intermediate|https://cooklang.org"])
        #expect(try StoreFixtures.strings(store, """
            SELECT m.description || '|' || coalesce(m.quantity, '-') || '|' || coalesce(m.unit, '-') FROM material_line m JOIN recipe r ON r.id = m.recipe_id
            WHERE r.title = 'Classic Risotto alla Milanese' ORDER BY m.position LIMIT 3
            """) == ["onion|1|-", "vegetable stock|1|l", "saffron threads|1|pinch"])
        #expect(try StoreFixtures.strings(store, """
            SELECT json_extract(s.extras, '$.section') || '|' || s.duration_seconds FROM recipe_step s JOIN recipe r ON r.id = s.recipe_id
            WHERE r.title = 'Classic Risotto alla Milanese' AND s.duration_seconds IS NOT NULL ORDER BY s.position LIMIT 1
            """) == ["Cook the rice|300.0"])
        let meals = try StoreFixtures.strings(store, """
            SELECT s.kind || '|' || json_extract(s.extras, '$.day') || '|' || s.title FROM project_step s JOIN project p ON p.id = s.project_id
            WHERE p.title LIKE '%2 Day Plan' ORDER BY s.position LIMIT 2
            """)
        #expect(meals == ["breakfast|Day 1|Easy Pancakes with maple syrup", "breakfast|Day 1|coffee"])
    }

    @Test func aRecipeOfItsOwnArrivesWithSectionsNotesAndReferences() throws {
        let path = try directory.write("""
            ---
            title: Pizza Night
            servings: 2
            tags: [pizza, friday]
            ---
            = Dough =
            Stretch the @./Shared/Pizza Dough{2%balls} on a #peel. -- not too thin
            > Flour the peel well.

            = Bake =
            Bake ~{90%seconds} with @mozzarella{125%g}(torn).
            """, to: "Pizza Night.cook")
        let store = directory.url.appendingPathComponent("own.ferry").path
        _ = try ConversionJob(inputs: [path], store: store, options: ConversionOptions()).run()
        #expect(try StoreFixtures.strings(store, "SELECT title || '|' || servings FROM recipe") == ["Pizza Night|2.0"])
        #expect(try StoreFixtures.strings(store, "SELECT t.name FROM recipe_tag j JOIN tag t ON t.id = j.tag_id ORDER BY j.position") == ["pizza", "friday"])
        #expect(try StoreFixtures.strings(store, "SELECT instruction || '|' || json_extract(extras, '$.section') FROM recipe_step ORDER BY position")
                == ["Stretch the Pizza Dough on a peel. |Dough", "Bake 90 seconds with mozzarella.|Bake"])
        #expect(try StoreFixtures.strings(store, "SELECT description || '|' || json_extract(extras, '$.recipe') FROM material_line WHERE position = 0")
                == ["./Shared/Pizza Dough|./Shared/Pizza Dough"])
        #expect(try StoreFixtures.strings(store, "SELECT notes FROM material_line WHERE position = 1") == ["torn"])
        #expect(try StoreFixtures.strings(store, "SELECT json_extract(extras, '$.notes[0].text') FROM recipe") == ["Flour the peel well."])
    }
}
