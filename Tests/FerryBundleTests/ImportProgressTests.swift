import FerryArchive
import FerryBundle
import FerryStore
import FerryTestSupport
import Foundation
import GRDB
import Testing

/// What an import reports as it goes: the archive file's bytes as they are unpacked, then each
/// part of the bundled store's check.
@Suite struct ImportProgressTests {
    let directory = TemporaryDirectory("ferry-import-progress")

    func path(_ name: String) -> String { directory.url.appendingPathComponent(name).path }

    @Test(arguments: ArchiveFormat.allCases)
    func progressFollowsTheArchiveThenTheCheck(format: ArchiveFormat) throws {
        let (store, bundle) = try BundleFixtures.exportedSamples(in: directory, format: format, name: "source-\(format.rawValue)")
        let size = Int64(try Data(contentsOf: URL(fileURLWithPath: bundle)).count)

        let updates = ProgressUpdates()
        let result = try BundleImporter(progress: { updates.add($0) }).importBundle(bundle, into: path("imported-\(format.rawValue).ferry"))
        #expect(result.counts["log"] ?? 0 > 0)

        let unpacking = updates.of(.unpack)
        #expect(unpacking.first?.done == 0)
        #expect(unpacking.allSatisfy { $0.total == size && $0.done <= size })
        #expect(zip(unpacking, unpacking.dropFirst()).allSatisfy { $0.done <= $1.done })
        // libarchive reads the file in blocks; the last one read may stop short of the seal.
        #expect((unpacking.last?.done ?? 0) > size / 2, "\(unpacking.last.map { "\($0.done) of \(size)" } ?? "none")")

        // The whole file's pages, the references, and each table of the store.
        let tables = try DatabaseQueue(path: store).read { try CanonicalTables.largestFirst($0) }.count
        let checking = updates.of(.check)
        #expect(checking.map(\.done) == (0...Int64(tables + 2)).map { $0 })
        #expect(checking.allSatisfy { $0.total == Int64(tables + 2) })
        #expect(updates.all.firstIndex { $0.stage == .check }! > updates.all.lastIndex { $0.stage == .unpack }!)
    }
}
