import Foundation
import PackagePlugin

/// Builds the models in `Formats/` into the targets that ship them, as Swift text, so that the
/// repository keeps one copy of each model: FerryConvert gets the apps' legacy models,
/// FerryStore the canonical store's Core Data mirror.
@main
struct EmbedModels: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let formats = context.package.directoryURL.appending(path: "Formats")
        let kind: String, folder: URL, output: URL
        switch target.name {
        case "FerryConvert":
            (kind, folder) = ("legacy", formats.appending(path: "legacy"))
            output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedModels.swift")
        case "FerryStore":
            (kind, folder) = ("canonical", formats.appending(path: "canonical"))
            output = context.pluginWorkDirectoryURL.appending(path: "CanonicalModelText.swift")
        default:
            return []
        }
        // Every model file is an input, so that editing one rebuilds the target.
        var inputs: [URL] = []
        if let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) {
            for case let file as URL in files where file.lastPathComponent == "contents" { inputs.append(file) }
        }
        return [.buildCommand(displayName: "Embedding the \(kind) models of Formats/ in \(target.name)",
                              executable: try context.tool(named: "embed-models").url,
                              arguments: [kind, formats.path, output.path],
                              inputFiles: inputs, outputFiles: [output])]
    }
}
