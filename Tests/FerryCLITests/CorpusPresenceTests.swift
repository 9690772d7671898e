import FerryTestSupport
import FerryTestTraits
import Testing

/// Where the corpus must be (CI sets FERRY_REQUIRE_CORPUS=1), its absence fails here by name,
/// besides every corpus test failing on its missing files.
@Test func theCorpusIsThereWhereItIsRequired() {
    if SharedCorpus.isRequired {
        #expect(SharedCorpus.isPresent, "FERRY_REQUIRE_CORPUS=1, but there is no corpus at \(TestPaths.corpus.path)")
    }
}
