import FerryArchive
@testable import FerryBundle
import FerryStore
import FerryTestSupport
import Foundation
import GRDB
import Testing

/// Bundles of format 1 (each table one file, tag files first), as the Ferry of that format wrote
/// them (`Tests/Fixtures/Bundles`): this Ferry still verifies and imports them, and still finds
/// any change to them.
@Suite struct BundleFormatOneTests {
    let directory = TemporaryDirectory("ferry-bundle-v1")
    static let fixtures = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/Bundles")
    static let bundles = ["v1-samples.tar.zst", "v1-samples-no-view.zip"]

    func path(_ name: String) -> String { directory.url.appendingPathComponent(name).path }

    @Test(arguments: bundles)
    func aFormatOneBundleVerifiesAndImportsWithEveryRowOfItsTables(name: String) throws {
        let bundle = Self.fixtures.appendingPathComponent(name).path
        let entries = try BundleFixtures.entries(of: bundle)
        let description = try #require(entries.first { $0.name.hasSuffix("/bundle.json") })
        #expect(String(decoding: description.bytes, as: UTF8.self).contains("\"ferry.bundle/1\""))

        let verification = try BundleVerifier().verify(bundle)
        #expect(verification.problems == [])
        #expect(verification.counts["recipe"] == 8 && verification.counts["log"] == 14)

        let imported = path("imported-\(name).ferry")
        let result = try BundleImporter().importBundle(bundle, into: imported)
        #expect(result.counts == verification.counts)
        #expect(try StoreFixtures.integrityProblems(imported) == [])
        // The imported store holds every row the bundle's own NDJSON lists.
        let queue = try DatabaseQueue(path: imported)
        var tables = 0
        for entry in entries where entry.name.contains("/data/tables/") {
            let table = ((entry.name as NSString).lastPathComponent as NSString).deletingPathExtension
            let ids = String(decoding: entry.bytes, as: UTF8.self).split(separator: "\n").compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? String
            }
            let count = try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM \(table)") ?? -1 }
            #expect(String(decoding: entry.bytes, as: UTF8.self).split(separator: "\n").count == count, "\(table)")
            for id in ids {
                #expect(try queue.read { try Bool.fetchOne($0, sql: "SELECT 1 FROM \(table) WHERE id = ?", arguments: [id]) } == true, "\(table) \(id)")
            }
            tables += 1
        }
        #expect(tables == CanonicalTables.all.count)
        try queue.close()
    }

    @Test func aFormatOneBundleMergesIntoAStore() throws {
        let target = try BundleFixtures.sampleStore(at: path("target.ferry"))
        try StoreFixtures.inflate(target, logs: 5)
        let result = try BundleImporter(merge: true).importBundle(Self.fixtures.appendingPathComponent(Self.bundles[0]).path, into: target)
        #expect(result.merged && result.counts["log"] == 14)
        #expect(try DatabaseQueue(path: target).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM log") } == 19)
    }

    /// Flipped bits anywhere (a sample of offsets, and every bit of the seal), and a table file
    /// re-packed with a changed value, are found in a format 1 bundle as in a new one.
    @Test func aChangeToAFormatOneBundleIsFound() throws {
        let bundle = Self.fixtures.appendingPathComponent(Self.bundles[0]).path
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: bundle)))
        let flipped = path("flipped.tar.zst")
        var offsets = Array(stride(from: 0, to: original.count, by: max(1, original.count / 150)))
        offsets += (original.count - 90)..<original.count
        for offset in offsets {
            var bytes = original
            bytes[offset] ^= UInt8(1 << (offset % 8))
            try Data(bytes).write(to: URL(fileURLWithPath: flipped))
            let problems = (try? BundleVerifier().verify(flipped).problems) ?? [BundleProblem(.unreadable, nil, "thrown")]
            #expect(!problems.isEmpty, "byte \(offset)")
        }

        let changed = path("changed.tar")
        try BundleFixtures.repacked(bundle, to: changed, changing: "/recipe.ndjson")
        let problems = try BundleVerifier().verify(changed).problems
        #expect(problems.contains { $0.kind == .corrupt && $0.path == "data/tables/recipe.ndjson" }, "\(problems)")
    }
}
