import Crypto
import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

/// `ferry dump` of every real store in the corpus gives, byte for byte, what the whole-store
/// reader gave before stores were streamed (issue 27): `Tests/Fixtures/CorpusDumps.json`, recorded
/// by `scripts/corpus_dumps.py` with ferry at 60619b9, each store read with the model that made it
/// where the corpus has it, and without (its model cache, else its inferred schema); re-recorded
/// once since, when dates came to be written exactly (only their digits past microseconds). The corpus
/// folder's path, which names a missing external file, is written `<corpus>/` on both sides.
@Suite struct CorpusDumpTests {
    struct Case: Decodable, Sendable, CustomTestStringConvertible {
        var store: String
        var model: String?
        var exit: Int32
        var sha256: String
        var lines: Int
        var testDescription: String { (store as NSString).lastPathComponent + (model == nil ? "" : " --model") }
    }

    struct Recorded: Decodable {
        var recordedWith: String
        var cases: [Case]
    }

    static let stores = TestPaths.corpus.appendingPathComponent("coredata-sqlite")
    static let recorded: [Case] = {
        let url = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/CorpusDumps.json")
        return (try? JSONDecoder().decode(Recorded.self, from: Data(contentsOf: url)))?.cases ?? []
    }()

    @Test(.needsCorpus) func everyCorpusStoreHasRecordedDumps() {
        let found = TestPaths.files(under: Self.stores) { $0.hasSuffix(".sqlite") || $0.hasSuffix(".store") || $0.hasSuffix(".wiredatabase") }
            .map { String($0.dropFirst(Self.stores.path.count + 1)) }
        #expect(found.count >= 19)
        #expect(Set(found) == Set(Self.recorded.map(\.store)), "record new stores with scripts/corpus_dumps.py")
        #expect(Self.recorded.filter { $0.model != nil }.count >= 15)
    }

    @Test(.needsCorpus, arguments: recorded)
    func theDumpIsTheWholeStoreReadersByteForByte(_ recorded: Case) throws {
        var arguments = ["dump", Self.stores.appendingPathComponent(recorded.store).path]
        if let model = recorded.model { arguments += ["--model", Self.stores.appendingPathComponent(model).path] }
        let result = try CommandRunner.ferry(arguments)
        #expect(result.status == recorded.exit, "\(result.stderr)")
        // A missing external file is named by its path: the corpus' place is not part of the record.
        let output = Data(result.stdout.replacingOccurrences(of: Self.stores.path + "/", with: "<corpus>/").utf8)
        #expect(result.stdoutData == Data(result.stdout.utf8), "the dump is UTF-8")
        #expect(output.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } == recorded.lines)
        #expect(SHA256.hash(data: output).map { String(format: "%02x", $0) }.joined() == recorded.sha256)
    }
}
