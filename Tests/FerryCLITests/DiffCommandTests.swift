import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

@Suite struct DiffCommandTests {
    /// With --store, the records the migration to the current version would fail on, and exit 1.
    @Test(.needsCorpus) func storeChecksTheMigrationRecordByRecord() throws {
        let base = "coredata-sqlite/02__wibosco__CoreDataMigration-Example/"
        let model = corpus(base + "CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld")
        let failing = try ferry("diff", model, "--store", corpus(base + "CoreDataMigration-ExampleTests/Resources/SQLite/CoreDataMigration_Example_2.sqlite"))
        #expect(failing.status == 1, "\(failing.stderr)")
        #expect(failing.stdout.contains("CoreDataMigration_Example 2 → CoreDataMigration_Example 4: mapping-model"))
        #expect(failing.stdout.contains("empty-required-relationship: Post/p1: color = nil") && !failing.stdout.contains("Post Post/"))
        #expect(failing.stdout.range(of: #"would fail: [0-9]+ empty-required-relationship; and would lose: [0-9]+ value-dropped\n$"#, options: .regularExpression) != nil)
        let json = try ferry("diff", model, "--store", corpus(base + "CoreDataMigration-ExampleTests/Resources/SQLite/CoreDataMigration_Example_2.sqlite"),
                             "--format", "json")
        #expect(json.status == 1 && json.stdout.contains("\"format\" : \"ferry.migration-check/1\""))
        if JSONSchemaCheck.isAvailable {
            #expect(try JSONSchemaCheck.errors(in: json.stdoutData, schema: "diff.schema.json") == [])
        }
        let passing = try ferry("diff", model, "--store", corpus(base + "CoreDataMigration-ExampleTests/Resources/SQLite/CoreDataMigration_Example_3.sqlite"))
        #expect(passing.status == 0 && passing.stdout.contains("meets no problem in its records"), "\(passing.stdout)")
    }

    /// Version 1's store against version 2: nothing fails, and every Post's color is lost (the
    /// attribute looks renamed without a renaming identifier). Losses are listed and exit 1.
    @Test(.needsCorpus) func droppedValuesAreListedAndExitOne() throws {
        let base = "coredata-sqlite/02__wibosco__CoreDataMigration-Example/"
        let model = corpus(base + "CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld")
        let result = try ferry("diff", model, "--store", corpus(base + "CoreDataMigration-ExampleTests/Resources/SQLite/CoreDataMigration_Example_1.sqlite"),
                               "--new-version", "CoreDataMigration_Example 2")
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.contains("value-dropped: Post/p1: color = "))
        #expect(result.stdout.contains("looks renamed to hexColor without a renaming identifier"))
        #expect(result.stdout.hasSuffix("would lose: 1001 value-dropped\n"), "\(result.stdout.suffix(200))")
    }

    /// A store whose entity hashes name version 3 is not read as version 1 on request: the check
    /// would report every record of a store it misreads.
    @Test(.needsCorpus) func oldVersionContradictingTheStoreIsRefused() throws {
        let base = "coredata-sqlite/02__wibosco__CoreDataMigration-Example/"
        let model = corpus(base + "CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld")
        let store = corpus(base + "CoreDataMigration-ExampleTests/Resources/SQLite/CoreDataMigration_Example_3.sqlite")
        let result = try ferry("diff", model, "--store", store, "--old-version", "CoreDataMigration_Example")
        #expect(result.status == 65 && result.stdout.isEmpty)
        #expect(result.stderr.contains(#"the store's entity version hashes say version "CoreDataMigration_Example 3" made it, not "CoreDataMigration_Example""#), "\(result.stderr)")
        let dump = try ferry("dump", store, "--model", model, "--version", "CoreDataMigration_Example", "-o", NSTemporaryDirectory() + "ferry-refused-\(UUID().uuidString)")
        #expect(dump.status == 65)
        let agreeing = try ferry("diff", model, "--store", store, "--old-version", "CoreDataMigration_Example 3")
        #expect(agreeing.status == 0, "\(agreeing.stderr)")
    }

    /// Two versions of one bundle with versions between: the steps' verdicts are composed.
    @Test(.needsCorpus) func versionsOfOneBundleComposeTheirSteps() throws {
        let model = corpus("models/010__wibosco__CoreDataMigration-Example__CoreDataMigration_Example.xcdatamodeld")
        let result = try ferry("diff", model, model, "--old-version", "CoreDataMigration_Example", "--new-version", "CoreDataMigration_Example 4")
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("CoreDataMigration_Example → CoreDataMigration_Example 4: mapping-model"), "\(result.stdout)")
        #expect(result.stdout.contains("step by step: CoreDataMigration_Example → CoreDataMigration_Example 2 mapping-model, "))
        #expect(result.stdout.contains("+ Post.hide") && result.stdout.contains("existing rows get the default value, NO"))
    }

    @Test(.needsCorpus) func bundleComparesEveryConsecutivePair() throws {
        let result = try ferry("diff", corpus("models/010__wibosco__CoreDataMigration-Example__CoreDataMigration_Example.xcdatamodeld"))
        #expect(result.status == 0)
        let verdicts = result.stdout.split(separator: "\n").filter { $0.contains(" → ") && !$0.hasPrefix(" ") }
        #expect(verdicts == [
            "CoreDataMigration_Example → CoreDataMigration_Example 2: mapping-model (2 changes)",
            "CoreDataMigration_Example 2 → CoreDataMigration_Example 3: mapping-model (3 changes)",
            "CoreDataMigration_Example 3 → CoreDataMigration_Example 4: lightweight (1 change)",
        ])
    }

    @Test func twoModelsWithChosenVersions() throws {
        let result = try ferry("diff", "Formats/legacy/Molten.xcdatamodeld", "Formats/legacy/Molten.xcdatamodeld",
                               "--old-version", "Molten 5", "--new-version", "Molten 6", "--format", "json")
        #expect(result.status == 0)
        let pairs = try #require(try json(result)["pairs"] as? [[String: Any]])
        #expect(pairs.count == 1)
        #expect(pairs[0]["old"] as? String == "Molten 5" && pairs[0]["verdict"] as? String == "lightweight")
    }

    @Test func singleVersionBundleIsAUsageError() throws {
        let result = try ferry("diff", "Formats/legacy/Roots.xcdatamodeld")
        #expect(result.status == 64)
        #expect(result.stderr.contains("has one version; give two models, or a bundle with several versions"))
    }

    @Test func versionOptionsNeedTwoModels() throws {
        let result = try ferry("diff", "Formats/legacy/Molten.xcdatamodeld", "--old-version", "Molten 5")
        #expect(result.status == 64)
    }

    @Test(.needsCorpus, .enabled(if: JSONSchemaCheck.isAvailable, "Python jsonschema is not installed (make setup installs it)"),
          arguments: ["Formats/legacy/Molten.xcdatamodeld", corpus("models/007__artsy__energy__ArtsyPartner.xcdatamodeld"),
                      corpus("models/004__objcio__core-data__Moody.xcdatamodeld")])
    func jsonMatchesThePublishedSchema(path: String) throws {
        let result = try ferry("diff", path, "--format", "json")
        #expect(result.status == 0)
        #expect(try JSONSchemaCheck.errors(in: result.stdoutData, schema: "diff.schema.json") == [])
    }
}
