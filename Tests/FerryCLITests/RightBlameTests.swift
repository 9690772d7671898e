import FerryTestSupport
import Foundation
import Testing

/// Each error names the real cause, and nothing usable is a failure, not an empty store.
@Suite struct RightBlameTests {
    let directory = TemporaryDirectory("ferry-blame")

    func path(_ name: String) -> String { directory.url.appendingPathComponent(name).path }

    @Test func aMissingStoreIsMissingNotAModel() throws {
        let result = try ferry("inspect", path("missing.sqlite"), "--model", "Formats/legacy/Forager.xcdatamodel")
        #expect(result.status == 66, "\(result.stderr)")
        #expect(result.stderr.contains("missing.sqlite: no such file or directory"), "\(result.stderr)")
        #expect(!result.stderr.contains("is a model"))
    }

    @Test func historyNamesTheOptionGiven() throws {
        let store = TestPaths.samples.appendingPathComponent("forager/Forager.sqlite").path
        let output = try ferry("dump", store, "--history", "-o", path("out"))
        let first = output.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(output.status == 64 && first.contains("takes no --output") && !first.contains("--entity"), "\(output.stderr)")
        let entity = try ferry("dump", store, "--history", "--entity", "Tag")
        #expect(entity.status == 64 && entity.stderr.contains("takes no --entity"), "\(entity.stderr)")
    }

    @Test func aFileThatIsNoModelIsNotCalledAOneVersionModel() throws {
        let photo = try directory.write(Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46]), to: "photo.jpg")
        let result = try ferry("diff", photo)
        #expect(result.status == 65, "\(result.stderr)")
        #expect(!result.stderr.contains("one version"), "\(result.stderr)")
        #expect(result.stderr.contains("photo.jpg"), "\(result.stderr)")
    }

    @Test func theWrongAppIsNamedAsWhatTheDataLooksLike() throws {
        let store = path("wrong-app.ferry")
        let result = try ferry("convert", "Samples/roots", "--from", "molten", "--to", store)
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("this is not molten data: it looks like Roots'"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test func nothingUsableIsAFailureNotAnEmptyStore() throws {
        let empty = try directory.write("[]", to: "empty.json")
        let folder = path("nothing-here")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let onlyCopies = path("only-copies")
        try FileManager.default.createDirectory(atPath: onlyCopies, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "Samples/roots/tasks_cache_backup_1758000000.json",
                                         toPath: onlyCopies + "/tasks_cache_backup_1758000000.json")
        for (input, from, says) in [(empty, "roots", "no records"), (folder, "auto", "no files"), (onlyCopies, "auto", "nothing to convert")] {
            let store = path("nothing-\(abs(input.hashValue)).ferry")
            let result = try ferry("convert", input, "--from", from, "--to", store)
            #expect(result.status == 65, "\(input): \(result.stderr)")
            #expect(result.stderr.contains(says), "\(input): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: store), "\(input): a store was written")
        }
    }

    /// BrewGuide's data written with Roots' model: nothing has a place, so no store (and an
    /// existing one stays as it was, without a backup left behind).
    @Test func aModelThatTakesNothingOfTheInputIsAFailure() throws {
        let inputs = ["Samples/brewguide/brewlogs.ndjson", "Samples/brewguide/recipes.json"]
        let store = path("roots-of-brews.sqlite")
        let result = try CommandRunner.ferry(["convert"] + inputs + ["--as", "core-data", "--model", "Formats/legacy/Roots.xcdatamodeld", "--to", store])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("nothing of the input fits the Roots model: 3 log kind brew, 3 log_snapshot, 2 recipe have no place in it"), "\(result.stderr)")
        #expect(!result.stderr.contains("0 objects"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.contains("roots-of-brews") } == [])
    }

    @Test func theSchemaSourceReadsAsASentence() throws {
        let result = try ferry("dump", "Samples/brewguide/BrewGuide.store")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("ferry: schema from the store's tables, inferred (no model given, no model cache)"), "\(result.stderr)")
        #expect(!result.stderr.contains("from inferred from"))
    }
}
