import ArgumentParser
import FerryBundle
import FerryJSON
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
            case .json: Console.output(JSONWriter.string(Self.json(result), sortedKeys: true, pretty: true) + "\n")
            case .text: Console.output(Self.text(result))
            }
            if !result.isValid { throw ExitCode(1) }
        }

        static func text(_ result: BundleVerification) -> String {
            guard result.isValid else {
                return result.problems.map { "\(result.path): \($0)\n" }.joined()
                    + "\(result.path): \(result.problems.count) problem\(result.problems.count == 1 ? "" : "s")\n"
            }
            let rows = result.counts.filter { $0.value > 0 }.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
            return "\(result.path): valid bundle \(result.bundleID ?? "?") of \(result.createdAt ?? "?"): "
                + "\(result.payloadFiles) files, \(result.payloadBytes) bytes; \(rows.joined(separator: ", "))\n"
        }

        static func json(_ result: BundleVerification) -> JSONValue {
            var counts = JSONObject()
            for table in result.counts.keys.sorted() { counts[table] = .integer(result.counts[table]!) }
            let problems: [JSONValue] = result.problems.map { problem in
                ["kind": .string(problem.kind.rawValue), "path": problem.path.map { .string($0) } ?? .null, "detail": .string(problem.detail)]
            }
            return [
                "bundle": .string(result.path),
                "valid": .bool(result.isValid),
                "bundleId": result.bundleID.map { .string($0) } ?? .null,
                "createdAt": result.createdAt.map { .string($0) } ?? .null,
                "payloadFiles": .integer(result.payloadFiles),
                "payloadBytes": .integer(result.payloadBytes),
                "counts": .object(counts),
                "problems": .array(problems),
            ]
        }
    }
}
