import FerryTestSupport
import Foundation

// Rewrites the sample stores in Samples/ (`make samples`). The JSON samples and the .molten
// export are written by hand and not touched.
do {
    try SampleStores.writeAll(into: TestPaths.samples, formats: TestPaths.formats)
    print("wrote the sample stores under \(TestPaths.samples.path)")
} catch {
    FileHandle.standardError.write(Data("make-sample-stores: \(error)\n".utf8))
    exit(1)
}
