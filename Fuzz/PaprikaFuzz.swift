@testable import FerryCanonical
@testable import FerryConvert
import Foundation

/// A Paprika recipe file (gzip'd JSON, or JSON as it is) through the reader: refused by name or
/// converted, never a crash; a converted recipe's every ingredient line is a line of the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPaprika(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = FuzzInput.file(data, size, name: "recipe.paprikarecipe")
    let context = ConversionContext(report: ReportBuilder(store: "s.ferry", dryRun: false), keepGoing: true)
    do {
        try PaprikaNormalizer(context: context).convertRecipeFile(path)
    } catch is ConversionError {
        return 0
    } catch {
        fatalError("not a ConversionError: \(error)")
    }
    for recipe in context.batch.recipes {
        guard recipe.materials.allSatisfy({ !($0.description ?? "").isEmpty }) else { fatalError("an empty ingredient line was kept") }
    }
    return 0
}
