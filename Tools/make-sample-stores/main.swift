import FerryTestSupport
import Foundation

// Rewrites the sample stores in Samples/ the migration check's and the SQL mapping's fixture stores (`make samples`). The JSON samples and the .molten
// export are written by hand and not touched.
do {
    try SampleStores.writeAll(into: TestPaths.samples, formats: TestPaths.formats)
    print("wrote the sample stores under \(TestPaths.samples.path)")
    let fixture = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/MigrationCheck")
    try SampleStores.migrationCheck(fixture)
    print("wrote the migration check's store under \(fixture.path)")
    let mapping = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/SQLMapping")
    try SampleStores.sqlMapping(mapping)
    try SampleStores.mergedModels(mapping)
    print("wrote the SQL mapping's store under \(mapping.path)")
} catch {
    FileHandle.standardError.write(Data("make-sample-stores: \(error)\n".utf8))
    exit(1)
}
