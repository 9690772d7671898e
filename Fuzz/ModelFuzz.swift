import FerryModel
import Foundation

/// The XML model parser, then the linter and renderers over whatever model it accepts.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzModel(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let model = try? ModelParser().parse(data: Data(bytes: data, count: size), file: "contents") else { return 0 }
    _ = ModelLinter().lint(model)
    _ = ModelDiff().compare(model, model)
    _ = MermaidRenderer().render(model)
    _ = DOTRenderer().render(model)
    return 0
}
