import Foundation

// Writes a Swift file holding model files as text, so that the ferry binary carries the models
// in `Formats/` without files beside it. Run by the EmbedModels build plugin; the models in
// `Formats/` stay the only copy in the repository.
//
//   embed-models legacy    FORMATS OUTPUT   the apps' legacy models (Formats/legacy/)
//   embed-models canonical FORMATS OUTPUT   the canonical store's mirror (Formats/canonical/)

/// The legacy models shipped, as (app, bundle folder in Formats/legacy/).
let legacyBundles = [("molten", "Molten.xcdatamodeld"), ("forager", "Forager.xcdatamodel"), ("photoapp", "PhotoApp.xcdatamodel")]
let canonicalContents = "canonical/Ferry.xcdatamodeld/Ferry 1.xcdatamodel/contents"

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("embed-models: \(message)\n".utf8))
    exit(1)
}

/// `text` as a Swift raw string literal whose delimiter it does not contain.
func literal(_ text: String) -> String {
    var hashes = "#"
    while text.contains("\"\"\"\(hashes)") || text.contains("\"\(hashes)") { hashes += "#" }
    return "\(hashes)\"\"\"\n\(text)\n\"\"\"\(hashes)"
}

func read(_ path: String) -> String {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { fail("cannot read \(path)") }
    return text.trimmingCharacters(in: .newlines)
}

let arguments = CommandLine.arguments
guard arguments.count == 4 else { fail("usage: embed-models legacy|canonical FORMATS OUTPUT") }
let formats = arguments[2]
var source = "// Generated at build time by the EmbedModels plugin (Tools/embed-models) from Formats/: do not edit.\n\n"
switch arguments[1] {
case "legacy":
    source += "/// The legacy models in `Formats/legacy/`, as text: (app, bundle, version, contents).\n"
    source += "enum EmbeddedModels {\n    static let files: [(app: String, bundle: String, version: String, contents: String)] = [\n"
    for (app, bundle) in legacyBundles {
        let folder = "\(formats)/legacy/\(bundle)"
        let versions: [(String, String)]
        if bundle.hasSuffix(".xcdatamodeld") {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".xcdatamodel") }.sorted()
            versions = names.map { (String($0.dropLast(".xcdatamodel".count)), "\(folder)/\($0)/contents") }
        } else {
            versions = [((bundle as NSString).deletingPathExtension, "\(folder)/contents")]
        }
        guard !versions.isEmpty else { fail("no model versions in \(folder)") }
        for (version, path) in versions {
            source += "        (\"\(app)\", \"\(bundle)\", \"\(version)\", \(literal(read(path)))),\n"
        }
    }
    source += "    ]\n}\n"
case "canonical":
    source += "/// The canonical store's Core Data mirror, `Formats/\(canonicalContents)`, as text.\n"
    source += "enum CanonicalModelText {\n    static let path = \"Formats/\(canonicalContents)\"\n"
    source += "    static let contents = \(literal(read("\(formats)/\(canonicalContents)")))\n}\n"
default:
    fail("unknown kind \(arguments[1]): legacy or canonical")
}
do {
    try Data(source.utf8).write(to: URL(fileURLWithPath: arguments[3]), options: .atomic)
} catch {
    fail("cannot write \(arguments[3]): \(error)")
}
