import FerryTestSupport
import Foundation
import Testing

@Suite struct BadInputCommandTests {
    static let badFiles = TestPaths.files(under: TestPaths.fixtures("FerryModelTests").appendingPathComponent("Bad")) { _ in true }

    @Test func thereAreBadFixtures() {
        #expect(Self.badFiles.count >= 15)
    }

    @Test(arguments: badFiles, ["inspect", "lint"])
    func badModelGivesOneLineNamingTheFileAndExit65(path: String, command: String) throws {
        let result = try CommandRunner.ferry([command, path])
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("ferry: error: \(path): "))
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
    }

    @Test func badNewModelInDiffIsNamed() throws {
        let bad = modelFixture("Bad/truncated.xml")
        let result = try ferry("diff", "Formats/legacy/PhotoApp.xcdatamodel", bad)
        #expect(result.status == 65)
        #expect(result.stderr == "ferry: error: \(bad): truncated XML: the file ends at line 2 before the model is closed\n")
    }

    @Test func missingFileExitsWith66() throws {
        let result = try ferry("inspect", "Samples/nothing-here.xcdatamodeld")
        #expect(result.status == 66)
        #expect(result.stderr == "ferry: error: Samples/nothing-here.xcdatamodeld: no such file or directory\n")
    }

    @Test(arguments: [
        // Xcode 3 models are read now; this one's elements file is no archive.
        ("PreXcode4.xcdatamodel", "PreXcode4.xcdatamodel/elements: Xcode 3 model (elements file): not a keyed archive"),
        // Compiled models are read now; this one's .mom is cut short.
        ("Compiled.momd", "Compiled.momd/Model.mom: compiled model cannot be read: "),
    ])
    func unsupportedModelKindsAreExplained(name: String, message: String) throws {
        let result = try ferry("lint", modelFixture(name))
        #expect(result.status == 65)
        #expect(result.stderr.contains(message))
    }

    @Test func inputsAreNeverModified() throws {
        let directory = TemporaryDirectory()
        let source = try Data(contentsOf: TestPaths.packageRoot.appendingPathComponent("Formats/legacy/Molten.xcdatamodeld/Molten 5.xcdatamodel/contents"))
        let path = try directory.write(source, to: "M.xcdatamodeld/Molten 5.xcdatamodel/contents")
        let before = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        for arguments in [["inspect"], ["lint"], ["inspect", "--format", "json"]] {
            _ = try CommandRunner.ferry(arguments + [directory.url.appendingPathComponent("M.xcdatamodeld").path])
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == source)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.appendingPathComponent("M.xcdatamodeld").path) == ["Molten 5.xcdatamodel"])
    }
}
