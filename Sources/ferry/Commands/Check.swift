import ArgumentParser
import FerryCoreData
import FerryJSON

extension Ferry {
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check whether Core Data would open a store, and read it right.",
            discussion: """
                Checks what Core Data relies on: the metadata's keys, types, digest and checksum; the entity \
                version hashes against the model (with --model); Z_PRIMARYKEY (every entity, Z_SUPER, Z_MAX past \
                every key); every row's Z_ENT; the rows to-ones and join tables point at; ordering columns; the \
                model cache; the write-ahead log. One line per finding: error (Core Data would refuse the store \
                or misread it), warning, note. Exit status: 1 when any finding is an error. Rules: \
                Formats/store-check.md; JSON schema: Formats/json/check.schema.json.

                Example: ferry check App.sqlite --model App.xcdatamodeld --format json
                """)

        @Argument(help: "A Core Data or SwiftData SQLite store.", completion: .file())
        var store: String

        @Option(help: ArgumentHelp("The app's model (.xcdatamodeld, .xcdatamodel, contents, .momd, .mom); without it, the store's model cache.",
                                   valueName: "model"), completion: .file())
        var model: String?

        @Option(help: "Output format.")
        var format: ReportFormat = .text

        func run() throws {
            let report = try CoreDataStoreCheck(path: store, model: model).run()
            switch format {
            case .text: Console.output(Self.text(report))
            case .json: Console.output(try JSONOutput.string(report))
            }
            if report.hasErrors { throw ExitCode(1) }
        }

        static func text(_ report: StoreCheckReport) -> String {
            var lines = ["\(report.store) — checked against \(report.model)"]
            let width = report.findings.map(\.check.count).max() ?? 0
            for finding in report.findings {
                let severity = finding.severity.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
                lines.append("\(severity)\(finding.check.padding(toLength: width + 2, withPad: " ", startingAt: 0))\(finding.message)")
            }
            let count = { (severity: StoreCheckReport.Severity) in report.counts[severity.rawValue] ?? 0 }
            lines.append(report.findings.isEmpty ? "no findings: Core Data opens and reads this store as it is"
                : "\(count(.error)) error(s), \(count(.warning)) warning(s), \(count(.note)) note(s)")
            return lines.joined(separator: "\n") + "\n"
        }
    }
}
