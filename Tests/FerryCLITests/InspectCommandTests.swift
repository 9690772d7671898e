import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

@Suite struct InspectCommandTests {
    /// A compiled model works wherever a model is taken, and says what its source says.
    @Test(.needsCorpus) func compiledModelsInspectLintAndDiffLikeTheirSource() throws {
        let base = TestPaths.corpus.appendingPathComponent("coredata-sqlite/01__alemar11__CoreDataPlus/Tests/Resources/SampleModel")
        let (momd, source) = (base.appendingPathComponent("Fixtures/SampleModel.momd").path,
                              base.appendingPathComponent("SampleModel.xcdatamodeld").path)
        for version in ["SampleModel", "SampleModel2", "SampleModel3"] {
            let compiled = try ferry("inspect", momd, "--version", version, "--format", "json")
            let original = try ferry("inspect", source, "--version", version, "--format", "json")
            #expect(compiled.status == 0 && original.status == 0, "\(compiled.stderr)")
            let hashes = { (text: String) in text.split(separator: "\n").filter { $0.contains("\"versionHash\"") }.sorted() }
            #expect(!hashes(compiled.stdout).isEmpty && hashes(compiled.stdout) == hashes(original.stdout), "\(version)")
            #expect(compiled.stdout.contains("\"layout\" : \"compiled\""))
        }
        let text = try ferry("inspect", momd)
        #expect(text.status == 0 && text.stdout.contains("(current, from VersionInfo.plist; 3 versions"), "\(text.stdout)")
        let lint = try ferry("lint", momd)
        #expect(lint.status == 0 || lint.status == 1, "\(lint.stderr)")
        let diff = try ferry("diff", momd, "--format", "json")
        let sourceDiff = try ferry("diff", source, "--format", "json")
        #expect(diff.status == 0 && diff.stdout.contains("\"verdict\""), "\(diff.stderr)")
        let optimized = try ferry("inspect", base.appendingPathComponent("Fixtures/SampleModel.momd/SampleModel.omo").path)
        #expect(optimized.status == 65 && optimized.stderr.contains("an optimized model (.omo)"), "\(optimized.stderr)")
        let verdicts = { (text: String) in text.split(separator: "\n").filter { $0.contains("\"verdict\"") || $0.contains("\"sameVersionHashes\"") } }
        #expect(verdicts(diff.stdout) == verdicts(sourceDiff.stdout))
    }

    /// decompile writes the compiled versions as an .xcdatamodeld that inspects like the .momd.
    @Test(.needsCorpus) func decompileWritesAnEditableBundleOnce() throws {
        let momd = TestPaths.corpus.appendingPathComponent(
            "coredata-sqlite/01__alemar11__CoreDataPlus/Tests/Resources/SampleModel3/Fixtures/SampleModel3.momd").path
        let directory = TemporaryDirectory()
        let output = directory.url.appendingPathComponent("Model.xcdatamodeld").path
        let written = try ferry("decompile", momd, "-o", output)
        #expect(written.status == 0 && written.stderr.contains("3 versions, current \"SampleModel3\""), "\(written.stderr)")
        let again = try ferry("inspect", output, "--hashes")
        #expect(again.status == 0 && again.stdout.contains("(current, from .xccurrentversion; 3 versions"))
        #expect(again.stdout.contains("version hash 6b31f4e97b691d16c4c820bae55f89408d47013bd42151ecfde1eac7fe4be798"))
        let twice = try ferry("decompile", momd, "-o", output)
        #expect(twice.status != 0 && twice.stderr.contains("it exists"), "\(twice.stderr)")
        let missing = directory.url.appendingPathComponent("no-such-folder/Model.xcdatamodeld").path
        let nowhere = try ferry("decompile", momd, "-o", missing)
        #expect(nowhere.status == 73 && nowhere.stderr.contains("does not exist or is not writable"), "\(nowhere.stderr)")
        #expect(!FileManager.default.fileExists(atPath: (missing as NSString).deletingLastPathComponent))
        let storeHashes = try ferry("inspect", "Samples/molten/Molten.sqlite", "--hashes")
        #expect(storeHashes.status == 64 && storeHashes.stderr.contains("--hashes is for models"))
        let source = try ferry("decompile", "Formats/legacy/Molten.xcdatamodeld", "-o", output + "2.xcdatamodeld")
        #expect(source.status == 65 && source.stderr.contains("not a compiled model"), "\(source.stderr)")
    }

    /// The hashes Core Data wrote for CoreDataPlus' `User` (its compiled model), computed from the XML.
    @Test(.needsCorpus) func hashesShowCoreDatasEntityVersionHashes() throws {
        let model = TestPaths.corpus.appendingPathComponent(
            "coredata-sqlite/01__alemar11__CoreDataPlus/Tests/Resources/SampleModel3/SampleModel3.xcdatamodeld").path
        let expected = "6b31f4e97b691d16c4c820bae55f89408d47013bd42151ecfde1eac7fe4be798"
        let text = try ferry("inspect", model, "--hashes")
        #expect(text.status == 0 && text.stdout.contains("Entity User\n  version hash \(expected)\n"), "\(text.stdout)")
        #expect(try !ferry("inspect", model).stdout.contains("version hash"))
        let json = try ferry("inspect", model, "--format", "json")
        #expect(json.stdout.contains("\"versionHash\" : \"\(expected)\""), "\(json.stdout)")
    }

    @Test func textShowsTheCurrentVersion() throws {
        let result = try ferry("inspect", "Formats/legacy/Molten.xcdatamodeld")
        #expect(result.status == 0 && result.stderr.isEmpty)
        #expect(result.stdout.hasPrefix(#"Formats/legacy/Molten.xcdatamodeld — version "Molten 6" (current, from .xccurrentversion; 2 versions: Molten 5, Molten 6)"#))
        #expect(result.stdout.contains("Entity ProjectTag"))
    }

    @Test func versionOptionPicksAnotherVersion() throws {
        let result = try ferry("inspect", "Formats/legacy/Molten.xcdatamodeld", "--version", "Molten 5", "--format", "json")
        #expect(result.status == 0)
        let document = try json(result)
        #expect((document["source"] as? [String: Any])?["version"] as? String == "Molten 5")
        #expect(document["versionIdentifier"] as? String == "5")
    }

    @Test func entityOptionLimitsTheOutput() throws {
        let result = try ferry("inspect", modelFixture("Everything.xcdatamodel"), "--entity", "Tree", "--format", "json")
        let entities = try json(result)["entities"] as? [[String: Any]]
        #expect(entities?.map { $0["name"] as? String } == ["Tree"])
        #expect(entities?.first?["parent"] as? String == "Plant")
    }

    @Test func unknownEntityIsAUsageErrorListingTheEntities() throws {
        let result = try ferry("inspect", modelFixture("Everything.xcdatamodel"), "--entity", "Shed")
        #expect(result.status == 64)
        #expect(result.stderr == #"ferry: error: \#(modelFixture("Everything.xcdatamodel"))/contents: no entity "Shed"; entities: Bed, Garden, LivingThing, Plant, Tree"# + "\n")
    }

    @Test func unknownVersionIsAUsageError() throws {
        let result = try ferry("inspect", "Formats/legacy/Molten.xcdatamodeld", "--version", "Molten 7")
        #expect(result.status == 64)
        #expect(result.stderr.contains(#"no version "Molten 7"; versions: Molten 5, Molten 6"#))
    }

    @Test(.needsCorpus) func warningsGoToStderrAndTheOutputStillComes() throws {
        let result = try ferry("inspect", corpus("models/077__mattt__rack-scaffold__Example.xcdatamodeld"), "--format", "json")
        #expect(result.status == 0)
        #expect(result.stderr.hasPrefix("ferry: warning: "))
        #expect(result.stderr.contains(#"names "IncrementalStoreExample.xcdatamodel", which is not in the bundle; using the newest version by name, "Example""#))
        #expect((try json(result)["warnings"] as? [Any])?.count == 1)
    }

    @Test(arguments: ["mermaid", "dot"])
    func diagramsAreWritten(format: String) throws {
        let result = try ferry("inspect", "Formats/legacy/Forager.xcdatamodel", "--format", format)
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix(format == "dot" ? "digraph" : "erDiagram"))
        #expect(result.stdout.contains("Recipe"))
    }

    @Test(.needsCorpus) func sameInputGivesTheSameBytes() throws {
        let first = try ferry("inspect", corpus("models/005__rileytestut__Delta__Delta.xcdatamodeld"), "--format", "json")
        let second = try ferry("inspect", corpus("models/005__rileytestut__Delta__Delta.xcdatamodeld"), "--format", "json")
        #expect(first.stdoutData == second.stdoutData && !first.stdoutData.isEmpty)
    }

    @Test(.needsCorpus, .enabled(if: JSONSchemaCheck.isAvailable, "Python jsonschema is not installed (make setup installs it)"),
          arguments: [modelFixture("Everything.xcdatamodel"), "Formats/legacy/Molten.xcdatamodeld",
                      corpus("models/001__SwiftGen__SwiftGen__Model.xcdatamodeld"), corpus("models/053__phimage__MomXML__Model.xcdatamodel"),
                      corpus("pre-xcode4-models/08__RestKit__RestKit/Examples/RKTwitterCoreData/Resources/RKTwitterCoreData.xcdatamodel")])
    func jsonMatchesThePublishedSchema(path: String) throws {
        let result = try ferry("inspect", path, "--format", "json")
        #expect(try JSONSchemaCheck.errors(in: result.stdoutData, schema: "inspect-model.schema.json") == [])
    }

    /// Xcode 3's models inspect with their hashes and lint clean, from the command line.
    @Test(.needsCorpus, arguments: [
        ("08__RestKit__RestKit/Examples/RKTwitterCoreData/Resources/RKTwitterCoreData.xcdatamodel",
         "Tweet", "d37ff7877aefc99e3bc17b21bff5575205dce3206dddd4af96fd78f0c55f3fdd"),
        ("15__gilpa__iphone_sqlite_test/CoreDataBooks.xcdatamodel", "Book", "daa82d3e889fae37a73440828c00b299bbcbfed571223168d540402aa171c786"),
    ])
    func xcode3ModelsInspectAndLint(model: String, entity: String, hash: String) throws {
        let path = corpus("pre-xcode4-models/\(model)")
        let inspected = try ferry("inspect", path, "--hashes")
        #expect(inspected.status == 0, "\(inspected.stderr)")
        #expect(inspected.stdout.contains("Entity \(entity)") && inspected.stdout.contains("version hash \(hash)"))
        let linted = try ferry("lint", path)
        #expect(linted.status == 0, "\(linted.stdout)\(linted.stderr)")
    }

    /// The issue's acceptance: every real model parses, and the JSON's per-entity counts equal an
    /// independent count of the XML.
    @Test(.needsCorpus, arguments: TestPaths.files(under: TestPaths.corpus.appendingPathComponent("models")) { $0 == "contents" })
    func everyCorpusModelInspectsWithMatchingCounts(path: String) throws {
        let result = try CommandRunner.ferry(["inspect", path, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let expected = try IndependentModelCount.entities(inFile: path)
        let entities = try #require(try json(result)["entities"] as? [[String: Any]])
        #expect(entities.count == expected.count)
        for entity in entities {
            let name = try #require(entity["name"] as? String)
            let counts = IndependentModelCount.Counts(attributes: (entity["attributes"] as? [Any])?.count ?? -1,
                                                      relationships: (entity["relationships"] as? [Any])?.count ?? -1)
            #expect(counts == expected[name], "\(name)")
        }
    }
}
