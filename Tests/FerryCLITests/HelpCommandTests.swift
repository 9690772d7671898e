import FerryTestSupport
import Foundation
import Testing

@Suite struct HelpCommandTests {
    @Test func helpListsTheCommands() throws {
        let result = try ferry("--help")
        #expect(result.status == 0)
        for command in ["inspect", "lint", "diff"] { #expect(result.stdout.contains(command)) }
    }

    @Test func bareFerryPrintsHelp() throws {
        let result = try ferry()
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE: ferry <subcommand>"))
    }

    @Test(arguments: ["inspect", "lint", "diff"])
    func helpForEachCommandEndsWithAnExample(command: String) throws {
        let result = try ferry("help", command)
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE: ferry \(command)"))
        #expect(result.stdout.contains("Example"))
    }

    @Test func versionPrintsTheVersion() throws {
        let result = try ferry("--version")
        #expect(result.status == 0)
        #expect(result.stdout.range(of: #"^\d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil)
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScriptsNameTheCommands(shell: String) throws {
        let result = try ferry("--generate-completion-script", shell)
        #expect(result.status == 0)
        #expect(result.stdout.contains("inspect") && result.stdout.contains("cloudkit") && result.stdout.contains("old-version"))
    }

    @Test func unknownOptionIsAUsageError() throws {
        let result = try ferry("lint", "--strict", modelFixture("Everything.xcdatamodel"))
        #expect(result.status == 64)
        #expect(result.stderr.contains("Unknown option '--strict'"))
    }
}
