import ArgumentParser
import FerryJSON
import FerryModel

extension Ferry {
    struct Lint: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a model for load-time, CloudKit and migration problems.",
            discussion: """
                CloudKit rules apply when the model or one of its configurations is marked usedWithCloudKit, \
                or with --cloudkit. Exit status: 1 when any finding is an error, 0 otherwise. \
                Rules: Formats/lint-rules.md.

                Example: ferry lint Model.xcdatamodeld --cloudkit --format json
                """)

        @OptionGroup var input: ModelInput

        @Flag(help: "Apply CloudKit's rules to every entity.")
        var cloudkit = false

        @Option(help: "Output format.")
        var format: ReportFormat = .text

        func run() throws {
            let (bundle, version) = try input.open()
            let report = ModelLinter(forceCloudKit: cloudkit).lint(try bundle.load(version))
            switch format {
            case .text: Console.output(LintTextRenderer().render(report))
            case .json: Console.output(try JSONOutput.string(report))
            }
            if report.hasErrors { throw ExitCode(1) }
        }
    }
}
