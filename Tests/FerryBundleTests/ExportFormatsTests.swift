import FerryArchive
import FerryCanonical
@testable import FerryBundle
import FerryConvert
@testable import FerryFormats
import FerryStore
import FerryTestSupport
import Foundation
import GRDB
import Testing

/// The formats other apps import, written from a store: read back by Ferry's own readers, they
/// give the same recipes; the calendars and CSV keep to their RFCs whatever the text holds.
@Suite struct ExportFormatsTests {
    let directory = TemporaryDirectory("ferry-export-formats")

    func path(_ name: String) -> String { directory.url.appendingPathComponent(name).path }

    /// The repository's Paprika and schema.org fixtures and the samples, in one store.
    func recipeStore() throws -> String {
        let fixtures = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures")
        let inputs = [TestPaths.samples.path, fixtures.appendingPathComponent("Paprika").path,
                      fixtures.appendingPathComponent("SchemaOrg/nextcloud").path,
                      fixtures.appendingPathComponent("SchemaOrg/two-recipes.html").path]
        let store = path("recipes.ferry")
        _ = try ConversionJob(inputs: inputs, store: store, options: ConversionOptions(openArchive: ArchiveReader.opener)).run()
        return store
    }

    struct RecipeShape: Hashable, CustomStringConvertible {
        var title: String
        var ingredients: [String]
        var steps: [String]
        var description: String { "\(title): \(ingredients.count) ingredients, \(steps.count) steps" }
    }

    /// Each recipe's title, ingredient lines (descriptions) and step texts (a line each, as
    /// Paprika holds them); a recipe without steps by its instructions' lines.
    func shapes(_ store: String, oneLine: Bool) throws -> [RecipeShape] {
        let queue = try DatabaseQueue(path: store)
        return try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT id, title, instructions FROM recipe").map { row in
                let id: String = row["id"]
                let ingredients = try String.fetchAll(db, sql: "SELECT coalesce(description, '') FROM material_line WHERE recipe_id = ? ORDER BY position", arguments: [id])
                var steps = try String.fetchAll(db, sql: "SELECT coalesce(instruction, title) FROM recipe_step WHERE recipe_id = ? ORDER BY position", arguments: [id])
                if steps.isEmpty { steps = ((row["instructions"] as String?) ?? "").split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
                func flat(_ text: String) -> String { oneLine ? PaprikaRecipe.oneLine(text) : text }
                return RecipeShape(title: row["title"], ingredients: ingredients.map(flat), steps: steps.map(flat))
            }
        }.sorted { ($0.title, $0.ingredients.count) < ($1.title, $1.ingredients.count) }
    }

    /// schema.org JSON-LD and Paprika, each read back by Ferry's reader: the same titles,
    /// ingredient lines and steps as the store (recipes whose ingredients are all plain text:
    /// a parameter or a quantity in a column is written as a line of text), the same times,
    /// servings and source addresses, and Paprika's photos with the same bytes.
    @Test func recipesComeBackThroughSchemaOrgAndPaprika() throws {
        let store = try recipeStore()
        let exporter = SingleFormatExporter(ferryVersion: "test")
        let jsonld = path("recipes.jsonld"), paprika = path("recipes.paprikarecipes")
        _ = try exporter.export(store: store, as: .schemaOrg, to: jsonld)
        let fidelity = try exporter.export(store: store, as: .paprika, to: paprika)
        #expect(fidelity.written["recipes"] == Int(try StoreFixtures.strings(store, "SELECT count(*) FROM recipe")[0]))
        #expect(fidelity.losses.contains("recipe.prep_minutes") || fidelity.losses.contains("recipe.cook_minutes"))

        let plain = try StoreFixtures.strings(store, """
            SELECT title FROM recipe r WHERE NOT EXISTS (SELECT 1 FROM material_line m WHERE m.recipe_id = r.id AND (m.quantity IS NOT NULL OR m.unit IS NOT NULL OR m.catalog_key IS NOT NULL OR m.description IS NULL))
            AND NOT EXISTS (SELECT 1 FROM recipe_parameter p WHERE p.recipe_id = r.id)
            """)
        #expect(plain.count >= 6)
        for (source, from, oneLine) in [(jsonld, "schema-org", false), (paprika, "paprika", true)] {
            let back = path("back-\(from).ferry")
            _ = try ConversionJob(inputs: [source], store: back, options: ConversionOptions(from: SourceApp(rawValue: from), openArchive: ArchiveReader.opener)).run()
            let original = try shapes(store, oneLine: oneLine).filter { plain.contains($0.title) }
            let read = try shapes(back, oneLine: oneLine).filter { plain.contains($0.title) }
            #expect(read == original, "\(from)")
            #expect(try StoreFixtures.strings(back, "SELECT count(*) FROM recipe") == StoreFixtures.strings(store, "SELECT count(*) FROM recipe"), "\(from)")
            let columns = "title, prep_minutes, cook_minutes, estimated_minutes, servings, source_url"
            let values = "SELECT \(columns.components(separatedBy: ", ").map { "coalesce(\($0), '-')" }.joined(separator: " || '|' || ")) FROM recipe ORDER BY 1"
            #expect(try StoreFixtures.strings(back, values) == StoreFixtures.strings(store, values), "\(from)")
        }
        let photos = "SELECT a.sha256 FROM attachment a JOIN recipe r ON r.id = a.recipe_id WHERE a.sha256 IN (SELECT sha256 FROM attachment_content) ORDER BY 1"
        #expect(try !StoreFixtures.strings(store, photos).isEmpty)
        #expect(try StoreFixtures.strings(path("back-paprika.ferry"), photos) == StoreFixtures.strings(store, photos))
    }

    /// The calendars: an entry per assignment, dated project and planned meal; every line at
    /// most 75 octets, folded between characters; text escaped; a completed assignment COMPLETED.
    @Test func calendarsKeepToTheRFCWhateverTheTextHolds() throws {
        let store = try BundleFixtures.sampleStore(at: path("planner.ferry"))
        let title = String(repeating: "Überprüfung; Kapitel 4, Teil 2 — ", count: 6) + "\\ end"
        let queue = try DatabaseQueue(path: store)
        try queue.write { db in
            try db.execute(sql: "UPDATE project SET title = ?, notes = ? WHERE id = '11111111-2222-4333-8444-555555555555'",
                           arguments: [title, "first line\r\nsecond line\u{1}"])
            // A meal plan with two dated meals and one without a date.
            let plan = "AAAAAAAA-0000-4000-8000-000000000001"
            try db.execute(sql: """
                INSERT INTO project (id, source_app, source_entity, source_file, kind, title, is_locked, is_archived, created_at, modified_at, extras)
                VALUES (?, 'mealie', 'MealPlan', 'database.json', 'meal-plan', 'Meal plan', 0, 0, '2025-01-01T00:00:00Z', '2025-01-02T00:00:00Z', '{}')
                """, arguments: [plan])
            for (number, due) in [(1, "2025-03-04T00:00:00Z"), (2, "2025-03-05T00:00:00Z"), (3, nil)] {
                try db.execute(sql: """
                    INSERT INTO project_step (id, project_id, position, title, kind, due_at, is_completed, extras)
                    VALUES (?, ?, ?, ?, 'dinner', ?, 0, '{}')
                    """, arguments: ["AAAAAAAA-0000-4000-8000-00000000010\(number)", plan, number, "Soup \(number)", due])
            }
        }
        try queue.close()
        let ics = path("planner.ics")
        let fidelity = try SingleFormatExporter(ferryVersion: "test").export(store: store, as: .ics, to: ics)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: ics)))
        #expect(String(validating: bytes, as: UTF8.self) != nil)
        let physical = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        #expect(physical.dropLast().allSatisfy { $0.last == 0x0D && $0.count <= 76 }, "CRLF and at most 75 octets before it")
        // Each folded line starts with a space and begins a character: no UTF-8 continuation byte after the space.
        #expect(physical.filter { $0.first == 0x20 }.allSatisfy { $0.count < 2 || $0[$0.startIndex + 1] & 0xC0 != 0x80 })
        let text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\r\n ", with: "")
        let lines = text.components(separatedBy: "\r\n")
        let escaped = title.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ";", with: "\\;").replacingOccurrences(of: ",", with: "\\,")
        #expect(lines.contains("SUMMARY:\(escaped)"))
        #expect(lines.contains("DESCRIPTION:first line\\nsecond line "))
        let assignments = Int(try StoreFixtures.strings(store, "SELECT count(*) FROM project WHERE kind = 'assignment'")[0]) ?? -1
        let dated = Int(try StoreFixtures.strings(store, "SELECT count(*) FROM project WHERE kind != 'assignment' AND start_at IS NOT NULL")[0]) ?? -1
        #expect(lines.filter { $0 == "BEGIN:VTODO" }.count == assignments)
        #expect(lines.filter { $0 == "BEGIN:VEVENT" }.count == dated + 2)
        #expect(lines.contains("DTSTART;VALUE=DATE:20250304") && lines.contains("DTSTART;VALUE=DATE:20250305"))
        #expect(lines.filter { $0 == "STATUS:COMPLETED" }.count == Int(try StoreFixtures.strings(store, "SELECT count(*) FROM project WHERE kind = 'assignment' AND status = 'completed'")[0]))
        #expect(fidelity.written["VTODO"] == assignments && fidelity.losses.contains("project.grade_*"))
        #expect(fidelity.losses.contains("project_step"), "the meal without a date is counted as left out")
    }

    @Test func icalendarTextFoldsBetweenCharactersAndEscapes() {
        var text = ICalendarText()
        text.text("SUMMARY", String(repeating: "é", count: 100))
        let lines = text.bytes.split(separator: 0x0A).map { Array($0.dropLast()) }
        #expect(lines.count == 3 && lines.allSatisfy { $0.count <= 75 })
        #expect(lines.dropFirst().allSatisfy { $0.first == 0x20 && $0[1] & 0xC0 != 0x80 })
        #expect(ICalendarText.escaped("a\\b;c,d\r\ne\nf\u{7}") == "a\\\\b\\;c\\,d\\ne\\nf ")
        #expect(ICalendarText.dateTime("2025-10-20T07:45:00.25Z") == "20251020T074500Z")
        #expect(ICalendarText.dateTime("2025-10-20") == nil && ICalendarText.date("2025-10-20") == "20251020")
        #expect(ISODuration.text(minutes: 80) == "PT1H20M" && ISODuration.text(minutes: 1.5) == "PT1M30S" && ISODuration.text(minutes: 0) == "PT0M")
        #expect(PaprikaRecipe.timeText(80) == "1 hr 20 mins" && PaprikaRecipe.timeText(45) == "45 mins" && PaprikaRecipe.timeText(120) == "2 hr")
    }

    /// CSV in parts: each starts with the header, none ends inside a row (a note with commas,
    /// quotes and line breaks is quoted whole), and the parts hold every row of the table.
    @Test func csvPartsStartWithTheHeaderAndHoldEveryRowWhole() throws {
        let store = try BundleFixtures.sampleStore(at: path("csv.ferry"))
        try StoreFixtures.inflate(store, logs: 3_000)
        let note = "one, \"two\"\r\nthree\nfour"
        let queue = try DatabaseQueue(path: store)
        try queue.write { try $0.execute(sql: "UPDATE log SET note = ?", arguments: [note]) }
        try queue.close()
        var small = BundleExporter()
        small.partBytes = 64 << 10
        let bundle = path("csv.tar.zst")
        _ = try small.export(store: store, to: bundle)
        let parts = try BundleFixtures.entries(of: bundle).filter { $0.name.hasPrefix("csv/data/formats/csv/log/") }
        #expect(parts.count > 3)
        let header = Array(try #require(parts.first?.bytes.split(separator: 0x0A).first)) + [0x0A]
        var rows = 0
        for part in parts {
            #expect(Array(part.bytes.prefix(header.count)) == header, "\(part.name) starts with the header")
            let records = try CSVRecords.parse(Array(part.bytes.dropFirst(header.count)))
            #expect(records.allSatisfy { $0.contains(note) }, "\(part.name): every note whole")
            rows += records.count
        }
        #expect(rows == Int(try StoreFixtures.strings(store, "SELECT count(*) FROM log")[0]))
        #expect(try BundleVerifier().verify(bundle).problems == [])
    }

    /// `--formats none` leaves the formats out: no `data/formats/`, no Data Package; the bundle
    /// still verifies and imports; with them, bundle.json names them.
    @Test func bundlesWithoutTheFormatsVerifyAndImport() throws {
        let store = try BundleFixtures.sampleStore(at: path("plain.ferry"))
        var exporter = BundleExporter()
        exporter.formats = []
        let bundle = path("plain.tar.zst")
        let summary = try exporter.export(store: store, to: bundle)
        let names = try BundleFixtures.entries(of: bundle).map(\.name)
        #expect(!names.contains { $0.contains("/data/formats/") || $0.hasSuffix("datapackage.json") })
        #expect(summary.formats.isEmpty)
        #expect(try BundleVerifier().verify(bundle).problems == [])
        _ = try BundleImporter().importBundle(bundle, into: path("plain-imported.ferry"))
        #expect(try TableContents(path: path("plain-imported.ferry")).withoutFerrysOwnTables == TableContents(path: store).withoutFerrysOwnTables)

        let full = path("full.tar.zst")
        _ = try BundleExporter().export(store: store, to: full)
        let entries = try BundleFixtures.entries(of: full)
        let description = try #require(entries.first { $0.name == "full/bundle.json" })
        let json = try JSONSerialization.jsonObject(with: Data(description.bytes)) as? [String: Any]
        #expect((json?["formats"] as? [String: Any])?["written"] as? [String] == ["schema-org", "paprika", "ics", "csv"])
        _ = try BundleImporter().importBundle(full, into: path("full-imported.ferry"))
        #expect(try TableContents(path: path("full-imported.ferry")).withoutFerrysOwnTables == TableContents(path: store).withoutFerrysOwnTables)
    }
}

extension ExportFormatsTests {
    /// Values no format can write (an infinite serving count, minutes past a billion, an
    /// importance of 1e30), apps whose names differ only in case or in a character a file name
    /// cannot hold, and records deleted in their app: the export still succeeds and verifies,
    /// every app keeps its own calendar, the deleted records are left out and counted.
    @Test func oddValuesCollidingAppsAndDeletedRecords() throws {
        // Roots' first assignment under another app's name that differs only in case, and two whose names meet as file names.
        let store = try BundleFixtures.sampleStore(at: path("odd.ferry"), changedBy: [
            ("UPDATE recipe SET servings = 9e999, prep_minutes = 1e300, cook_minutes = -5 WHERE id = (SELECT min(id) FROM recipe)", []),
            ("UPDATE project SET importance = 1e30, estimated_minutes = 1e30, end_at = NULL WHERE kind IN ('assignment', 'study-session')", []),
            ("UPDATE project SET source_app = 'Roots' WHERE id = '11111111-2222-4333-8444-555555555555'", []),
            ("UPDATE project SET source_app = 'roots/x' WHERE id = '22222222-3333-4444-8555-666666666666'", []),
            ("UPDATE project SET source_app = 'roots_x' WHERE id = '33333333-4444-4555-8666-777777777777'", []),
            ("UPDATE recipe SET deleted_at = '2025-01-01T00:00:00Z' WHERE id = (SELECT max(id) FROM recipe)", []),
            ("UPDATE project SET deleted_at = '2025-01-01T00:00:00Z' WHERE id = '44444444-5555-4666-8777-888888888888'", []),
        ])
        let bundle = path("odd.tar.zst")
        let summary = try BundleExporter().export(store: store, to: bundle)
        #expect(try BundleVerifier().verify(bundle).problems == [])
        let names = try BundleFixtures.entries(of: bundle).map(\.name)
        let calendars = names.filter { $0.hasPrefix("odd/data/formats/ical/") }.sorted()
        #expect(calendars == ["odd/data/formats/ical/Roots.ics", "odd/data/formats/ical/photoapp.ics", "odd/data/formats/ical/roots (calendar).ics",
                              "odd/data/formats/ical/roots_x (calendar).ics", "odd/data/formats/ical/roots_x.ics"])
        let deletedRecipe = try StoreFixtures.strings(store, "SELECT id FROM recipe WHERE deleted_at IS NOT NULL")[0]
        #expect(!names.contains("odd/data/formats/schema-org/\(deletedRecipe).jsonld"))
        let ics = summary.formats.first { $0.format == "ics" }
        #expect(ics?.written["VTODO"] == 3, "the deleted assignment is left out")
        #expect(ics?.losses.contains("project") == true && summary.formats.first { $0.format == "paprika" }?.losses.contains("recipe") == true)
        #expect(summary.formats.first { $0.format == "schema-org" }?.losses.contains("recipe.servings") == true)
    }

    @Test func fileNamesAreSafeShortAndUnique() {
        #expect(FormatFilesWriter.safeName("../../evil") == "_.._evil")
        #expect(FormatFilesWriter.safeName(" .. ") == "recipe")
        let long = FormatFilesWriter.safeName(String(repeating: "🍲", count: 120))
        #expect(long.utf8.count <= 150 && long.unicodeScalars.allSatisfy { $0 == "🍲" })
        var names = UniqueNames()
        let made = [("Soup", "E0000001-0000"), ("Soup (E0000003)", "E0000002-0000"), ("Soup", "E0000003-0000"), ("soup", "E0000003-0001"),
                    ("Soupe\u{301}", "E0000004-0000"), ("Soupé", "E0000005-0000")].map { names.unique($0.0, id: $0.1) }
        #expect(Set(made.map { $0.precomposedStringWithCanonicalMapping.lowercased() }).count == made.count, "\(made)")
    }
}

/// RFC 4180 records, for the tests: fields quoted or not, quotes doubled, CRLF between records.
enum CSVRecords {
    struct Malformed: Error {}

    static func parse(_ bytes: [UInt8]) throws -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var field: [UInt8] = []
        var index = 0
        var quoted = false
        while index < bytes.count {
            let byte = bytes[index]
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\"") { field.append(byte); index += 1 } else { quoted = false }
                } else {
                    field.append(byte)
                }
            } else if byte == UInt8(ascii: "\"") {
                guard field.isEmpty else { throw Malformed() }
                quoted = true
            } else if byte == UInt8(ascii: ",") {
                record.append(String(decoding: field, as: UTF8.self))
                field = []
            } else if byte == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A {
                record.append(String(decoding: field, as: UTF8.self))
                records.append(record)
                (record, field) = ([], [])
                index += 1
            } else {
                field.append(byte)
            }
            index += 1
        }
        guard !quoted, field.isEmpty, record.isEmpty else { throw Malformed() }
        return records
    }
}
