import FerryCanonical
@testable import FerryConvert
import FerryModel
import FerryStore
import FerryTestSupport
import FerryTestTraits
import FerryArchive
import Foundation
import GRDB
import Testing

/// What each app's records become, field by field, on the samples and on stores in the apps'
/// real models from the corpus.
@Suite struct AppConversionTests {
    let directory = TemporaryDirectory("ferry-apps")

    func convert(_ inputs: [String], options: ConversionOptions = ConversionOptions(openArchive: ArchiveReader.opener)) throws -> (DatabaseQueue, ConversionReport) {
        let store = directory.url.appendingPathComponent("\(UUID().uuidString).ferry").path
        let report = try ConversionJob(inputs: inputs, store: store, options: options).run()
        return (try DatabaseQueue(path: store), report)
    }

    func sample(_ relative: String) -> String { TestPaths.samples.appendingPathComponent(relative).path }

    @Test func rootsRecurrenceBothFormsAndGradesOnCourses() throws {
        let (queue, report) = try convert([sample("roots")])
        defer { try? queue.close() }
        try queue.read { db in
            let recurrence = try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT title, recurrence FROM project WHERE kind = 'assignment'")
                .map { ($0["title"] as String, $0["recurrence"] as String?) })
            #expect(recurrence["Problem Set 3"] == #"{"end":{"count":10,"kind":"afterOccurrences"},"frequency":"weekly","interval":1,"skipPolicy":{"adjustment":"forward","holidaySource":"none","skipHolidays":false,"skipWeekends":false}}"#)
            #expect(recurrence["Midterm"]??.hasPrefix(#"{"end":{"date":"2025-12-01T00:00:00Z","kind":"until"},"frequency":"monthly","interval":2"#) == true)
            #expect(recurrence["Read chapter 4"] == #"{"end":{"kind":"never"},"frequency":"weekly","interval":1,"legacy":"weekly"}"#)
            // A legacy task type is read as the app reads it, and the due time of day is added to the due day.
            let meeting = try #require(try Row.fetchOne(db, sql: "SELECT * FROM project WHERE id = '44444444-5555-4666-8777-888888888888'"))
            #expect(meeting["category"] as String? == "project")
            #expect(meeting["due_at"] as String? == "2025-09-24T10:00:00Z")
            let course = try #require(try Row.fetchOne(db, sql: "SELECT * FROM project WHERE id = 'A1B2C3D4-E5F6-4A7B-8C9D-0E1F2A3B4C5D'"))
            #expect(course["grade_letter"] as String? == "A-" && course["grade_percent"] as Double? == 91.5)
            #expect(try String.fetchOne(db, sql: "SELECT title FROM project WHERE id = '6F1C2B9E-3D4A-4E5F-8A9B-0C1D2E3F4A5B'") == "Fall 2025")
            // Study plans hang on their assignment, with ordered steps; study sessions too.
            let steps = try String.fetchAll(db, sql: "SELECT title FROM project_step WHERE project_id = '88888888-9999-4AAA-8BBB-CCCCCCCCCCCC' ORDER BY position")
            #expect(steps == ["Review chapters 1–3", "Practice exam"])
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM project WHERE kind = 'study-session' AND parent_id = '11111111-2222-4333-8444-555555555555'") == 2)
        }
        #expect(report.synthesized.contains { $0.table == "project" && $0.field == "created_at" })
    }

    @Test func aBackupCopyIsConvertedWhenNamed() throws {
        let copy = sample("roots/tasks_cache_backup_1758000000.json")
        #expect(InputScanner().classify(copy, named: false) == .copy(of: "tasks.json"))
        let (queue, report) = try convert([copy, sample("roots/courses.json")])
        defer { try? queue.close() }
        #expect(report.skipped.isEmpty)
        #expect(try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM project WHERE kind = 'assignment'") } == 2)
    }

    @Test func photoActionsBecomeLogsOfTheirSessions() throws {
        let (queue, _) = try convert([sample("photoapp/PhotoApp.sqlite")])
        defer { try? queue.close() }
        try queue.read { db in
            let outcomes = try String.fetchAll(db, sql: "SELECT outcome FROM log WHERE project_id = '0B000000-1111-4222-8333-444444444444' ORDER BY started_at")
            #expect(outcomes == ["favorite", "trash", "keep"])
            let settings = try #require(try Row.fetchOne(db, sql: "SELECT * FROM project WHERE kind = 'app-settings'"))
            // Preferences keep no times: the store file's stands in, and the row says so.
            #expect(settings["extras"] as String? == #"{"autoProcessActions":true,"enableHapticFeedback":false,"lastSyncDate":"2025-10-12T21:20:00Z","swipeThreshold":0.35,"synthesizedTimes":{"created_at":"modification time of PhotoApp.sqlite","modified_at":"modification time of PhotoApp.sqlite"}}"#)
        }
    }

    @Test func brewGuideSwiftDataStoreIsReadWithoutAModel() throws {
        let (queue, report) = try convert([sample("brewguide/BrewGuide.store")])
        defer { try? queue.close() }
        #expect(report.inputs.first?.detected == "brewguide store (schema inferred from its tables)")
        try queue.read { db in
            let recipe = try #require(try Row.fetchOne(db, sql: "SELECT * FROM recipe"))
            #expect(recipe["origin"] as String? == "conflicted_copy" && recipe["title"] as String? == "V60 Balanced (iPad copy)")
            #expect(recipe["created_at"] as String? == "2025-10-02T06:30:00Z")
            #expect(try String.fetchAll(db, sql: "SELECT instruction FROM recipe_step ORDER BY position") == ["Rinse filter and preheat", "Bloom", "Pour to 250g"])
            let linked = try String.fetchAll(db, sql: "SELECT id FROM log WHERE recipe_id = 'BC000000-1111-4222-8333-444444444444'")
            #expect(linked == ["BE000000-1111-4222-8333-444444444444"])
            #expect(try String.fetchOne(db, sql: "SELECT extras FROM recipe") == "{}")
        }
    }

    /// Forager's later model (households, lists with items, meal plans) from its repository.
    @Test(.needsCorpus) func foragerLaterModelListsAndMealPlans() throws {
        let modelPath = TestPaths.corpus.appendingPathComponent("seedapps/grocery/forager2.xcdatamodel@HEAD__contents.xml").path
        let path = directory.url.appendingPathComponent("Forager2.sqlite").path
        let builder = try CoreDataStoreBuilder(path: path, model: try ModelParser().parse(contentsOf: modelPath))
        let household = try builder.insert("Household", ["id": CoreDataStoreBuilder.uuid("90000000-1111-4222-8333-444444444444"), "name": "Home", "ownerEmail": "a@example.com"])
        let recipe = try builder.insert("Recipe", ["id": CoreDataStoreBuilder.uuid("91000000-1111-4222-8333-444444444444"), "title": "Dal", "household": household])
        try builder.insert("Ingredient", ["id": CoreDataStoreBuilder.uuid("92000000-1111-4222-8333-444444444444"), "displayText": "1 cup lentils",
                                          "name": "lentils", "numericValue": 1.0, "standardUnit": "cup", "isParseable": 1, "parseConfidence": 0.9,
                                          "sortOrder": 0, "recipe": recipe])
        let list = try builder.insert("WeeklyList", ["id": CoreDataStoreBuilder.uuid("93000000-1111-4222-8333-444444444444"), "name": "Week 43", "isCompleted": 1])
        for (index, item) in ["2 limes", "oat milk"].enumerated() {
            try builder.insert("GroceryListItem", ["id": CoreDataStoreBuilder.uuid("9400000\(index)-1111-4222-8333-444444444444"), "displayText": item,
                                                   "name": item, "sortOrder": index, "isCompleted": index, "weeklyList": list])
        }
        let plan = try builder.insert("MealPlan", ["id": CoreDataStoreBuilder.uuid("95000000-1111-4222-8333-444444444444"), "name": "Next week",
                                                   "isActive": 1, "startDate": CoreDataStoreBuilder.date("2025-10-20T00:00:00Z")])
        try builder.insert("PlannedMeal", ["id": CoreDataStoreBuilder.uuid("96000000-1111-4222-8333-444444444444"), "mealType": "dinner",
                                           "date": CoreDataStoreBuilder.date("2025-10-21T00:00:00Z"), "servings": 4, "mealPlan": plan, "recipe": recipe])
        try builder.finish()
        let (queue, report) = try convert([path], options: ConversionOptions(model: modelPath, openArchive: ArchiveReader.opener))
        defer { try? queue.close() }
        try queue.read { db in
            let lines = try String.fetchAll(db, sql: "SELECT description FROM material_line WHERE project_id = '93000000-1111-4222-8333-444444444444' ORDER BY position")
            #expect(lines == ["2 limes", "oat milk"])
            #expect(try String.fetchOne(db, sql: "SELECT status FROM project WHERE id = '93000000-1111-4222-8333-444444444444'") == "completed")
            let meal = try #require(try Row.fetchOne(db, sql: "SELECT * FROM project_step WHERE project_id = '95000000-1111-4222-8333-444444444444'"))
            #expect(meal["kind"] as String? == "dinner" && meal["due_at"] as String? == "2025-10-21T00:00:00Z")
            #expect((meal["extras"] as String).contains(#""recipe":"91000000-1111-4222-8333-444444444444""#))
            let ingredient = try #require(try Row.fetchOne(db, sql: "SELECT * FROM material_line WHERE recipe_id = '91000000-1111-4222-8333-444444444444'"))
            #expect(ingredient["quantity"] as String? == "1" && ingredient["unit"] as String? == "cup")
        }
        #expect(report.warnings.contains { $0.hasSuffix("1 Household row not converted: forager Household has no canonical home") }, "\(report.warnings)")
    }
}
