@testable import FerryCanonical
@testable import FerryConvert
import FerryJSON
import Foundation

/// The in-place reading of a brew log on the bytes as given; where it takes a record, the same
/// record streamed (read in place) and read whole (by the general reading) must give the same
/// logs and the same report.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBrewLog(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let (_, length) = BrewLogInPlace.read(bytes) else { return 0 }
    let record = Array(bytes[0..<length])
    let array = Array("[".utf8) + record + Array("]".utf8)
    let path = array.withUnsafeBufferPointer { FuzzInput.file($0.baseAddress!, $0.count, name: "brewlogs.json") }
    let streamed = ConversionContext(report: ReportBuilder(store: "s.ferry", dryRun: false), keepGoing: true)
    let whole = ConversionContext(report: ReportBuilder(store: "s.ferry", dryRun: false), keepGoing: true)
    do {
        try BrewGuideNormalizer(context: streamed).convert(streaming: path)
        try BrewGuideNormalizer(context: whole).convert(try JSONDocuments.read(path))
    } catch {
        fatalError("read in place, then refused: \(error): \(String(decoding: record, as: UTF8.self))")
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    guard streamed.batch.logs == whole.batch.logs,
          (try? encoder.encode(streamed.report.finish())) == (try? encoder.encode(whole.report.finish())) else {
        fatalError("read in place, made another log: \(String(decoding: record, as: UTF8.self))")
    }
    return 0
}
