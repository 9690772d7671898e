import ArgumentParser
import FerryCoreData
import FerryJSON
import FerryModel
import Foundation

extension Ferry {
    struct Diff: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Compare model versions and say what migrating a store between them takes.",
            discussion: """
                With two models, compares OLD with NEW (their current versions, or --old-version/--new-version). \
                With one bundle, compares every consecutive pair of its versions in name order. Each change is \
                no-store-effect, lightweight (inferred by Core Data) or mapping-model (needs a mapping model).

                With --store, the store is read with the version of OLD that made it, and every record the migration \
                to NEW (or OLD's current version) would fail on or lose is listed: NULLs in attributes that become \
                required, values outside new bounds, duplicates under new uniqueness constraints, empty to-one \
                relationships that become required, values that do not convert to a changed type; and the values it \
                would drop while succeeding (removed or renamed-looking attributes, removed links, removed entities' \
                records). The exit status is 1 when there is any. A --old-version the store's hashes contradict is refused.

                Examples:
                  ferry diff Model.xcdatamodeld
                  ferry diff "Model.xcdatamodeld/Model.xcdatamodel" "Model.xcdatamodeld/Model 2.xcdatamodel" --format json
                  ferry diff Model.xcdatamodeld --store Model.sqlite
                """)

        @Argument(help: "The old model, or a bundle whose versions to compare in order.", completion: .file())
        var old: String

        @Argument(help: "The new model.", completion: .file())
        var new: String?

        @Option(help: ArgumentHelp("Version of OLD to compare.", valueName: "name"))
        var oldVersion: String?

        @Option(help: ArgumentHelp("Version of NEW to compare.", valueName: "name"))
        var newVersion: String?

        @Option(help: ArgumentHelp("A store of OLD to check the migration against, record by record.", valueName: "store"),
                completion: .file())
        var store: String?

        @Option(help: "Output format.")
        var format: ReportFormat = .text

        func validate() throws {
            if new == nil && store == nil && (oldVersion != nil || newVersion != nil) {
                throw ValidationError("--old-version and --new-version need two models; with one bundle every pair is compared")
            }
        }

        func run() throws {
            if let store { return try checkMigration(of: store) }
            let comparisons: [ModelComparison]
            let oldBundle = try ModelBundle.opening(old)
            Console.warn(oldBundle.warnings)
            if let new {
                let newBundle = try ModelBundle.opening(new)
                Console.warn(newBundle.warnings)
                let (from, to) = (try oldBundle.model(version: oldVersion), try newBundle.model(version: newVersion))
                comparisons = [Self.sameBundle(old, new)
                    ? try ModelDiff().compare(from, to, across: newBundle) : ModelDiff().compare(from, to)]
            } else {
                guard oldBundle.versions.count > 1 else {
                    // A file that is no model at all says so first.
                    _ = try oldBundle.model(version: nil)
                    throw ValidationError("\(old) has one version; give two models, or a bundle with several versions")
                }
                comparisons = try ModelDiff().compareConsecutiveVersions(of: oldBundle)
            }
            switch format {
            case .text: Console.output(DiffTextRenderer().render(comparisons))
            case .json: Console.output(try JSONOutput.string(DiffReport(comparisons: comparisons)))
            }
        }
        /// The store read with the version of OLD that made it, against NEW (or OLD's current version).
        private func checkMigration(of store: String) throws {
            let reader = try CoreDataStoreReader(path: store, model: old, version: oldVersion)
            Console.warn(reader.notes)
            let target = try ModelBundle.opening(new ?? old)
            Console.warn(target.warnings)
            let newModel = try target.model(version: newVersion)
            let comparison = Self.sameBundle(old, new ?? old)
                ? try ModelDiff().compare(reader.model, newModel, across: target) : ModelDiff().compare(reader.model, newModel)
            let check = try MigrationCheck(store: reader, new: newModel).run()
            switch format {
            case .text: Console.output(DiffTextRenderer().render([comparison]) + check.text)
            case .json: Console.output(try JSONOutput.string(CheckedDiff(pairs: [comparison], migrationCheck: check)))
            }
            if check.failures + check.losses > 0 { throw ExitCode(1) }
        }
    }

    /// `diff --store --format json`: the pair compared, and what its migration meets in the store.
    struct CheckedDiff: Encodable {
        var format = "ferry.diff/1"
        var pairs: [ModelComparison]
        var migrationCheck: MigrationCheckReport
    }
}

extension Ferry.Diff {
    /// Two paths to one model bundle: the versions between those compared are steps of the migration.
    static func sameBundle(_ first: String, _ second: String) -> Bool {
        URL(fileURLWithPath: first).standardizedFileURL.resolvingSymlinksInPath()
            == URL(fileURLWithPath: second).standardizedFileURL.resolvingSymlinksInPath()
    }
}
