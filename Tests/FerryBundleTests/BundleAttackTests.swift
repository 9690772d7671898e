import FerryArchive
import FerryConvert
@testable import FerryBundle
import FerryStore
import FerryTestSupport
import Foundation
import GRDB
import Testing

/// Hostile archives: each attack class is refused by `import` with nothing written outside its
/// staging folder and the target store untouched, and reported by `verify`.
@Suite struct BundleAttackTests {
    let directory = TemporaryDirectory("ferry-bundle-attack")
    /// A name no test creates: an attack that escaped staging would leave it behind.
    let escape = "ferry-escape-\(UUID().uuidString)"

    func path(_ name: String) -> String { directory.url.appendingPathComponent(name).path }

    struct Attack: CustomTestStringConvertible, Sendable {
        var name: String
        var kind: BundleProblem.Kind
        var detail: String
        var entries: @Sendable (String) -> [(String, TarBuilder.Kind, String)]
        var testDescription: String { name }
    }

    static let attacks: [Attack] = [
        Attack(name: "absolute path", kind: .unsafe, detail: "an absolute path") { [("/tmp/\($0)", .file, "")] },
        Attack(name: "climbing path", kind: .unsafe, detail: "climbs out") { [("small/../../\($0)", .file, "")] },
        Attack(name: "symbolic link", kind: .unsafe, detail: "a symbolic link") { [("small/data/link", .symbolicLink, "/tmp/\($0)")] },
        Attack(name: "hard link", kind: .unsafe, detail: "a hard link") { _ in [("small/data/hard", .hardLink, "/etc/passwd")] },
        Attack(name: "character device", kind: .unsafe, detail: "a device file") { _ in [("small/data/tty", .characterDevice, "")] },
        Attack(name: "block device", kind: .unsafe, detail: "a device file") { _ in [("small/data/disk", .blockDevice, "")] },
        Attack(name: "FIFO", kind: .unsafe, detail: "a FIFO") { _ in [("small/data/pipe", .fifo, "")] },
        Attack(name: "duplicate", kind: .unsafe, detail: "a duplicate entry") { _ in [("small/data/tables/recipe/000001.ndjson", .file, "")] },
        Attack(name: "case twin", kind: .unsafe, detail: "an alias of data/tables/recipe/000001.ndjson") { _ in
            [("small/data/tables/Recipe/000001.ndjson", .file, "")]
        },
        Attack(name: "Unicode twin", kind: .unsafe, detail: "an alias of data/caf\u{E9}.txt") { _ in
            [("small/data/caf\u{E9}.txt", .file, ""), ("small/data/cafe\u{301}.txt", .file, "")]
        },
        Attack(name: "dot alias", kind: .unsafe, detail: "an alias path") { _ in [("small/./data/store.sqlite", .file, "")] },
        Attack(name: "double slash", kind: .unsafe, detail: "an alias path") { _ in [("small//data/x", .file, "")] },
        Attack(name: "outside the bag", kind: .unsafe, detail: "outside the bag's top-level folder") { [("\($0)/x", .file, "")] },
        Attack(name: "not in the manifest", kind: .extra, detail: "in no manifest") { _ in [("small/data/\u{65E5}\u{672C}.txt", .file, "")] },
    ]

    /// A bundle of the sample recipes, and a target store with other data.
    func setUp() throws -> (bundle: String, target: String, before: TableContents) {
        try FileManager.default.createDirectory(atPath: path("work"), withIntermediateDirectories: true)
        let source = path("source.ferry")
        _ = try ConversionJob(inputs: [TestPaths.samples.appendingPathComponent("brewguide/recipes.json").path], store: source, options: ConversionOptions(openArchive: ArchiveReader.opener)).run()
        let bundle = path("small.tar.zst")
        _ = try BundleExporter().export(store: source, to: bundle)
        let target = try BundleFixtures.sampleStore(at: path("work/target.ferry"))
        return (bundle, target, try TableContents(path: target))
    }

    @Test(arguments: attacks)
    func eachAttackIsRefused(attack: Attack) throws {
        let (bundle, target, before) = try setUp()
        var tar = TarBuilder()
        for entry in try BundleFixtures.entries(of: bundle) { tar.add(entry.name, entry.bytes) }
        for (name, kind, link) in attack.entries(escape) { tar.add(name, Array("payload".utf8), kind: kind, link: link) }
        let hostile = path("hostile.tar")
        try Data(tar.archive).write(to: URL(fileURLWithPath: hostile))

        let problems = try BundleVerifier().verify(hostile).problems
        #expect(problems.contains { $0.kind == attack.kind && $0.detail.contains(attack.detail) }, "\(problems)")
        do {
            _ = try BundleImporter().importBundle(hostile, into: target)
            Issue.record("the import was not refused")
        } catch let error as BundleError {
            guard case .invalid(let refused) = error.kind else { Issue.record("\(error)"); return }
            #expect(refused.contains { $0.kind == attack.kind && $0.detail.contains(attack.detail) }, "\(refused)")
        }
        #expect(try TableContents(path: target) == before)
        #expect(StoreFixtures.listing(path("work")) == ["target.ferry"])
        #expect(!FileManager.default.fileExists(atPath: "/tmp/\(escape)"))
        #expect(!StoreFixtures.listing(directory.path).contains { $0.contains(escape) })
        #expect(!FileManager.default.fileExists(atPath: directory.url.deletingLastPathComponent().appendingPathComponent(escape).path))
    }

    /// Export checks the snapshot's structure on a read-only connection, where SQLite skips CHECK
    /// constraints; import must not: a bundle whose rows break them is refused.
    @Test func importRefusesRowsThatBreakACheckConstraint() throws {
        try FileManager.default.createDirectory(atPath: path("work"), withIntermediateDirectories: true)
        let store = try BundleFixtures.sampleStore(at: path("bad.ferry"))
        let queue = try DatabaseQueue(path: store)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
            try db.execute(sql: "UPDATE recipe SET extras = '{not json' WHERE rowid = (SELECT min(rowid) FROM recipe)")
        }
        try queue.close()
        let bundle = path("bad.tar.zst")
        _ = try BundleExporter().export(store: store, to: bundle)
        let target = try BundleFixtures.sampleStore(at: path("work/target.ferry"))
        let before = try TableContents(path: target)
        #expect {
            _ = try BundleImporter().importBundle(bundle, into: target)
        } throws: { error in
            "\(error)".contains("CHECK constraint failed in recipe")
        }
        #expect(try TableContents(path: target) == before)
        #expect(StoreFixtures.listing(path("work")) == ["target.ferry"])
    }

    @Test func aCompressionBombIsStoppedEarly() throws {
        let (bundle, target, before) = try setUp()
        let bomb = path("bomb.tar.zst")
        let writer = try ArchiveWriter(path: bomb, format: .tarZstd, modificationTime: 0)
        for entry in try BundleFixtures.entries(of: bundle) { try writer.addFile(named: entry.name, bytes: entry.bytes) }
        try writer.addFile(named: "small/data/zeros", bytes: [UInt8](repeating: 0, count: 48 << 20))
        try writer.finish()
        let size = try FileManager.default.attributesOfItem(atPath: bomb)[.size] as? Int ?? 0
        #expect(size < 100_000)
        do {
            _ = try BundleImporter().importBundle(bomb, into: target)
            Issue.record("the import was not refused")
        } catch let error as BundleError {
            #expect("\(error)".contains("compression bomb"), "\(error)")
        }
        #expect(try TableContents(path: target) == before)
        #expect(StoreFixtures.listing(path("work")) == ["target.ferry"])
    }

    @Test func entryCountAndSizeLimitsStopReading() throws {
        let (bundle, _, _) = try setUp()
        var few = BundleLimits()
        few.maxEntries = 5
        let counted = try BundleVerifier(limits: few).verify(bundle).problems
        #expect(counted.contains { $0.kind == .unsafe && $0.detail == "more than 5 entries; reading stopped" }, "\(counted)")
        var small = BundleLimits()
        small.maxTotalBytes = 50_000
        let sized = try BundleVerifier(limits: small).verify(bundle).problems
        #expect(sized.contains { $0.kind == .unsafe && $0.detail.contains("over the limit of 50000") }, "\(sized)")
    }

    @Test func entryNamesAreJudgedBeforeAnythingIsWritten() {
        var policy = EntryPolicy(limits: BundleLimits())
        func judge(_ name: String, _ kind: ArchiveEntry.Kind = .regular) -> EntryPolicy.Verdict {
            policy.judge(ArchiveEntry(path: name, kind: kind, declaredSize: nil, linkTarget: nil))
        }
        #expect(judge("bag/", .directory) == .folder)
        #expect(judge("bag/data/a.txt") == .file("data/a.txt"))
        #expect(judge("bag/data/A.TXT") == .unsafe("an alias of data/a.txt (differs only in case or Unicode form)"))
        #expect(judge("bag/data/a\\b") == .unsafe("a name with a backslash, which some systems read as a folder separator"))
        #expect(judge("C:/x") == .unsafe("an absolute path"))
        #expect(judge("bag/data/new\nline") == .unsafe("a name with control characters"))
        #expect(judge("bag/data/ü.txt") == .file("data/ü.txt"))
        #expect(judge("bag") == .unsafe("a file where the bag's top-level folder should be"))
    }
}
