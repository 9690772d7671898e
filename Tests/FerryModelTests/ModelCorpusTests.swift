import FerryModel
import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

/// Real model files from public repositories, read from `../shared/corpus` (never copied here).
enum Corpus {
    /// Every model `contents` file in the shared corpus, the seed apps' models included.
    static let contentsFiles: [String] = TestPaths.files(under: TestPaths.corpus) {
        $0 == "contents" || $0.hasSuffix("contents.xml") || $0.hasSuffix("__contents")
    }

    static let modelsFolderContents = contentsFiles.filter { $0.contains("/corpus/models/") }

    /// Every `.xcdatamodeld` bundle in the corpus.
    static let bundles: [String] = TestPaths.files(under: TestPaths.corpus) { $0 == ".xccurrentversion" }
        .map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }
}

@Suite struct ModelCorpusTests {
    @Test(.needsCorpus) func corpusIsPresent() {
        #expect(Corpus.modelsFolderContents.count >= 130, "expected the shared corpus at \(TestPaths.corpus.path)")
        #expect(Corpus.bundles.count >= 25)
    }

    @Test(.needsCorpus, arguments: Corpus.contentsFiles)
    func everyRealModelParsesWithCountsMatchingAnIndependentScan(path: String) throws {
        let model = try ModelParser().parse(contentsOf: path)
        let expected = try IndependentModelCount.entities(inFile: path)
        #expect(model.entities.count == expected.count)
        for entity in model.entities {
            let counts = IndependentModelCount.Counts(attributes: entity.attributes.count, relationships: entity.relationships.count)
            #expect(counts == expected[entity.name], "\(entity.name)")
        }
    }

    @Test(.needsCorpus, arguments: Corpus.bundles)
    func everyBundleResolvesItsDeclaredCurrentVersionOrWarns(path: String) throws {
        let bundle = try ModelBundle(at: path)
        let data = try Data(contentsOf: URL(fileURLWithPath: path).appendingPathComponent(".xccurrentversion"))
        let plist = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
        let declared = (plist?["_XCCurrentVersionName"] as? String).map { $0.replacingOccurrences(of: ".xcdatamodel", with: "") }
        if let declared, bundle.versions.contains(where: { $0.name == declared }) {
            #expect(bundle.currentVersion.name == declared)
            #expect(bundle.warnings.isEmpty)
        } else {
            #expect(bundle.currentVersion == bundle.versions.last)
            #expect(bundle.warnings.count == 1)
        }
        for version in bundle.versions {
            _ = try bundle.load(version)
        }
    }

    /// Two corpus bundles are known to lack a usable current version.
    @Test(.needsCorpus) func knownBrokenCurrentVersionsWarn() throws {
        let empty = try ModelBundle(at: TestPaths.corpus.appendingPathComponent(
            "models/015__JohnEstropia__CoreStore__Advanced.EvolutionDemo.xcdatamodeld").path)
        #expect(empty.currentVersion.name == "Advanced.EvolutionDemo.V2")
        #expect(empty.warnings.first?.message.contains("empty dictionary") == true)
        let missing = try ModelBundle(at: TestPaths.corpus.appendingPathComponent("models/077__mattt__rack-scaffold__Example.xcdatamodeld").path)
        #expect(missing.currentVersion.name == "Example")
        #expect(missing.declaredCurrentVersionName == "IncrementalStoreExample.xcdatamodel")
    }
}
