@testable import FerryCanonical
@testable import FerryConvert
import Foundation

/// A web page through the schema.org reader: its JSON-LD blocks found and read (leniently),
/// refused by name when it holds no Recipe, never a crash; every recipe it finds is one of the
/// Recipe nodes the blocks hold.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONLDPage(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = FuzzInput.file(data, size, name: "page.html")
    let context = ConversionContext(report: ReportBuilder(store: "s.ferry", dryRun: false), keepGoing: true)
    do {
        try SchemaOrgFiles(context: context, app: .schemaOrg).page(path)
    } catch is ConversionError {
        return 0
    } catch {
        fatalError("not a ConversionError: \(error)")
    }
    let nodes = JSONLDBlocks.blocks(in: Array(UnsafeBufferPointer(start: data, count: size))).compactMap { try? $0.value.get() }
        .flatMap { JSONLDBlocks.recipes(in: $0) }
    guard context.batch.recipes.count + context.report.finish().rejected.count == nodes.count else {
        fatalError("\(nodes.count) Recipe nodes, \(context.batch.recipes.count) recipes")
    }
    return 0
}
