@testable import FerryCanonical
@testable import FerryConvert
import Foundation

/// Cooklang text through the parser and the reader: never a crash; the parse is the same twice,
/// and every ingredient it finds becomes one of the recipe's lines.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCooklang(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let text = String(data: Data(bytes: data, count: size), encoding: .utf8) else { return 0 }
    let parsed = CooklangParser.parse(text)
    guard parsed == CooklangParser.parse(text) else { fatalError("two parses differ") }
    let path = FuzzInput.file(data, size, name: "recipe.cook")
    let context = ConversionContext(report: ReportBuilder(store: "s.ferry", dryRun: false), keepGoing: true)
    do {
        try CooklangNormalizer(context: context).recipe(path)
    } catch {
        fatalError("a .cook file was refused: \(error)")
    }
    let ingredients = parsed.steps.flatMap(\.items).filter { if case .ingredient = $0 { return true } else { return false } }.count
    guard context.batch.recipes.first?.materials.count == ingredients else { fatalError("\(ingredients) ingredients, other lines") }
    return 0
}
