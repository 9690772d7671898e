import FerryModel
import Foundation
import GRDB

/// Writes the sample stores in `Samples/` (`swift run make-sample-stores`): small, realistic
/// stores of Molten (model version 5, arrays in Transformable keyed archives), Forager and
/// PhotoApp in their models in `Formats/legacy/`, and BrewGuide's SwiftData store, laid out as
/// Core Data lays them out, without a model cache (as when it has been lost or is unreadable).
public enum SampleStores {
    public static func writeAll(into samples: URL, formats: URL) throws {
        try molten(samples.appendingPathComponent("molten/Molten.sqlite").path, formats: formats)
        try forager(samples.appendingPathComponent("forager/Forager.sqlite").path, formats: formats)
        try photoApp(samples.appendingPathComponent("photoapp/PhotoApp.sqlite").path, formats: formats)
        try brewGuide(samples.appendingPathComponent("brewguide/BrewGuide.store").path)
    }

    /// The migration check's fixture (`Tests/Fixtures/MigrationCheck`): a store of `Books`'s
    /// first version with one record of each kind its second version cannot take, beside records
    /// that pass. The models are written by hand; the store is made from the first.
    public static func migrationCheck(_ folder: URL) throws {
        let builder = try freshFixture(folder, model: "Books", identifiers: ["v1"])
        let shelf = try builder.insert("Shelf", ["label": "A"])
        _ = try builder.insert("Book", ["title": "Fine", "pages": 300, "isbn": "1", "edition": "2", "shelf": shelf])
        _ = try builder.insert("Book", ["pages": 12, "isbn": "2", "edition": "3", "shelf": shelf])                      // no title
        _ = try builder.insert("Book", ["title": "Long", "pages": 1200, "isbn": "3", "shelf": shelf])                  // too many pages
        _ = try builder.insert("Book", ["title": "Twin", "pages": 20, "isbn": "1", "shelf": shelf])                   // Fine's isbn
        _ = try builder.insert("Book", ["title": "Loose", "pages": 40, "isbn": "4"])                                 // no shelf
        _ = try builder.insert("Book", ["title": "Odd", "pages": 50, "isbn": "5", "edition": "first", "shelf": shelf])  // not a number
        _ = try builder.insert("Book", ["title": "Huge", "pages": 60, "isbn": "6", "edition": "70000", "shelf": shelf]) // past Int16
        try builder.finish()
    }

    /// The SQL mapping's fixture (`Tests/Fixtures/SQLMapping`): a model whose store needs each
    /// rule of `Formats/coredata-sql-mapping.md` (sibling sub-entities sharing a column name, a
    /// join-table column suffix, a to-many without inverse, an entity column, ordered to-many and
    /// many-to-many), and a store of it holding one case of each.
    public static func sqlMapping(_ folder: URL) throws {
        let store = try freshFixture(folder, model: "Gallery", identifiers: ["gallery-1"])
        let moved = try store.insert("SystemMessage", ["text": "moved to storage", "sentAt": date("2024-03-01T09:00:00Z")])
        let loan = try store.insert("TextMessage", ["text": "on loan to Paris", "sentAt": date("2024-03-02T10:30:00Z")])
        let sunflowers = try store.insert("Artwork", ["title": "Sunflowers", "year": 1888, "note": loan])
        let irises = try store.insert("Artwork", ["title": "Irises", "year": 1889, "note": moved])
        let night = try store.insert("Artwork", ["title": "The Starry Night", "year": 1889])
        let exhibit = try store.insert("Exhibit", ["name": "Dutch Masters"])
        try store.link("Exhibit", exhibit, "artworks", to: [night, sunflowers])
        let show = try store.insert("Show", ["opening": date("2024-05-10T18:00:00Z")])
        try store.link("Show", show, "artworks", to: [sunflowers, irises])
        let gallery = try store.insert("Gallery", ["city": "Amsterdam"])
        try store.link("Gallery", gallery, "featured", to: [irises, night])
        for (label, position) in [("East", 2), ("West", 1)] {
            let room = try store.insert("Room", ["label": label, "gallery": gallery])
            try store.setOrder("Room", primaryKey: room, inverse: "gallery", position: position)
        }
        // History tracking was on: two saves of the app, one of its share extension.
        try store.recordTransaction(author: "app", bundleID: "com.example.gallery", at: date("2024-03-02T10:30:00Z"),
                                    changes: [("SystemMessage", moved, 0), ("TextMessage", loan, 0), ("Artwork", sunflowers, 0)])
        try store.recordTransaction(author: nil, bundleID: "com.example.gallery.share", at: date("2024-05-10T18:00:00Z") + 0.5,
                                    changes: [("Artwork", sunflowers, 1), ("Show", show, 0)])
        try store.recordTransaction(author: "app", bundleID: "com.example.gallery", at: date("2024-06-01T08:00:00Z"),
                                    changes: [("Artwork", 9, 2)])
        try store.finish()
    }

    /// A store of two models merged (`Gallery` and `Visitors`, as an app merging its own model
    /// with a framework's): either model alone describes part of it.
    public static func mergedModels(_ folder: URL) throws {
        let parser = ModelParser()
        let gallery = try parser.parse(contentsOf: folder.appendingPathComponent("Gallery.xcdatamodeld/Gallery.xcdatamodel/contents").path)
        let visitors = try parser.parse(contentsOf: folder.appendingPathComponent("Visitors.xcdatamodeld/Visitors.xcdatamodel/contents").path)
        let model = DataModel(file: "merged", versionName: nil, entities: gallery.entities + visitors.entities)
        let path = folder.appendingPathComponent("Merged.sqlite").path
        fresh(path)
        let store = try CoreDataStoreBuilder(path: path, model: model)
        let ada = try store.insert("Visitor", ["name": "Ada", "since": date("2023-11-02T12:00:00Z")])
        for price in [12.5, 8.0] { try store.insert("Ticket", ["price": price, "visitor": ada]) }
        let gallerySide = try store.insert("Gallery", ["city": "Rotterdam"])
        let room = try store.insert("Room", ["label": "North", "gallery": gallerySide])
        try store.setOrder("Room", primaryKey: room, inverse: "gallery", position: 1)
        try store.finish()
    }

    /// A new store `<name>.sqlite` in `folder` for the model `<name>.xcdatamodeld` beside it.
    static func freshFixture(_ folder: URL, model name: String, identifiers: [String]) throws -> CoreDataStoreBuilder {
        let model = try ModelParser().parse(contentsOf: folder.appendingPathComponent("\(name).xcdatamodeld/\(name).xcdatamodel/contents").path,
                                            versionName: name)
        let path = folder.appendingPathComponent("\(name).sqlite").path
        fresh(path)
        return try CoreDataStoreBuilder(path: path, model: model, identifiers: identifiers)
    }

    static func fresh(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }

    static func date(_ iso: String) -> Double { CoreDataStoreBuilder.date(iso) }
    static func uuid(_ text: String) -> Data { CoreDataStoreBuilder.uuid(text) }

    /// A keyed archive as `NSSecureUnarchiveFromDataTransformer` stores it: of JSON bytes
    /// (glass items, reference URLs) or of a string array (tags, techniques).
    static func archive(json: String) throws -> Data {
        try NSKeyedArchiver.archivedData(withRootObject: NSData(data: Data(json.utf8)), requiringSecureCoding: false)
    }

    static func archive(strings: [String]?) throws -> Data {
        let object: Any = strings.map { $0 as NSArray } ?? NSNull()
        return try NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: false)
    }

    public static func molten(_ path: String, formats: URL) throws {
        fresh(path)
        let bundle = try ModelBundle(at: formats.appendingPathComponent("legacy/Molten.xcdatamodeld").path)
        let model = try bundle.load(try bundle.version(named: "Molten 5"))
        let store = try CoreDataStoreBuilder(path: path, model: model, identifiers: ["5"])
        let bowl = try store.insert("ProjectPlan", [
            "id": uuid("A0A0A0A0-1111-4222-8333-444444444444"), "title": "Frit bowl", "summary": "Fused and slumped, 8 inch",
            "plan_type": "recipe", "difficulty_level": "intermediate", "estimated_time": 5400, "times_used": 3, "is_archived": 0,
            "date_created": date("2025-06-01T10:00:00Z"), "date_modified": date("2025-08-15T18:20:00Z"),
            "glass_items_data": try archive(json: #"[{"naturalKey":"be-0100-0","quantity":0.5,"unit":"grams","id":"A1A1A1A1-1111-4222-8333-444444444444","notes":"base layer"},{"stableId":"cim-511101-0","quantity":"2.3","unit":"oz","id":"A2A2A2A2-1111-4222-8333-444444444444"},{"freeformDescription":"coarse frit mix, greens","quantity":120,"unit":"grams","id":"A3A3A3A3-1111-4222-8333-444444444444"}]"#),
            "reference_urls_data": try archive(json: #"[{"url":"https:\/\/example.com\/slumping-schedules","title":"Slumping schedules","description":"Kiln notes","dateAdded":771000000,"id":"A4A4A4A4-1111-4222-8333-444444444444"}]"#),
            "tags": try archive(strings: ["fusing", "kiln"]),
        ])
        let cut = try store.insert("ProjectStep", [
            "id": uuid("A5A5A5A5-1111-4222-8333-444444444444"), "title": "Cut the base", "step_description": "Two circles of black",
            "order_index": 0, "estimated_minutes": 30, "plan": bowl,
            "glass_items_needed_data": try archive(json: #"[{"naturalKey":"be-0100-0","quantity":0.5,"unit":"grams","id":"A6A6A6A6-1111-4222-8333-444444444444"}]"#),
        ])
        _ = cut
        try store.insert("ProjectStep", [
            "id": uuid("A7A7A7A7-1111-4222-8333-444444444444"), "title": "Full fuse, then slump", "order_index": 1,
            "estimated_minutes": 720, "plan": bowl, "glass_items_needed_data": try archive(json: "[]"),
        ])
        try store.insert("ProjectImage", [
            "id": uuid("A8A8A8A8-1111-4222-8333-444444444444"), "file_extension": "heic", "caption": "After the slump",
            "order_index": 0, "date_added": date("2025-08-15T18:00:00Z"), "plan": bowl,
        ])
        let marble = try store.insert("ProjectPlan", [
            "id": uuid("A9A9A9A9-1111-4222-8333-444444444444"), "title": "Marble", "plan_type": "idea", "times_used": 0, "is_archived": 1,
            "date_created": date("2025-07-04T09:00:00Z"), "tags": try archive(strings: nil),
        ])
        _ = marble
        let fish = try store.insert("ProjectLog", [
            "id": uuid("AAAAAAAA-1111-4222-8333-444444444444"), "title": "Fish #1", "notes": "Sold at the October market",
            "project_date": date("2025-10-21T15:00:00Z"), "date_created": date("2025-10-21T15:00:00Z"),
            "date_modified": date("2025-10-25T12:00:00Z"), "status": "sold", "hours_spent": 2.5, "price_point": 45,
            "based_on_plan_id": uuid("E0E0E0E0-1111-4222-8333-444444444444"),
            "glass_items_data": try archive(json: #"[{"naturalKey":"be-0100-0","quantity":0.5,"unit":"rods","notes":"for the body","id":"C0C0C0C0-1111-4222-8333-444444444444"},{"unit":"oz","naturalKey":"ef-591204-0","quantity":2.3,"id":"C1C1C1C1-1111-4222-8333-444444444444"}]"#),
            "techniques_used": try archive(strings: ["flamework", "fuming"]), "tags": try archive(strings: ["boro", "sculpture"]),
        ])
        try store.insert("ProjectImage", [
            "id": uuid("ABABABAB-1111-4222-8333-444444444444"), "file_extension": "jpg", "order_index": 0,
            "date_added": date("2025-10-21T16:00:00Z"), "log": fish,
        ])
        try store.insert("ProjectLog", [
            "id": uuid("ACACACAC-1111-4222-8333-444444444444"), "title": "Bowl, second firing", "status": "in_progress",
            "project_date": date("2025-08-20T10:00:00Z"), "date_created": date("2025-08-20T10:00:00Z"),
            "based_on_plan_id": uuid("A0A0A0A0-1111-4222-8333-444444444444"), "techniques_used": try archive(strings: nil),
            "tags": try archive(strings: []),
        ])
        try store.finish(storeUUID: "7E1F0000-0000-4000-8000-00000000A001")
    }

    public static func forager(_ path: String, formats: URL) throws {
        fresh(path)
        let model = try ModelParser().parse(contentsOf: formats.appendingPathComponent("legacy/Forager.xcdatamodel/contents").path)
        let store = try CoreDataStoreBuilder(path: path, model: model)
        let weeknight = try store.insert("Tag", ["id": uuid("F1000000-1111-4222-8333-444444444444"), "name": "weeknight", "color": "#34C759"])
        let vegetarian = try store.insert("Tag", ["id": uuid("F2000000-1111-4222-8333-444444444444"), "name": "vegetarian", "color": "#30B0C7"])
        let dal = try store.insert("Recipe", [
            "id": uuid("F3000000-1111-4222-8333-444444444444"), "title": "Red lentil dal", "servings": 4, "prepTime": 10,
            "cookTime": 25, "instructions": "Rinse lentils.\nSimmer with turmeric until soft.\nTemper spices in ghee and stir in.",
            "usageCount": 7, "lastUsed": date("2025-10-18T18:30:00Z"), "isFavorite": 1, "sourceURL": "https://example.com/recipes/red-lentil-dal",
            "dateCreated": date("2025-03-02T12:00:00Z"),
        ])
        for (index, line) in [("1 cup red lentils", "red lentils", 1.0, "cup"), ("1 tsp turmeric", "turmeric", 1.0, "tsp"),
                              ("2 tbsp ghee", "ghee", 2.0, "tbsp"), ("salt to taste", "salt", nil, nil)].enumerated() {
            try store.insert("Ingredient", [
                "id": uuid(String(format: "F4%06d-1111-4222-8333-444444444444", index)), "displayText": line.0, "name": line.1,
                "numericValue": line.2, "standardUnit": line.3, "sortOrder": index, "recipe": dal,
            ])
        }
        let toast = try store.insert("Recipe", [
            "id": uuid("F5000000-1111-4222-8333-444444444444"), "title": "Tomato toast", "servings": 1, "prepTime": 5, "cookTime": 3,
            "usageCount": 0, "isFavorite": 0, "dateCreated": date("2025-09-10T08:00:00Z"),
        ])
        try store.insert("Ingredient", [
            "id": uuid("F6000000-1111-4222-8333-444444444444"), "displayText": "2 slices sourdough", "name": "sourdough",
            "numericValue": 2.0, "sortOrder": 0, "recipe": toast,
        ])
        try store.link("Recipe", dal, "tags", to: [weeknight, vegetarian])
        try store.link("Recipe", toast, "tags", to: [vegetarian])
        for (index, item) in [("Oat milk", "Dairy & alternatives", 1), ("Red lentils", "Pantry", 1), ("Limes", "Produce", 0)].enumerated() {
            try store.insert("GroceryItem", [
                "id": uuid(String(format: "F7%06d-1111-4222-8333-444444444444", index)), "name": item.0, "category": item.1,
                "isStaple": item.2, "dateCreated": date("2025-09-01T09:00:00Z"),
                "lastPurchased": item.2 == 1 ? date("2025-10-19T11:00:00Z") : nil,
            ])
        }
        try store.insert("WeeklyList", [
            "id": uuid("F8000000-1111-4222-8333-444444444444"), "name": "Week of Oct 20", "notes": "Farmers market Saturday",
            "isCompleted": 0, "dateCreated": date("2025-10-19T20:00:00Z"),
        ])
        try store.finish(storeUUID: "7E1F0000-0000-4000-8000-00000000F001")
    }

    public static func photoApp(_ path: String, formats: URL) throws {
        fresh(path)
        let model = try ModelParser().parse(contentsOf: formats.appendingPathComponent("legacy/PhotoApp.xcdatamodel/contents").path)
        let store = try CoreDataStoreBuilder(path: path, model: model)
        let morning = try store.insert("SwipeSession", [
            "sessionID": uuid("0B000000-1111-4222-8333-444444444444"), "startTime": date("2025-10-12T08:00:00Z"),
            "endTime": date("2025-10-12T08:04:30Z"), "photosProcessed": 3,
        ])
        let evening = try store.insert("SwipeSession", [
            "sessionID": uuid("0C000000-1111-4222-8333-444444444444"), "startTime": date("2025-10-12T21:15:00Z"), "photosProcessed": 2,
        ])
        let actions: [(String, String, String, Int, Int64)] = [
            ("8F3C2E1A-0D4B-4C5E-9F6A-7B8C9D0E1F2A/L0/001", "favorite", "2025-10-12T08:00:40Z", 1, morning),
            ("1A2B3C4D-5E6F-4A7B-8C9D-0E1F2A3B4C5D/L0/001", "trash", "2025-10-12T08:01:10Z", 1, morning),
            ("2B3C4D5E-6F7A-4B8C-9D0E-1F2A3B4C5D6E/L0/001", "keep", "2025-10-12T08:03:55Z", 1, morning),
            ("3C4D5E6F-7A8B-4C9D-8E0F-2A3B4C5D6E7F/L0/001", "trash", "2025-10-12T21:15:20Z", 0, evening),
            ("4D5E6F7A-8B9C-4DAE-9F01-3B4C5D6E7F80/L0/001", "favorite", "2025-10-12T21:16:05Z", 0, evening),
        ]
        for action in actions {
            try store.insert("PhotoAction", ["photoIdentifier": action.0, "action": action.1, "timestamp": date(action.2),
                                             "isProcessed": action.3, "session": action.4])
        }
        try store.insert("UserPreferences", ["autoProcessActions": 1, "enableHapticFeedback": 0, "swipeThreshold": 0.35,
                                             "lastSyncDate": date("2025-10-12T21:20:00Z")])
        try store.finish(storeUUID: "7E1F0000-0000-4000-8000-00000000B001")
    }

    /// BrewGuide's SwiftData model, as its `@Model` classes declare it.
    static var brewGuideModel: DataModel {
        func attribute(_ name: String, _ type: AttributeType) -> AttributeDescription { AttributeDescription(name: name, type: type) }
        func relationship(_ name: String, _ destination: String, inverse: String, toMany: Bool) -> RelationshipDescription {
            var relationship = RelationshipDescription(name: name, destination: destination)
            relationship.inverseName = inverse
            relationship.isToMany = toMany
            return relationship
        }
        var recipe = EntityDescription(name: "Recipe")
        recipe.attributes = [attribute("id", .uuid), attribute("isStarter", .boolean), attribute("origin", .string), attribute("method", .string),
                             attribute("name", .string), attribute("defaultDose", .double), attribute("defaultTargetYield", .double),
                             attribute("defaultWaterTemperature", .double), attribute("defaultGrindLabel", .string),
                             attribute("grindTactileDescriptor", .string), attribute("createdAt", .date), attribute("modifiedAt", .date)]
        recipe.relationships = [relationship("steps", "RecipeStep", inverse: "recipe", toMany: true),
                                relationship("brewLogs", "BrewLog", inverse: "recipe", toMany: true)]
        var step = EntityDescription(name: "RecipeStep")
        step.attributes = [attribute("stepId", .uuid), attribute("orderIndex", .integer64), attribute("instructionText", .string),
                           attribute("timerDurationSeconds", .double), attribute("waterAmountGrams", .double),
                           attribute("isCumulativeWaterTarget", .boolean)]
        step.relationships = [relationship("recipe", "Recipe", inverse: "steps", toMany: false)]
        var log = EntityDescription(name: "BrewLog")
        log.attributes = [attribute("id", .uuid), attribute("timestamp", .date), attribute("method", .string),
                          attribute("recipeNameAtBrew", .string), attribute("doseGrams", .double), attribute("targetYieldGrams", .double),
                          attribute("waterTemperatureCelsius", .double), attribute("grindLabel", .string), attribute("rating", .integer64),
                          attribute("tasteTag", .string), attribute("note", .string)]
        log.relationships = [relationship("recipe", "Recipe", inverse: "brewLogs", toMany: false)]
        return DataModel(file: "BrewGuide (SwiftData)", versionName: nil, entities: [recipe, step, log])
    }

    public static func brewGuide(_ path: String) throws {
        fresh(path)
        let store = try CoreDataStoreBuilder(path: path, model: brewGuideModel)
        let recipe = try store.insert("Recipe", [
            "id": uuid("BC000000-1111-4222-8333-444444444444"), "isStarter": 0, "origin": "conflicted_copy", "method": "v60",
            "name": "V60 Balanced (iPad copy)", "defaultDose": 15.0, "defaultTargetYield": 250.0, "defaultWaterTemperature": 94.0,
            "defaultGrindLabel": "medium", "grindTactileDescriptor": "sand; slightly finer than sea salt",
            "createdAt": date("2025-10-02T06:30:00Z"), "modifiedAt": date("2025-10-03T06:35:00Z"),
        ])
        for (index, step) in [("Rinse filter and preheat", nil as Double?, nil as Double?, 1), ("Bloom", 45.0, 45.0, 0),
                              ("Pour to 250g", 120.0, 250.0, 1)].enumerated() {
            try store.insert("RecipeStep", [
                "stepId": uuid(String(format: "BD%06d-1111-4222-8333-444444444444", index)), "orderIndex": index,
                "instructionText": step.0, "timerDurationSeconds": step.1, "waterAmountGrams": step.2,
                "isCumulativeWaterTarget": step.3, "recipe": recipe,
            ])
        }
        try store.insert("BrewLog", [
            "id": uuid("BE000000-1111-4222-8333-444444444444"), "timestamp": date("2025-10-04T07:10:00Z"), "method": "v60",
            "recipeNameAtBrew": "V60 Balanced (iPad copy)", "doseGrams": 15.0, "targetYieldGrams": 250.0,
            "waterTemperatureCelsius": 94.0, "grindLabel": "medium", "rating": 3, "tasteTag": "too_bitter", "recipe": recipe,
        ])
        try store.insert("BrewLog", [
            "id": uuid("BF000000-1111-4222-8333-444444444444"), "timestamp": date("2025-10-05T07:05:00Z"), "method": "v60",
            "recipeNameAtBrew": "Hotel room pour-over", "doseGrams": 12.0, "targetYieldGrams": 200.0,
            "waterTemperatureCelsius": 90.0, "grindLabel": "coarse", "rating": 2, "note": "No scale, guessed",
        ])
        try store.finish(storeUUID: "7E1F0000-0000-4000-8000-00000000BB01")
    }
}
