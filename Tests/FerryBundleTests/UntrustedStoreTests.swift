import FerryStore
import FerryTestSupport
import Foundation
import GRDB
import Testing

/// The check of a bundled store runs in parts side by side (each table, the whole file's pages,
/// the references); each kind of damage is still found.
@Suite struct UntrustedStoreTests {
    let directory = TemporaryDirectory("ferry-untrusted")

    func store(_ name: String) throws -> String {
        try BundleFixtures.sampleStore(at: directory.url.appendingPathComponent(name).path)
    }

    func refusal(_ path: String) -> String? {
        do {
            _ = try UntrustedStore.check(path)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func aSoundStoreIsCountedWhole() throws {
        let path = try store("sound.ferry")
        let (version, counts) = try UntrustedStore.check(path)
        #expect(version == CanonicalStore.schemaVersion)
        let expected = try DatabaseQueue(path: path).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM log") }
        #expect(counts["log"] == expected)
        #expect((counts["log"] ?? 0) > 0)
    }

    /// A bundled file in WAL mode (an older Ferry's export of a WAL store, or anyone's) has no
    /// shared index beside it: the checks opening it side by side must not race to build one.
    @Test func aFileInWALModeIsCheckedWithoutLockErrors() throws {
        let path = try store("wal.ferry")
        try DatabaseQueue(path: path).writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = WAL") }
        let header = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)).prefix(20))
        #expect(header[18] == 2, "the file is in WAL mode")
        for run in 0..<25 {
            #expect(refusal(path) == nil, "run \(run)")
        }
    }

    /// A page that belongs to no b-tree: only a pass over the whole file sees it.
    @Test func aPageInNoTreeIsRefused() throws {
        let path = try store("stray.ferry")
        let pageSize = try DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "PRAGMA page_size")! }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        bytes += [UInt8](repeating: 0, count: pageSize)
        let pages = UInt32(bytes.count / pageSize)
        for offset in 0..<4 { bytes[28 + offset] = UInt8(truncatingIfNeeded: pages >> (24 - 8 * offset)) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let refused = try #require(refusal(path))
        #expect(refused.contains("Page \(pages)") && refused.contains("never used"), "\(refused)")
    }

    @Test func aSnapshotWithoutItsLogIsRefused() throws {
        let path = try store("dangling.ferry")
        let dangling = try DatabaseQueue(path: path).writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(sql: "DELETE FROM log WHERE id = (SELECT log_id FROM log_snapshot LIMIT 1)")
            return try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").count
        }
        let refused = try #require(refusal(path))
        // Every dangling row counted (they are counted one by one, not gathered), the first named.
        #expect(dangling >= 1)
        #expect(refused.contains("\(dangling) rows refer to missing rows, first in log_snapshot"), "\(refused)")
    }
}
