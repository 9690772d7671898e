import FerryArchive
import FerryConvert
@testable import FerryBundle
import FerryStore
import FerryTestSupport
import Foundation
import GRDB
import Testing

/// Any change to a bundle is caught: single bit flips anywhere, for every format.
@Suite struct BundleTamperingTests {
    let directory = TemporaryDirectory("ferry-bundle-flip")

    func path(_ name: String) -> String { directory.url.appendingPathComponent(name).path }

    /// A store with a few recipes: its bundle is small enough to flip a bit in every byte.
    func smallBundle(_ format: ArchiveFormat) throws -> String {
        let store = path("small.ferry")
        if !FileManager.default.fileExists(atPath: store) {
            let recipes = TestPaths.samples.appendingPathComponent("brewguide/recipes.json").path
            _ = try ConversionJob(inputs: [recipes], store: store, options: ConversionOptions(openArchive: ArchiveReader.opener)).run()
        }
        let bundle = path("small.\(format.rawValue)")
        // Without the view: its pages are checked like any tag file (BundleViewTests), and would
        // triple the bytes to flip.
        if !FileManager.default.fileExists(atPath: bundle) { _ = try BundleExporter(format: format, view: nil).export(store: store, to: bundle) }
        return bundle
    }

    @Test(arguments: ArchiveFormat.allCases)
    func aBitFlippedInAnyByteIsReported(format: ArchiveFormat) throws {
        let bundle = try smallBundle(format)
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: bundle)))
        #expect(try BundleVerifier().verify(bundle).problems == [])
        let flipped = path("flipped.\(format.rawValue)")
        var missed: [Int] = [], withoutCause: [Int] = []
        for offset in 0..<original.count {
            var bytes = original
            bytes[offset] ^= UInt8(1 << (offset % 8))
            try Data(bytes).write(to: URL(fileURLWithPath: flipped))
            let problems = (try? BundleVerifier().verify(flipped).problems) ?? [BundleProblem(.unreadable, nil, "thrown")]
            if problems.isEmpty { missed.append(offset) }
            // Whatever follows from a flip, its cause comes first and is one.
            if !problems.isEmpty && (problems[0].isConsequence || !problems.contains { !$0.isConsequence }) { withoutCause.append(offset) }
        }
        #expect(missed == [], "\(missed.count) of \(original.count) flips went unnoticed, first at \(missed.prefix(5))")
        #expect(withoutCause == [], "\(withoutCause.count) flips reported only consequences, first at \(withoutCause.prefix(5))")
    }

    /// One damaged entry in a zip stops reading there: that is the problem; the manifests not
    /// read, the entries then unlisted and the seal are its consequences, counted after it.
    @Test func theCauseComesFirstAndItsConsequencesAreCounted() throws {
        let store = path("small.ferry")
        _ = try smallBundle(.zip)
        let bundle = path("whole.zip")
        _ = try BundleExporter(format: .zip, view: nil).export(store: store, to: bundle)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: bundle)))
        // The store snapshot's entry: its compressed bytes start after its local header.
        let name = Array("data/store.sqlite".utf8)
        let at = try #require((0..<(bytes.count - name.count)).first { Array(bytes[$0..<($0 + name.count)]) == name })
        bytes[at + name.count + 200] ^= 0x10
        let damaged = path("damaged.zip")
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))
        let verification = try BundleVerifier().verify(damaged)
        let causes = verification.problems.filter { !$0.isConsequence }
        #expect(causes.count == 1 && causes[0].path?.hasSuffix("data/store.sqlite") == true && verification.problems[0] == causes[0],
                "\(verification.problems)")
        let consequences = verification.problems.count - 1
        #expect(consequences > 0 && verification.problems.contains { $0.isConsequence && $0.path == "manifest-sha256.txt" })
        #expect(verification.text.hasSuffix("1 problem and \(consequences) consequences of it\n"), "\(verification.text)")
        #expect(verification.text.split(separator: "\n").count == 3, "\(verification.text)")
    }

    /// Only what truly follows is a consequence: an entry the read manifest does not list is a
    /// problem of its own even when reading stopped later, and so is an absent seal.
    @Test func aRealProblemIsNeverHiddenAsAConsequence() {
        let stopped = BundleProblem(.unreadable, "data/view/projects-1.html", "the archive is damaged here")
        let stranger = BundleProblem(.extra, "data/evil.txt", "in the archive but in no manifest")
        let unlisted = BundleProblem(.extra, "data/tables/log/000001.ndjson", "in the archive but in no manifest")
        let manifestRead = BundleProblem.causesFirst([stopped, stranger], readingStopped: true, manifestsRead: [BundleLayout.manifestFile])
        #expect(manifestRead.filter(\.isConsequence).isEmpty, "\(manifestRead)")
        let manifestUnread = BundleProblem.causesFirst([stopped, unlisted], readingStopped: true, manifestsRead: [])
        #expect(manifestUnread.map(\.isConsequence) == [false, true])
        let corrupt = BundleProblem(.corrupt, "data/store.sqlite", "SHA-256 is …")
        let noSeal = BundleProblem(.corrupt, nil, "the archive has no Ferry seal, or the seal is damaged")
        let sealDiffers = BundleProblem(.corrupt, nil, BundleProblem.sealMismatch + ": it changed after it was written")
        #expect(BundleProblem.causesFirst([corrupt, noSeal], readingStopped: false, manifestsRead: []).map(\.isConsequence) == [false, false])
        #expect(BundleProblem.causesFirst([corrupt, sealDiffers], readingStopped: false, manifestsRead: []).map(\.isConsequence) == [false, true])
    }

    @Test func everyBitOfTheSealAndTheFirstHeaderIsChecked() throws {
        let bundle = try smallBundle(.tarZstd)
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: bundle)))
        let flipped = path("bits.tar.zst")
        let offsets = Array(0..<64) + Array((original.count - 96)..<original.count)
        for offset in offsets {
            for bit in 0..<8 {
                var bytes = original
                bytes[offset] ^= UInt8(1 << bit)
                try Data(bytes).write(to: URL(fileURLWithPath: flipped))
                let problems = (try? BundleVerifier().verify(flipped).problems) ?? []
                #expect(!problems.isEmpty, "byte \(offset) bit \(bit)")
            }
        }
    }

    @Test func importRefusesAFlippedBundleAndLeavesTheStoreAlone() throws {
        let bundle = try smallBundle(.tarZstd)
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: bundle)))
        let target = try BundleFixtures.sampleStore(at: path("target.ferry"))
        let before = try TableContents(path: target)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<25 {
            var bytes = original
            let offset = Int.random(in: 0..<bytes.count, using: &generator)
            bytes[offset] ^= UInt8(1 << Int.random(in: 0..<8, using: &generator))
            let flipped = path("flipped-\(offset).tar.zst")
            try Data(bytes).write(to: URL(fileURLWithPath: flipped))
            #expect(throws: (any Error).self, "byte \(offset)") { try BundleImporter().importBundle(flipped, into: target) }
        }
        #expect(try TableContents(path: target) == before)
        #expect(!FileManager.default.fileExists(atPath: StoreBackup.folder(for: target)))
        #expect(StoreFixtures.listing(directory.path).filter { $0.hasPrefix(".") } == [])
    }

    @Test func aChangedFileIsNamedAsCorrupt() throws {
        // Re-pack a bundle with one table's bytes changed: the archive is well formed, the manifest is not met.
        let bundle = try smallBundle(.tarZstd)
        let changed = path("changed.tar")
        try BundleFixtures.repacked(bundle, to: changed, changing: "recipe/000001.ndjson")
        let problems = try BundleVerifier().verify(changed).problems
        #expect(problems.contains { $0.kind == .corrupt && $0.path == "data/tables/recipe/000001.ndjson" }, "\(problems)")
        #expect(problems.contains { $0.kind == .corrupt && $0.path == nil })   // no seal on a re-packed archive
    }

    @Test func missingAndExtraFilesAreNamed() throws {
        let bundle = try smallBundle(.tarZstd)
        let repacked = path("repacked.tar")
        var tar = TarBuilder()
        for entry in try BundleFixtures.entries(of: bundle) where !entry.name.hasSuffix("tables/tag/000001.ndjson") {
            tar.add(entry.name, entry.bytes)
        }
        tar.add("small/data/notes.txt", Array("smuggled".utf8))
        try Data(tar.archive).write(to: URL(fileURLWithPath: repacked))
        let problems = try BundleVerifier().verify(repacked).problems
        #expect(problems.contains(BundleProblem(.missing, "data/tables/tag/000001.ndjson", "listed in manifest-sha256.txt")), "\(problems)")
        #expect(problems.contains(BundleProblem(.extra, "data/notes.txt", "in the archive but in no manifest")), "\(problems)")
    }
}
