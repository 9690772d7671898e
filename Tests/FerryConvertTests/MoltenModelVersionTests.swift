import FerryCanonical
@testable import FerryConvert
import FerryCoreData
import FerryJSON
import FerryModel
import FerryStore
import FerryTestSupport
import FerryTestTraits
import FerryArchive
import Foundation
import GRDB
import Testing

/// Stores in the glass-art app's real later models (from its public repository): version 6,
/// where child entities replaced the Transformable blobs, and version 9, where `ProjectPlan`
/// became `Project` and `ProjectLog` became `Logbook`. The same plan and log must arrive the
/// same way as from the blobs of version 5.
@Suite struct MoltenModelVersionTests {
    let directory = TemporaryDirectory("ferry-molten-versions")
    static func corpusModel(_ version: Int) -> String {
        TestPaths.corpus.appendingPathComponent("seedapps/molten/Molten\(version)__contents.xml").path
    }

    static let plan = "A0A0A0A0-1111-4222-8333-444444444444", log = "B0B0B0B0-1111-4222-8333-444444444444"

    /// Builds a store in `version`'s model with a plan (two glass items, a step with one, a
    /// reference URL, a tag) and a log based on it (one glass item, a tag, two techniques).
    func store(version: Int) throws -> String {
        let path = directory.url.appendingPathComponent("Molten\(version).sqlite").path
        let model = try ModelParser().parse(contentsOf: Self.corpusModel(version))
        let builder = try CoreDataStoreBuilder(path: path, model: model, identifiers: ["\(version)"])
        let (planEntity, logEntity) = version >= 9 ? ("Project", "Logbook") : ("ProjectPlan", "ProjectLog")
        let (planItem, logItem, reference) = version >= 9
            ? ("ProjectGlassItem", "LogbookGlassItem", "ProjectReferenceUrl")
            : ("ProjectPlanGlassItem", "ProjectLogGlassItem", "ProjectPlanReferenceUrl")
        var planValues: [String: (any DatabaseValueConvertible)?] = [
            "id": CoreDataStoreBuilder.uuid(Self.plan), "title": "Boro fish", "summary": "Standard pattern", "times_used": 2,
            "estimated_time": 3600, "coe": "33", "price_currency": "USD", "proposed_price_min": 25, "proposed_price_max": 40.5,
            "date_created": CoreDataStoreBuilder.date("2025-09-02T14:30:00Z"),
        ]
        planValues[version >= 9 ? "project_type" : "plan_type"] = "recipe"
        let planKey = try builder.insert(planEntity, planValues)
        var second: [String: (any DatabaseValueConvertible)?] = ["id": CoreDataStoreBuilder.uuid("C1C1C1C1-1111-4222-8333-444444444444"),
                                                                  "itemNaturalKey": "ef-591204-0", "quantity": 2.3, "orderIndex": 1, "plan": planKey]
        var first: [String: (any DatabaseValueConvertible)?] = ["id": CoreDataStoreBuilder.uuid("C0C0C0C0-1111-4222-8333-444444444444"),
                                                                 "itemNaturalKey": "be-0100-0", "quantity": 0.5, "notes": "for the body",
                                                                 "orderIndex": 0, "plan": planKey]
        if version >= 9 {
            first["unit"] = "rods"
            second["unit"] = "oz"
            second["item_stable_id"] = "ef-591204-0"
        }
        try builder.insert(planItem, second)
        try builder.insert(planItem, first)
        try builder.insert(reference, ["id": CoreDataStoreBuilder.uuid("D0D0D0D0-1111-4222-8333-444444444444"), "url": "https://example.com/fish",
                                       "title": "Fish tutorial", "urlDescription": "video", "orderIndex": 0, "plan": planKey])
        let step = try builder.insert("ProjectStep", ["id": CoreDataStoreBuilder.uuid("E1E1E1E1-1111-4222-8333-444444444444"),
                                                      "title": "Gather", "step_description": "Gather clear", "order_index": 0,
                                                      "estimated_minutes": 15, "plan": planKey])
        var stepItem: [String: (any DatabaseValueConvertible)?] = ["id": CoreDataStoreBuilder.uuid("C2C2C2C2-1111-4222-8333-444444444444"),
                                                                    "quantity": 1, "orderIndex": 0, "step": step]
        if version >= 9 { stepItem["freeformDescription"] = "any dark transparent" } else { stepItem["itemNaturalKey"] = "be-0100-0" }
        try builder.insert("ProjectStepGlassItem", stepItem)
        let logKey = try builder.insert(logEntity, [
            "id": CoreDataStoreBuilder.uuid(Self.log), "title": "Fish #1", "status": "sold", "hours_spent": 2.5, "price_point": 45,
            "based_on_plan_id": CoreDataStoreBuilder.uuid(Self.plan), "project_date": CoreDataStoreBuilder.date("2025-10-21T15:00:00Z"),
        ])
        try builder.insert(logItem, ["id": CoreDataStoreBuilder.uuid("C3C3C3C3-1111-4222-8333-444444444444"), "itemNaturalKey": "be-0100-0",
                                     "quantity": 0.5, "orderIndex": 0, "log": logKey])
        for (index, name) in ["flamework", "fuming"].enumerated() {
            try builder.insert("ProjectTechnique", ["id": CoreDataStoreBuilder.uuid("F\(index)F0F0F0-1111-4222-8333-444444444444"),
                                                    "technique": name, "log": logKey])
        }
        if version < 9 {
            try builder.insert("ProjectTag", ["id": CoreDataStoreBuilder.uuid("F5F5F5F5-1111-4222-8333-444444444444"), "tag": "boro", "plan": planKey])
            try builder.insert("ProjectTag", ["id": CoreDataStoreBuilder.uuid("F6F6F6F6-1111-4222-8333-444444444444"), "tag": "sold", "log": logKey])
        }
        try builder.finish()
        return path
    }

    func convert(version: Int) throws -> (DatabaseQueue, ConversionReport) {
        let store = directory.url.appendingPathComponent("v\(version).ferry").path
        let options = ConversionOptions(model: Self.corpusModel(version), openArchive: ArchiveReader.opener)
        let report = try ConversionJob(inputs: [try self.store(version: version)], store: store, options: options).run()
        return (try DatabaseQueue(path: store), report)
    }

    @Test(.needsCorpus, arguments: [6, 9]) func childEntitiesBecomeOrderedRows(version: Int) throws {
        let (queue, report) = try convert(version: version)
        defer { try? queue.close() }
        #expect(report.rejected.isEmpty)
        try queue.read { db in
            let recipe = try #require(try Row.fetchOne(db, sql: "SELECT * FROM recipe WHERE id = ?", arguments: [Self.plan]))
            #expect(recipe["kind"] as String? == "glass")
            #expect(recipe["title"] as String? == "Boro fish")
            #expect(recipe["category"] as String? == "recipe")
            #expect(recipe["estimated_minutes"] as Double? == 60)
            #expect(recipe["usage_count"] as Int? == 2)
            let lines = try Row.fetchAll(db, sql: "SELECT catalog_key, quantity, unit, notes, extras FROM material_line WHERE recipe_id = ? ORDER BY position",
                                         arguments: [Self.plan])
            #expect(lines.map { $0["catalog_key"] as String? } == ["be-0100-0", "ef-591204-0"])
            #expect(lines.map { $0["quantity"] as String? } == ["0.5", "2.3"])
            #expect(lines.map { $0["unit"] as String? } == (version >= 9 ? ["rods", "oz"] : [nil, nil]))
            let leftovers: [String] = lines.map { $0["extras"] }
            #expect(leftovers.allSatisfy { $0 == "{}" }, "no child row field is left over: \(leftovers)")
            let stepLines = try Row.fetchAll(db, sql: """
                SELECT m.catalog_key, m.description FROM material_line m JOIN recipe_step s ON s.id = m.recipe_step_id WHERE s.recipe_id = ?
                """, arguments: [Self.plan])
            #expect(stepLines.count == 1)
            #expect((stepLines.first?["description"] as String?) == (version >= 9 ? "any dark transparent" : nil))
            let links = try Row.fetchAll(db, sql: "SELECT url, title, description FROM reference_link WHERE recipe_id = ?", arguments: [Self.plan])
            #expect(links.map { $0["description"] as String? } == ["video"])
            let parameters = try Row.fetchAll(db, sql: "SELECT name, value, text_value, unit FROM recipe_parameter WHERE recipe_id = ? ORDER BY position",
                                              arguments: [Self.plan])
            #expect(parameters.map { $0["name"] as String } == ["coe", "priceMin", "priceMax"])
            #expect(parameters.map { $0["unit"] as String? } == ["COE", "USD", "USD"])
            let log = try #require(try Row.fetchOne(db, sql: "SELECT * FROM log WHERE id = ?", arguments: [Self.log]))
            #expect(log["recipe_id"] as String? == Self.plan)
            #expect(log["outcome"] as String? == "sold")
            #expect(log["duration_seconds"] as Double? == 9000)
            // The log has no times of its own in this store: the file's stand in, marked.
            #expect(log["extras"] as String? == #"{"price_point":45,"synthesizedTimes":{"created_at":"modification time of Molten\#(version).sqlite","modified_at":"modification time of Molten\#(version).sqlite"}}"#)
            let techniques = try String.fetchAll(db, sql: """
                SELECT t.name FROM log_technique j JOIN technique t ON t.id = j.technique_id WHERE j.log_id = ? ORDER BY j.position
                """, arguments: [Self.log])
            #expect(techniques == ["flamework", "fuming"])
            let snapshot = try #require(try Row.fetchOne(db, sql: "SELECT * FROM log_snapshot WHERE log_id = ?", arguments: [Self.log]))
            #expect(snapshot["title"] as String? == "Boro fish")
            #expect(snapshot["is_reconstructed"] as Bool? == true)
            if version < 9 {
                let tags = try String.fetchAll(db, sql: "SELECT t.name FROM recipe_tag j JOIN tag t ON t.id = j.tag_id WHERE j.recipe_id = ?",
                                               arguments: [Self.plan])
                #expect(tags == ["boro"])
            }
        }
        // Every child row was taken by its parent: none is reported as left over.
        #expect(!report.warnings.contains { $0.contains("GlassItem") || $0.contains("ReferenceUrl") || $0.contains("Technique") || $0.contains("Tag row") },
                "\(report.warnings)")
    }

    /// Plans and logs are streamed and their children read with them, so that nothing but the
    /// catalog is held; a child no plan or log holds is still reported, not dropped.
    @Test(.needsCorpus, arguments: [6, 9]) func childrenAreReadWithTheirOwnerAndOrphansReported(version: Int) throws {
        let path = try store(version: version)
        let model = try ModelParser().parse(contentsOf: Self.corpusModel(version))
        let orphan = try DatabaseQueue(path: path)
        try orphan.write { db in
            let number = try Int.fetchOne(db, sql: "SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'ProjectStep'") ?? 0
            try db.execute(sql: "INSERT INTO ZPROJECTSTEP (Z_PK, Z_ENT, Z_OPT, ZTITLE) VALUES (99, ?, 1, 'nobody''s')", arguments: [number])
        }
        try orphan.close()
        let reader = try CoreDataStoreReader(path: path, model: Self.corpusModel(version))
        let children = MoltenStoreReader.children(in: model)
        #expect(children.isSuperset(of: ["ProjectStep", "ProjectStepGlassItem", "ProjectTechnique", "ProjectImage"]))
        let index = try CoreDataRecordIndex(reader: reader, streaming: MoltenStoreReader.streamedEntities, inlining: children)
        #expect(index.records.isEmpty, "\(index.records.map(\.entity))")
        var steps: [JSONValue] = []
        try index.forEachRecord(of: MoltenStoreReader.plans) { record in steps += record.values["steps"]?.array ?? [] }
        #expect(steps.compactMap { $0.object?["title"]?.string } == ["Gather"])
        #expect(steps.first?.object?["glassItems"]?.array?.count == 1)

        let target = directory.url.appendingPathComponent("orphan\(version).ferry").path
        let options = ConversionOptions(model: Self.corpusModel(version), openArchive: ArchiveReader.opener)
        let report = try ConversionJob(inputs: [path], store: target, options: options).run()
        #expect(report.counts["recipe_step"] == 1)
        #expect(report.warnings.contains { $0.hasSuffix("1 ProjectStep row not converted: molten ProjectStep has no canonical home") }, "\(report.warnings)")
    }
}
