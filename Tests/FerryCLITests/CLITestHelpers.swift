import FerryTestSupport
import Foundation

/// Runs `ferry` with the package root as working directory, so paths read as in the README.
func ferry(_ arguments: String...) throws -> CommandResult {
    try CommandRunner.ferry(arguments, in: TestPaths.packageRoot)
}

func modelFixture(_ relativePath: String) -> String {
    "Tests/FerryModelTests/Fixtures/\(relativePath)"
}

func corpus(_ relativePath: String) -> String {
    TestPaths.corpus.appendingPathComponent(relativePath).path
}

func json(_ result: CommandResult) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any] ?? [:]
}
