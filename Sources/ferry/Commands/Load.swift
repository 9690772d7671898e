import ArgumentParser
import FerryCoreData
import FerryModel
import FerryStore
import Foundation

extension Ferry {
    struct Load: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write records in `ferry dump`'s form as a new Core Data store for a model (experimental).",
            discussion: """
                Reads the <Entity>.ndjson files `ferry dump -o DIR` writes (or records made the same way, to \
                prepopulate an app's store) and writes a new SQLite store laid out as Core Data lays it out for the \
                model version: its tables, indexes, Z_PRIMARYKEY and Z_METADATA, with entity version hashes computed \
                from the XML. Records keep their pk; relationships are given by the records' ids. A dump made with \
                --lossless is written back row for row (values, Z_OPT, orders, Z_MAX). A store of several models \
                merged (an app's and its frameworks') takes each: --model App.xcdatamodeld --model Kit.momd. The store appears \
                whole or not at all; an existing store is first backed up (checked, rotated) and then replaced. Experimental: that Core Data opens \
                such a store as its own is not yet confirmed on macOS. Format: Formats/coredata-store-writing.md.

                Example:
                  ferry dump Model.sqlite --model Model.xcdatamodeld -o records/
                  ferry load records/ --model Model.xcdatamodeld --to New.sqlite
                """)

        @Argument(help: "The folder of <Entity>.ndjson files.", completion: .directory)
        var directory: String

        @Option(help: ArgumentHelp("The model to write the store for (.xcdatamodeld, .xcdatamodel, contents, .momd); "
                                   + "once per model for a store of merged models.", valueName: "model"),
                completion: .file())
        var model: [String]

        @Option(name: .customLong("version"), help: ArgumentHelp("This version of the model; by default the one the dump was read with (its _store.json), else the current one.", valueName: "name"))
        var versionName: String?

        @Option(help: ArgumentHelp("The new store; an existing one is backed up first, verified, then replaced whole.", valueName: "store"),
                completion: .file())
        var to: String

        @OptionGroup var backups: BackupOptions

        func run() throws {
            LeftoverNotice.sweep(beside: to)
            guard !model.isEmpty else { throw ValidationError("Missing expected argument '--model <model>'") }
            if model.count > 1, versionName != nil {
                throw ValidationError("--version picks a version of one model; merged models are each read at the version the dump names, else their current one")
            }
            let dumped = try CoreDataDumpLoader.DumpedStore(directory: directory)
            var models: [DataModel] = []
            for path in model {
                let bundle = try ModelBundle.opening(path)
                let version = versionName ?? dumped?.version.flatMap { name in bundle.versions.contains { $0.name == name } ? name : nil }
                models.append(try bundle.model(version: version))
            }
            let loader = CoreDataDumpLoader(model: models.count == 1 ? models[0] : try DataModel(merging: models))
            try ReplaceableCoreDataStore.check(to, model: loader.model, allowForeign: backups.replaceForeign)
            // As everywhere in Ferry: a store is replaced only after a verified copy of it is kept.
            let backup = FileManager.default.fileExists(atPath: to) ? try backups.backup.take(to, foreign: backups.replaceForeign) : nil
            let counts: [String: Int]
            do {
                counts = try loader.load(from: directory, to: to, replacing: backup != nil)
            } catch {
                backup?.discard()
                throw error
            }
            backup?.keep()
            let total = counts.values.reduce(0, +)
            Console.error("ferry: \(Console.count(total, "record")) of \(Console.count(counts.count, "entity", plural: "entities")) written to \(to)" + (backup.map { " (the store it replaced is kept as \($0.path))" } ?? ""))
        }
    }
}
