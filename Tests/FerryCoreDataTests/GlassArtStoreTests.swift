import FerryJSON
import FerryCoreData
import FerryModel
import FerryTestSupport
import FerryTestTraits
import Foundation
import GRDB
import Testing

/// A store in the glass-art app's model-5 shape, built from its real model: Transformable
/// columns holding keyed archives, as `NSSecureUnarchiveFromDataTransformer` writes them,
/// of JSON bytes (glass items, reference URLs) and of string arrays (tags, techniques).
@Suite(.needsCorpus) struct GlassArtStoreTests {
    static let modelPath = TestPaths.corpus.appendingPathComponent("seedapps/molten/Molten5__contents.xml").path

    let directory = TemporaryDirectory()
    let storePath: String

    init() throws {
        storePath = directory.url.appendingPathComponent("Molten.sqlite").path
        let model = try ModelParser().parse(contentsOf: Self.modelPath)
        let builder = try CoreDataStoreBuilder(path: storePath, model: model)
        let glassItems = #"[{"naturalKey":"bullseye-clear-0","quantity":0.5,"unit":"rods","id":"C0C0C0C0-1111-4222-8333-444444444444","notes":"for the body"},{"stableId":"C1C1C1C1-1111-4222-8333-444444444444","naturalKey":"ef-591204-0","quantity":"2.3","unit":"oz"}]"#
        let urls = #"[{"url":"https:\/\/example.com\/boro-fish-tutorial","title":"Fish tutorial","dateAdded":782611200,"id":"D0D0D0D0-1111-4222-8333-444444444444"}]"#
        let plan = try builder.insert("ProjectPlan", [
            "id": CoreDataStoreBuilder.uuid("A0A0A0A0-1111-4222-8333-444444444444"),
            "title": "Boro fish", "glass_items_data": try Self.archive(NSData(data: Data(glassItems.utf8))),
            "reference_urls_data": try Self.archive(NSData(data: Data(urls.utf8))),
            "tags": try Self.archive(["boro", "sculpture"] as NSArray), "times_used": 3,
            "date_created": CoreDataStoreBuilder.date("2025-10-20T08:30:00Z"), "is_archived": 0,
        ])
        let step = try builder.insert("ProjectStep", ["title": "Gather", "order_index": 0, "plan": plan,
                                                      "glass_items_needed_data": try Self.archive(NSData(data: Data("[]".utf8)))])
        _ = step
        try builder.insert("ProjectLog", [
            "id": CoreDataStoreBuilder.uuid("B0B0B0B0-1111-4222-8333-444444444444"), "title": "Fish #1",
            "techniques_used": try Self.archive(["flamework", "fuming"] as NSArray), "tags": try Self.archive(NSNull()),
            "hours_spent": 2.5, "price_point": 45, "based_on_plan_id": CoreDataStoreBuilder.uuid("A0A0A0A0-1111-4222-8333-444444444444"),
        ])
        try builder.finish()
    }

    static func archive(_ object: Any) throws -> Data {
        try NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: false)
    }

    private func records() throws -> [String: CoreDataRecord] {
        let reader = try CoreDataStoreReader(path: storePath, model: Self.modelPath)
        var result: [String: CoreDataRecord] = [:]
        try reader.forEachRecord { result[$0.entity] = $0 }
        return result
    }

    @Test(.needsCorpus) func transformableArraysDecode() throws {
        let plan = try #require(try records()["ProjectPlan"])
        let items = try #require(plan.values["glass_items_data"]?.array)
        #expect(items.count == 2)
        #expect(items[0]["naturalKey"] == "bullseye-clear-0" && items[0]["quantity"]?.number?.text == "0.5")
        #expect(items[1]["stableId"] == "C1C1C1C1-1111-4222-8333-444444444444" && items[1]["quantity"] == "2.3")
        #expect(plan.values["tags"] == ["boro", "sculpture"])
        #expect(plan.values["reference_urls_data"]?.array?.first?["url"] == "https://example.com/boro-fish-tutorial")
    }

    @Test(.needsCorpus) func techniquesAndNullTagsDecode() throws {
        let log = try #require(try records()["ProjectLog"])
        #expect(log.values["techniques_used"] == ["flamework", "fuming"])
        #expect(log.values["tags"] == .null)
        #expect(log.values["hours_spent"] == .double(2.5))
        #expect(log.values["based_on_plan_id"] == "A0A0A0A0-1111-4222-8333-444444444444")
    }

    @Test(.needsCorpus) func uuidAttributeNamedIdIsTheRecordId() throws {
        let all = try records()
        #expect(all["ProjectPlan"]?.id == "A0A0A0A0-1111-4222-8333-444444444444")
        #expect(all["ProjectStep"]?.values["plan"] == "A0A0A0A0-1111-4222-8333-444444444444")
        #expect(all["ProjectStep"]?.id == "ProjectStep/p1")
    }

    @Test(.needsCorpus) func typesAreDecoded() throws {
        let plan = try #require(try records()["ProjectPlan"])
        #expect(plan.values["date_created"] == "2025-10-20T08:30:00Z")
        #expect(plan.values["is_archived"] == false)
        #expect(plan.values["times_used"] == 3)
        #expect(plan.values["summary"] == .null)
        #expect(plan.values["steps"] == ["ProjectStep/p1"])
    }

    @Test func withoutModelOrCacheTheSchemaIsInferred() throws {
        let reader = try CoreDataStoreReader(path: storePath)
        #expect(reader.schemaSource == .inferred)
        #expect(CoreDataStoreReport(reader).schemaInferred)
        var plan: CoreDataRecord?
        try reader.forEachRecord(entity: "ProjectPlan") { plan = $0 }
        // Column names are upper case: inferred names are their lower case.
        #expect(plan?.values["title"] == "Boro fish")
        #expect(plan?.values["times_used"] == 3)
        // Blobs that are keyed archives are still decoded.
        #expect(plan?.values["glass_items_data"]?.array?.count == 2)
        #expect(plan?.values["tags"] == ["boro", "sculpture"])
    }
}
