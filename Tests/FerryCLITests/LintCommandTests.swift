import FerryModel
import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

@Suite struct LintCommandTests {
    @Test func errorFindingsExitWithOne() throws {
        let result = try ferry("lint", "Formats/legacy/Roots.xcdatamodeld", "--cloudkit")
        #expect(result.status == 1)
        #expect(result.stdout.contains("error: Assignment: has uniqueness constraints (id) [cloudkit-uniqueness-constraint]"))
        #expect(result.stdout.contains("    hint: "))
        #expect(result.stdout.hasSuffix(" errors, 0 warnings, 0 infos\n"))
    }

    @Test func warningsAloneExitWithZero() throws {
        let result = try ferry("lint", "Formats/legacy/Molten.xcdatamodeld", "--version", "Molten 5")
        #expect(result.status == 0)
        #expect(result.stdout.contains("warning: ProjectLog.glass_items_data: stores a collection in one blob"))
    }

    @Test func cleanModelSaysSo() throws {
        let result = try ferry("lint", "Formats/legacy/Molten.xcdatamodeld")
        #expect(result.status == 0)
        #expect(result.stdout.hasSuffix("CloudKit rules on: the model is marked usedWithCloudKit\nno findings\n"))
    }

    @Test func findingsNameFileAndLine() throws {
        let result = try ferry("lint", modelFixture("Everything.xcdatamodel"), "--format", "json")
        #expect(result.status == 1)
        let findings = try #require(try json(result)["findings"] as? [[String: Any]])
        let ordered = try #require(findings.first { $0["rule"] as? String == "cloudkit-ordered-relationship" })
        #expect(ordered["location"] as? String == "Bed.plants")
        #expect(ordered["line"] as? Int == 18)
        #expect(ordered["severity"] as? String == "error")
        #expect((try json(result)["counts"] as? [String: Int]) == ["error": 5, "warning": 2, "info": 0])
    }

    @Test(.needsCorpus, .enabled(if: JSONSchemaCheck.isAvailable, "Python jsonschema is not installed (make setup installs it)"),
          arguments: [modelFixture("Everything.xcdatamodel"), "Formats/legacy/Roots.xcdatamodeld", corpus("seedapps/molten/Molten6__contents.xml")])
    func jsonMatchesThePublishedSchema(path: String) throws {
        let result = try ferry("lint", path, "--format", "json", "--cloudkit")
        #expect(try JSONSchemaCheck.errors(in: result.stdoutData, schema: "lint.schema.json") == [])
    }

    @Test(arguments: LintRule.allCases)
    func everyRuleIsDocumented(rule: LintRule) throws {
        let rules = try String(contentsOf: TestPaths.formats.appendingPathComponent("lint-rules.md"), encoding: .utf8)
        let row = rules.split(separator: "\n").first { $0.hasPrefix("| `\(rule.rawValue)` |") }
        #expect(row?.contains("| \(rule.severity.rawValue) |") == true, "Formats/lint-rules.md has no row for \(rule.rawValue)")
    }
}
