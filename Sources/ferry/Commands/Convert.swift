import ArgumentParser
import FerryArchive
import FerryCanonical
import FerryConvert
import FerryCoreData
import FerryStore
import FerryFiles
import FerryModel
import Foundation

extension Ferry {
    struct Convert: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Convert apps' recipes, projects and logs into one canonical recipe / project / log store.",
            discussion: """
                Each input is a file or a folder (read whole: every file Ferry recognises; the others are listed as \
                skipped). Each file's app and kind are detected from its content; --from fixes the app: the five apps' legacy \
                data and stores, and the exports of Paprika, Tandoor, Mealie, Nextcloud Cookbook, Beanconqueror, Cooklang and \
                schema.org recipe pages (Formats/apps/). Converting the same \
                input again leaves the same store (records are upserted by id). An existing store is backed up first \
                (verified, timestamped, rotated, in STORE.backups/); the conversion is one transaction: all or nothing, \
                unless --keep-going, which keeps the good records and rejects the bad ones (exit status 1). Inputs are never \
                modified. When stderr is a terminal, large inputs show their progress (records, MB/s, time left). \
                Schema: Formats/canonical-schema.md; report: Formats/json/conversion-report.schema.json.

                With --as core-data the records are written as a new Core Data SQLite store instead (experimental, as \
                `ferry load`): of the canonical model, Formats/canonical/Ferry.xcdatamodeld, or with --model of the app's \
                own model (Roots' Roots.xcdatamodeld), where every value the model has no attribute for is reported. An \
                existing file is backed up first, then replaced whole. Record ids are the same on every machine.

                Examples:
                  ferry convert Samples/roots --to data.ferry
                  ferry convert courses.json tasks.json Molten.sqlite --to data.ferry
                  ferry convert exports/ --to data.ferry --report report.json
                  ferry convert exports/ --to data.ferry --dry-run --keep-going
                  ferry convert Samples/roots --to Roots.sqlite --as core-data --model Roots.xcdatamodeld
                """)

        @Argument(help: ArgumentHelp("Files or folders to convert.", valueName: "input"), completion: .file())
        var inputs: [String]

        @Option(name: .customLong("to"), help: ArgumentHelp("The canonical store to create or update.", valueName: "store"),
                completion: .file())
        var store: String

        @Option(help: "The app the inputs come from (default: detected per input).")
        var from: AppChoice = .auto

        @Option(help: ArgumentHelp("A model for a store whose model Ferry does not know (.xcdatamodeld, .xcdatamodel, .momd); "
                                   + "with --as core-data, the app's model to write instead (see --input-model).", valueName: "model"),
                completion: .file())
        var model: String?

        @Option(help: "What to write: the canonical store, or a Core Data store (experimental).")
        var `as`: OutputKind = .canonical

        @Option(help: ArgumentHelp("With --as core-data: a model for an input store whose model Ferry does not know.", valueName: "model"),
                completion: .file())
        var inputModel: String?

        @Option(help: ArgumentHelp("Write the conversion report as JSON to this file.", valueName: "file"), completion: .file())
        var report: String?

        @Flag(help: "Convert and report, but leave the store untouched.")
        var dryRun = false

        @Flag(help: "Keep the good records when some are bad; the bad ones are reported as rejected.")
        var keepGoing = false

        @Option(help: "How bare numbers in JSON dates count time (default: detected per value).")
        var epoch: EpochChoice = .auto

        @OptionGroup var backups: BackupOptions

        func validate() throws {
            guard !inputs.isEmpty else { throw ValidationError("name at least one input") }
            guard inputModel == nil || `as` == .coreData else { throw ValidationError("--input-model goes with --as core-data; use --model") }
        }

        func run() throws {
            if !dryRun { LeftoverNotice.sweep(beside: store) }
            // Every output is checked before any work: a report that cannot be written fails here,
            // not after the store was written.
            var reportFile = try report.map(Self.openReport)
            defer { reportFile?.discard() }
            let result = try ProgressLine.around { line in
                let coreData = `as` == .coreData
                var options = ConversionOptions(from: from.app, model: coreData ? inputModel : model, keepGoing: keepGoing, epoch: epoch.epoch)
                options.progress = line?.conversionUpdates
                options.openArchive = ArchiveReader.opener
                var job = ConversionJob(inputs: inputs, store: store, options: options, dryRun: dryRun,
                                        backup: backups.backup, ferryVersion: Ferry.version)
                job.replaceForeign = backups.replaceForeign
                guard coreData else { return try job.run() }
                let appModel = try model.map { path in (path: path, model: try ModelBundle.opening(path).model(version: nil)) }
                return try CoreDataConversion(job: job, appModel: appModel).run()
            }
            if var file = reportFile {
                try file.write(Array(try result.json().utf8))
                try file.commit()
                reportFile = nil
            }
            Console.error(result.text)
            if !result.rejected.isEmpty { throw ExitCode(1) }
        }
    }
}

extension Ferry.Convert {
    /// The report's file, made (under a temporary name beside it) before the conversion starts.
    static func openReport(_ path: String) throws -> AtomicFile {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw OutputError(path: path, reason: "is a folder; name a file for the report")
        }
        return try AtomicFile(path: path)
    }
}

enum OutputKind: String, ExpressibleByArgument, CaseIterable {
    case canonical, coreData = "core-data"
}

/// `--from`: `auto`, or one of the apps Ferry reads, named as `SourceReaders` names them (the one
/// list of apps; the CLI repeats none of it).
struct AppChoice: ExpressibleByArgument {
    let app: SourceApp?

    static let auto = AppChoice(app: nil)

    init(app: SourceApp?) {
        self.app = app
    }

    init?(argument: String) {
        if argument == "auto" { self.init(app: nil); return }
        guard let app = SourceReaders.apps.first(where: { $0.rawValue == argument }) else { return nil }
        self.init(app: app)
    }

    static var allValueStrings: [String] { ["auto"] + SourceReaders.apps.map(\.rawValue) }
    var defaultValueDescription: String { app?.rawValue ?? "auto" }
}

enum EpochChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, y2001 = "2001", unix, unixMS = "unix-ms"
    var epoch: LegacyDateDecoder.Epoch { LegacyDateDecoder.Epoch(rawValue: rawValue) ?? .automatic }
}
