import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

/// Real corpus stores with bytes flipped, cut short or a page zeroed (fixed seeds): `inspect`
/// and `dump` either read them or end with one specific error line, never a crash.
@Suite struct StoreMutationTests {
    static let cases: [(store: String, model: String)] = [
        ("01__alemar11__CoreDataPlus/Tests/Resources/SampleModel/Fixtures/SampleModel_V2.sqlite",
         "01__alemar11__CoreDataPlus/Tests/Resources/SampleModel/SampleModel.xcdatamodeld"),
        ("02__wibosco__CoreDataMigration-Example/CoreDataMigration-ExampleTests/Resources/SQLite/CoreDataMigration_Example_2.sqlite",
         "02__wibosco__CoreDataMigration-Example/CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld"),
        ("19__wireapp__wire-ios-data-model/Tests/Resources/store2-3.wiredatabase",
         "19__wireapp__wire-ios-data-model/Resources/zmessaging.xcdatamodeld"),
    ]

    @Test(.needsCorpus, arguments: 0..<cases.count)
    func mutatedStoresNeverCrash(index: Int) throws {
        let (store, model) = (corpus("coredata-sqlite/" + Self.cases[index].store), corpus("coredata-sqlite/" + Self.cases[index].model))
        let original = try Data(contentsOf: URL(fileURLWithPath: store))
        var random = SplitMix(seed: UInt64(index) &+ 0x5EED)
        let directory = TemporaryDirectory()
        for trial in 0..<9 {
            var bytes = original
            switch trial % 3 {
            case 0:
                for _ in 0..<24 { bytes[Int.random(in: 0..<bytes.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random) }
            case 1:
                bytes = bytes.prefix(Int.random(in: 0..<bytes.count, using: &random))
            default:
                let pages = max(1, bytes.count / 4096)
                let start = Int.random(in: 0..<pages, using: &random) * 4096
                bytes.replaceSubrange(start..<min(start + 4096, bytes.count), with: Data(count: min(4096, bytes.count - start)))
            }
            let path = directory.url.appendingPathComponent("mutated-\(trial).sqlite").path
            try bytes.write(to: URL(fileURLWithPath: path))
            let runs = [["inspect", path, "--model", model], ["dump", path, "--model", model, "-o", directory.url.appendingPathComponent("out-\(trial)").path],
                        ["dump", path]]
            for arguments in runs {
                let result = try CommandRunner.ferry(arguments)
                #expect(!result.crashed, "\(arguments.joined(separator: " ")) crashed (trial \(trial)): \(result.stderr.suffix(400))")
                if result.status != 0 {
                    #expect(result.stderr.hasPrefix("ferry: "), "trial \(trial): \(arguments[0]): \(result.stderr.prefix(300))")
                }
            }
        }
    }
}
