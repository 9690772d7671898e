import FerryArchive
import FerryCanonical
import FerryConvert
import FerryTestSupport
import Foundation

extension TemporaryDirectory {
    /// Converts `inputs` into a new store `name` in this folder, archives opened as the command
    /// line opens them: how the format suites run a conversion.
    func convert(_ inputs: [String], into name: String = "out.ferry", keepGoing: Bool = false) throws -> (store: String, report: ConversionReport) {
        let store = url.appendingPathComponent(name).path
        let options = ConversionOptions(keepGoing: keepGoing, openArchive: ArchiveReader.opener)
        return (store, try ConversionJob(inputs: inputs, store: store, options: options).run())
    }
}
