@testable import FerryModel
import FerryTestSupport
import Foundation
import Testing

@Suite struct ModelBundleTests {
    @Test func declaredCurrentVersionIsUsedEvenWhenNotNewest() throws {
        let bundle = try ModelBundle(at: fixture("Garden.xcdatamodeld"))
        #expect(bundle.layout == .bundle)
        #expect(bundle.versions.map(\.name) == ["Garden", "Garden 2", "Garden 10"])
        #expect(bundle.currentVersion.name == "Garden 2")
        #expect(bundle.currentVersionSource == .declared)
        #expect(bundle.warnings.isEmpty)
        #expect(try bundle.currentModel().versionIdentifier == "2")
    }

    @Test func versionIsPickedByNameWithOrWithoutExtension() throws {
        let bundle = try ModelBundle(at: fixture("Garden.xcdatamodeld"))
        #expect(try bundle.model(version: "Garden 10").versionIdentifier == "10")
        #expect(try bundle.model(version: "Garden.xcdatamodel").versionIdentifier == "1")
        let error = try #require(throws: ModelError.self) { try bundle.model(version: "Garden 3") }
        #expect(error.message == #"no version "Garden 3"; versions: Garden, Garden 2, Garden 10"#)
    }

    @Test(arguments: [
        ("EmptyCurrentVersion", ".xccurrentversion", "names no current version (empty dictionary)"),
        ("MissingCurrentVersion", ".xccurrentversion", #"names "Log 3.xcdatamodel", which is not in the bundle"#),
        ("UnreadableCurrentVersion", ".xccurrentversion", "is not a readable property list"),
        ("NoCurrentVersionFile", "", "has no .xccurrentversion file"),
    ])
    func unusableCurrentVersionWarnsAndFallsBackToNewest(name: String, file: String, problem: String) throws {
        let path = fixture("\(name).xcdatamodeld")
        let bundle = try ModelBundle(at: path)
        #expect(bundle.currentVersion.name == "Log 2")
        #expect(bundle.currentVersionSource == .newestByName)
        let location = file.isEmpty ? path : "\(path)/\(file)"
        #expect(bundle.warnings.map(\.description) == [#"\#(location): \#(problem); using the newest version by name, "Log 2""#])
    }

    @Test func versionFolderAndContentsFileAreSingleVersions() throws {
        let folder = try ModelBundle(at: fixture("Garden.xcdatamodeld/Garden 2.xcdatamodel"))
        #expect(folder.layout == .versionFolder && folder.currentVersion.name == "Garden 2")
        #expect(folder.currentVersionSource == .onlyVersion)
        let file = try ModelBundle(at: fixture("Garden.xcdatamodeld/Garden 10.xcdatamodel/contents"))
        #expect(file.layout == .contentsFile && file.currentVersion.name == "Garden 10")
        #expect(try file.currentModel().versionName == nil)
    }

    @Test func folderHoldingOneModelIsOpened() throws {
        let directory = TemporaryDirectory()
        let source = try String(contentsOfFile: fixture("Everything.xcdatamodel/contents"), encoding: .utf8)
        try directory.write(source, to: "Project/App.xcdatamodeld/App.xcdatamodel/contents")
        let bundle = try ModelBundle(at: directory.url.appendingPathComponent("Project").path)
        #expect(bundle.layout == .bundle && bundle.currentVersion.name == "App")
        #expect(bundle.currentVersion.displayPath.hasSuffix("Project/App.xcdatamodeld/App.xcdatamodel/contents"))
    }

    @Test(arguments: [
        ("Compiled.momd", ModelError.Kind.compiledModel),
        ("Bad", .notAModel),
        ("NoSuchModel.xcdatamodeld", .fileNotFound),
    ])
    func unusableFoldersGiveSpecificErrors(name: String, kind: ModelError.Kind) throws {
        let error = try #require(throws: ModelError.self) { try ModelBundle(at: fixture(name)) }
        #expect(error.kind == kind)
        #expect(error.location.file.hasSuffix(name) || error.location.file.hasSuffix("Old.xcdatamodel"))
    }

    /// FerryModel finds Xcode 3 versions (`elements`, no `contents`) and, having no decoder for
    /// their archive, says so when one is loaded; FerryCoreData's `ModelBundle.opening` decodes them.
    @Test(arguments: ["PreXcode4.xcdatamodel", "PreXcode4Bundle.xcdatamodeld"])
    func xcode3VersionsAreFoundAndNeedTheirDecoder(name: String) throws {
        let bundle = try ModelBundle(at: fixture(name))
        #expect(bundle.currentVersion.format == .xcode3Archive)
        #expect(bundle.currentVersion.displayPath.hasSuffix(".xcdatamodel/elements"))
        let error = try #require(throws: ModelError.self) { try bundle.currentModel() }
        #expect(error.kind == .preXcode4Model)
    }

    @Test func naturalOrderSortsVersionNamesAsPeopleRead() {
        let names = ["Model 10", "Model", "Model 2", "v2.5.1", "v2.5", "v2.6.0", "Model 1", "v2.10", "Model 02"]
        let sorted = names.sorted(by: NaturalOrder.areInIncreasingOrder)
        #expect(sorted == ["Model", "Model 1", "Model 02", "Model 2", "Model 10", "v2.5", "v2.5.1", "v2.6.0", "v2.10"])
    }
}
