import ArgumentParser
import FerryArchive
import FerryBundle
import FerryStore
import FerryView
import Foundation

extension Ferry {
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Pack a canonical store into one portable, verifiable bundle file.",
            discussion: """
                The bundle is a BagIt 1.0 bag in one archive: a consistent snapshot of the store (copied under SQLite's \
                read lock, or with its backup API in WAL mode, so a store another process is writing still exports a \
                consistent state), each table as NDJSON \
                in parts of at most 16 MiB (made in memory and archived as they come: no table is staged on disk), \
                attachments named by their SHA-256, bundle.json, and SHA-256 manifests; the archive is sealed with \
                its own SHA-256. The same store gives a byte-identical bundle. An existing FILE is never overwritten. \
                Format: Formats/bundle.md.

                Unless --no-view is given, the bag also holds a view for people: index.html at its top and static \
                pages in view/ (recipes, projects, logs, catalog, attachments), which open from the unpacked folder in \
                any browser, with no network. They are tag files of the bag, covered by its tag manifest: a changed page \
                fails `ferry verify`. The bundle id depends on the data alone, so it is the same with or without them.

                Examples:
                  ferry export data.ferry -o data.tar.zst
                  ferry export data.ferry -o data.zip
                """)

        @Argument(help: ArgumentHelp("The canonical store to export.", valueName: "store"), completion: .file())
        var store: String

        @Option(name: [.short, .customLong("output")], help: ArgumentHelp("The bundle file to write.", valueName: "file"),
                completion: .file())
        var output: String

        @Option(help: "Archive format (default: from the output's extension, else tar.zst).")
        var format: ArchiveFormatChoice?

        @Flag(help: "Leave out the HTML view (index.html and view/).")
        var noView = false

        func run() throws {
            LeftoverNotice.sweep(beside: output)
            let chosen = format?.format ?? ArchiveFormat(fileName: output) ?? .tarZstd
            let summary = try ProgressLine.around { line in
                try BundleExporter(format: chosen, ferryVersion: Ferry.version, view: noView ? nil : BundleView(), progress: line?.bundleUpdates)
                    .export(store: store, to: output)
            }
            let rows = CanonicalTables.countsLine(summary.counts)
            Console.error("""
                ferry: exported \(store) to \(output) (\(chosen.rawValue), bundle \(summary.bundleID))
                  \(rows.isEmpty ? "no rows" : rows)
                  \(Console.count(summary.attachmentCount, "attachment")); payload \(Console.count(summary.payloadFiles, "file")), \(Console.count(Int(summary.payloadBytes), "byte"))
                  \(summary.viewFiles > 0 ? "view: index.html and \(summary.viewFiles - 1) files in view/" : "no view (--no-view)")
                """)
        }
    }
}

enum ArchiveFormatChoice: String, ExpressibleByArgument, CaseIterable {
    case tarZst = "tar.zst", tarGz = "tar.gz", zip
    var format: ArchiveFormat { ArchiveFormat(rawValue: rawValue)! }
}
