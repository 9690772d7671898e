import FerryCanonical
import FerryConvert
import FerryTestSupport
import Foundation
import Testing

/// The DocC article "Embedding a conversion in an app at first launch" holds: its code converts an
/// app's legacy folder, and running it again at the next launch gives the same tables.
@Suite struct EmbeddingArticleTests {
    @Test func theArticlesCodeConvertsAndRunsAgainSafely() throws {
        let folder = TemporaryDirectory("ferry-embedding")
        let documents = folder.url
        try FileManager.default.copyItem(at: TestPaths.samples.appendingPathComponent("roots"), to: documents.appendingPathComponent("legacy"))
        let store = documents.appendingPathComponent("Converted.ferry").path
        let job = ConversionJob(inputs: [documents.appendingPathComponent("legacy").path], store: store,
                                options: ConversionOptions(from: .roots))
        let report = try job.run()
        #expect((report.counts["project"] ?? 0) > 0)
        #expect(report.synthesized.contains { $0.field == "created_at" })
        let first = try StoreFixtures.strings(store, "SELECT id || title FROM project ORDER BY id")
        _ = try job.run()
        #expect(try StoreFixtures.strings(store, "SELECT id || title FROM project ORDER BY id") == first)
    }
}
