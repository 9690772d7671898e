import FerryTestSupport
import Foundation
import Testing

/// Tests that read `../shared/corpus` (real models, stores and app data from public
/// repositories) carry `.needsCorpus`. A clone without the corpus beside it skips them, and the
/// test run says how many; CI sets `FERRY_REQUIRE_CORPUS=1`, under which they run and a missing
/// corpus fails (``CorpusPresenceTests``), so that nothing skips there unseen.
public enum SharedCorpus {
    /// The corpus folder is there (or its absence must fail: CI).
    public static let runsCorpusTests = isPresent || isRequired

    public static var isPresent: Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: TestPaths.corpus.path, isDirectory: &isFolder) && isFolder.boolValue
    }

    public static var isRequired: Bool { ProcessInfo.processInfo.environment["FERRY_REQUIRE_CORPUS"] == "1" }

    public static let skipReason: Comment = "needs the shared corpus at \(TestPaths.corpus.path) (FERRY_SHARED names another place)"
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only where the shared corpus is (always under `FERRY_REQUIRE_CORPUS=1`).
    public static var needsCorpus: Self { .enabled(if: SharedCorpus.runsCorpusTests, SharedCorpus.skipReason) }
}
