import ArgumentParser
import FerryCoreData
import FerryModel

/// The model a command reads, and which of its versions.
struct ModelInput: ParsableArguments {
    @Argument(help: "An .xcdatamodeld bundle, an .xcdatamodel folder, a contents file, or a compiled .momd or .mom.",
              completion: .file())
    var model: String

    @Option(name: .customLong("version"),
            help: ArgumentHelp("The model version to read (default: the current version).", valueName: "name"))
    var versionName: String?

    /// Opens the bundle and reports its warnings on stderr.
    func open() throws -> (ModelBundle, ModelVersion) {
        let bundle = try ModelBundle.opening(model)
        Console.warn(bundle.warnings)
        return (bundle, try bundle.version(named: versionName))
    }
}
