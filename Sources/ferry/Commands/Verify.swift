import ArgumentParser
import FerryBundle
import Foundation

extension Ferry {
    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a bundle: completeness, every checksum, every entry's safety, the archive's seal.",
            discussion: """
                Streams the archive once without unpacking it. Each problem is reported (missing, extra, corrupt, unsafe, \
                malformed, unreadable) with the file it concerns; the exit status is 1 when there is any.

                Examples:
                  ferry verify data.tar.zst
                  ferry verify data.tar.zst --format json
                """)

        @Argument(help: ArgumentHelp("The bundle file.", valueName: "file"), completion: .file())
        var bundle: String

        @Option(help: "Report format.")
        var format: ReportFormat = .text

        func run() throws {
            let result = try BundleVerifier().verify(bundle)
            switch format {
            case .json: Console.output(result.json)
            case .text: Console.output(result.text)
            }
            if !result.isValid { throw ExitCode(1) }
        }
    }
}
