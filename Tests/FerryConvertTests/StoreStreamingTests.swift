import FerryCoreData
@testable import FerryConvert
import FerryTestSupport
import Foundation
import Testing

/// The entities of a store that grow with use (BrewGuide's logs, PhotoApp's actions, Molten's
/// plans and logs) are read one row at a time, not held: the record index keeps only what is
/// looked up, and the conversion is the same (`StreamingConversionTests` holds the tables equal
/// for any batch size).
@Suite struct StoreStreamingTests {
    func index(_ relative: String, streaming: Set<String>, model: String? = nil) throws -> CoreDataRecordIndex {
        let reader = try CoreDataStoreReader(path: TestPaths.samples.appendingPathComponent(relative).path,
                                             model: model.map { TestPaths.formats.appendingPathComponent($0).path })
        return try CoreDataRecordIndex(reader: reader, streaming: streaming)
    }

    @Test func photoActionsAreStreamedAndSessionsHeld() throws {
        let index = try index("photoapp/PhotoApp.sqlite", streaming: PhotoAppStoreReader.streamedEntities, model: "legacy/PhotoApp.xcdatamodel")
        #expect(Set(index.records.map(\.entity)) == ["SwipeSession", "UserPreferences"])
        var actions = 0
        try index.forEachRecord(of: PhotoAppStoreReader.streamedEntities) { record in
            #expect(record.values["session"]?.string != nil)
            actions += 1
        }
        #expect(actions == 5)
        // A session does not list its actions: a library's worth of ids per session.
        #expect(index.records.allSatisfy { $0.values["actions"] == nil })
    }

    @Test func brewLogsAreStreamedAndRecipesHeld() throws {
        let index = try index("brewguide/BrewGuide.store", streaming: BrewGuideStoreReader.streamedEntities)
        #expect(!index.records.isEmpty)
        #expect(!index.records.contains { $0.entity == "BrewLog" })
    }
}
