import ArgumentParser
import FerryArchive
import FerryBundle
import FerryFormats
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
                in parts (made in memory and archived as they come: no table is staged on disk; at most 16 MiB, or \
                256 KiB with CSV, whose part N holds the rows of NDJSON part N), \
                attachments named by their SHA-256, bundle.json, and SHA-256 manifests; the archive is sealed with \
                its own SHA-256. The same store gives a byte-identical bundle. An existing FILE is never overwritten. \
                Format: Formats/bundle.md.

                Unless --no-view is given, the bag also holds a view for people: index.html at its top and static \
                pages in view/ (recipes, projects, logs, catalog, attachments), which open from the unpacked folder in \
                any browser, with no network. They are tag files of the bag, covered by its tag manifest: a changed page \
                fails `ferry verify`. The bundle id depends on the payload alone, so it is the same with or without them \
                (the formats below are payload: the id depends on which are chosen).

                The payload also carries the data in the formats other apps import (--formats chooses; default all): \
                data/formats/schema-org/ (schema.org Recipe JSON-LD, a file per recipe and recipes.jsonld), \
                data/formats/paprika/recipes.paprikarecipes, data/formats/ical/<app>.ics (assignments as to-dos, \
                sessions and meal plans as events), data/formats/csv/<table>/ (CSV per table) with \
                data/datapackage.json (a Frictionless Data Package of the NDJSON and the CSV), and \
                data/formats/fidelity.json: what each format keeps, coarsens and drops, with counts. \
                Format: Formats/export-formats.md.

                --as writes one format alone into FILE: schema-org (a JSON-LD list), paprika (.paprikarecipes), \
                ics (one calendar) or csv (a zip of the CSV parts and datapackage.json).

                Examples:
                  ferry export data.ferry -o data.tar.zst
                  ferry export data.ferry -o data.zip --formats schema-org,ics
                  ferry export data.ferry --as paprika -o recipes.paprikarecipes
                  ferry export data.ferry --as ics -o planner.ics
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

        @Option(help: ArgumentHelp("Other apps' formats in the bundle: all, none, or a comma-separated list of schema-org, paprika, ics, csv.",
                                   valueName: "list"))
        var formats = "all"

        @Option(name: .customLong("as"), help: ArgumentHelp("Write one format alone into the output file instead of a bundle: schema-org, paprika, ics or csv.",
                                                             valueName: "format"))
        var single: ExportFormatChoice?

        func validate() throws {
            _ = try chosenFormats()
            if single != nil, format != nil || noView || formats != "all" {
                throw ValidationError("--as writes one format alone: --format, --no-view and --formats are for bundles")
            }
        }

        func chosenFormats() throws -> Set<ExportFormat> {
            let names = formats.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            if names == ["all"] { return Set(ExportFormat.allCases) }
            if names == ["none"] { return [] }
            var chosen: Set<ExportFormat> = []
            for name in names {
                guard let format = ExportFormat(rawValue: name) else {
                    throw ValidationError("--formats: \"\(name)\" is not a format (all, none, \(ExportFormat.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                chosen.insert(format)
            }
            return chosen
        }

        func run() throws {
            LeftoverNotice.sweep(beside: output)
            if let single {
                let fidelity = try SingleFormatExporter(ferryVersion: Ferry.version).export(store: store, as: single.format, to: output)
                Console.error("ferry: exported \(store) as \(single.rawValue) to \(output)\n  \(Self.describe(fidelity))")
                return
            }
            let chosen = format?.format ?? ArchiveFormat(fileName: output) ?? .tarZstd
            var exporter = BundleExporter(format: chosen, ferryVersion: Ferry.version, view: noView ? nil : BundleView())
            exporter.formats = try chosenFormats()
            let summary = try ProgressLine.around { line in
                var exporter = exporter
                exporter.progress = line?.bundleUpdates
                return try exporter.export(store: store, to: output)
            }
            let rows = CanonicalTables.countsLine(summary.counts)
            Console.error("""
                ferry: exported \(store) to \(output) (\(chosen.rawValue), bundle \(summary.bundleID))
                  \(rows.isEmpty ? "no rows" : rows)
                  \(Console.count(summary.attachmentCount, "attachment")); payload \(Console.count(summary.payloadFiles, "file")), \(Console.count(Int(summary.payloadBytes), "byte"))
                  \(summary.viewFiles > 0 ? "view: index.html and \(summary.viewFiles - 1) files in view/" : "no view (--no-view)")
                  \(summary.formats.isEmpty ? "no other formats (--formats none)" : "formats: " + summary.formats.map(Self.describe).joined(separator: "; "))
                """)
        }

        /// `paprika: 12 recipes, 3 fields dropped` — what fidelity.json says at length.
        static func describe(_ fidelity: FormatFidelity) -> String {
            let written = fidelity.written.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            let losses = fidelity.losses
            return "\(fidelity.format): \(written.isEmpty ? "nothing to write" : written)"
                + (losses.isEmpty ? "" : " (\(losses.count) \(losses.count == 1 ? "field" : "fields") coarsened or dropped: see fidelity)")
        }
    }
}

enum ExportFormatChoice: String, ExpressibleByArgument, CaseIterable {
    case schemaOrg = "schema-org", paprika, ics, csv
    var format: ExportFormat { ExportFormat(rawValue: rawValue) ?? .csv }
}

enum ArchiveFormatChoice: String, ExpressibleByArgument, CaseIterable {
    case tarZst = "tar.zst", tarGz = "tar.gz", zip
    var format: ArchiveFormat { ArchiveFormat(rawValue: rawValue)! }
}
