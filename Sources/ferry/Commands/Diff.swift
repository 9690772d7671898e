import ArgumentParser
import FerryCoreData
import FerryJSON
import FerryModel

extension Ferry {
    struct Diff: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Compare model versions and say what migrating a store between them takes.",
            discussion: """
                With two models, compares OLD with NEW (their current versions, or --old-version/--new-version). \
                With one bundle, compares every consecutive pair of its versions in name order. Each change is \
                no-store-effect, lightweight (inferred by Core Data) or mapping-model (needs a mapping model).

                Examples:
                  ferry diff Model.xcdatamodeld
                  ferry diff "Model.xcdatamodeld/Model.xcdatamodel" "Model.xcdatamodeld/Model 2.xcdatamodel" --format json
                """)

        @Argument(help: "The old model, or a bundle whose versions to compare in order.", completion: .file())
        var old: String

        @Argument(help: "The new model.", completion: .file())
        var new: String?

        @Option(help: ArgumentHelp("Version of OLD to compare.", valueName: "name"))
        var oldVersion: String?

        @Option(help: ArgumentHelp("Version of NEW to compare.", valueName: "name"))
        var newVersion: String?

        @Option(help: "Output format.")
        var format: ReportFormat = .text

        func validate() throws {
            if new == nil && (oldVersion != nil || newVersion != nil) {
                throw ValidationError("--old-version and --new-version need two models; with one bundle every pair is compared")
            }
        }

        func run() throws {
            let comparisons: [ModelComparison]
            let oldBundle = try ModelBundle.opening(old)
            Console.warn(oldBundle.warnings)
            if let new {
                let newBundle = try ModelBundle.opening(new)
                Console.warn(newBundle.warnings)
                comparisons = [ModelDiff().compare(try oldBundle.model(version: oldVersion), try newBundle.model(version: newVersion))]
            } else {
                guard oldBundle.versions.count > 1 else {
                    throw ValidationError("\(old) has one version; give two models, or a bundle with several versions")
                }
                comparisons = try ModelDiff().compareConsecutiveVersions(of: oldBundle)
            }
            switch format {
            case .text: Console.output(DiffTextRenderer().render(comparisons))
            case .json: Console.output(try JSONOutput.string(DiffReport(comparisons: comparisons)))
            }
        }
    }
}
