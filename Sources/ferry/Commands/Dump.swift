import ArgumentParser
import FerryCoreData
import FerryFiles
import FerryJSON
import Foundation

extension Ferry {
    struct Dump: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write every record of a Core Data or SwiftData store as NDJSON or JSON.",
            discussion: """
                One object per record: entity, id (its id/uuid UUID attribute, else <Entity>/p<Z_PK>), pk and values \
                (attributes by type; relationships as ids). Without --model the store's own model cache is used, or the \
                schema is inferred from its tables, and the output says so. The store and its sidecars are never modified. \
                Format: Formats/store-dump.md.

                Examples:
                  ferry dump Model.sqlite --model Model.xcdatamodeld > records.ndjson
                  ferry dump Model.sqlite --entity Post --format json -o out/
                  ferry dump Model.sqlite --history > changes.ndjson
                  ferry dump Model.sqlite --model Model.xcdatamodeld --lossless -o records/
                """)

        @Argument(help: "The store: an SQLite file (its -wal, if any, is read too).", completion: .file())
        var store: String

        @Option(help: ArgumentHelp("The model that made the store (.xcdatamodeld, .xcdatamodel, contents, .momd).",
                                   valueName: "model"), completion: .file())
        var model: String?

        @Option(name: .customLong("version"), help: ArgumentHelp("Use this version of the model instead of the matched one.", valueName: "name"))
        var versionName: String?

        @Option(help: ArgumentHelp("Only this entity's records.", valueName: "name"))
        var entity: String?

        @Option(help: "Output format.")
        var format: DumpFormat = .ndjson

        @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Write one file per entity into this folder.", valueName: "dir"),
                completion: .directory)
        var output: String?

        @Flag(help: "Write the store's persistent history instead: one object per change (type, entity, record, transaction author and time).")
        var history = false

        @Flag(help: "Values as stored (dates as seconds since 2001, archives and binary as base64), with Z_OPT and orders: what `ferry load` writes back row for row.")
        var lossless = false

        func validate() throws {
            if versionName != nil && model == nil { throw ValidationError("--version needs --model") }
            if history && entity != nil { throw ValidationError("--history takes no --entity: it lists every transaction") }
            if history && output != nil { throw ValidationError("--history writes to standard output and takes no --output") }
        }

        func run() throws {
            if let output { LeftoverNotice.sweep(beside: output) }
            let reader = try CoreDataStoreReader(path: store, model: model, version: versionName)
            Console.warn(reader.notes)
            Console.error("ferry: schema from \(reader.schemaSource)" + Self.howMatched(reader, chosen: versionName))
            if history { return try writeHistory(reader) }
            let dump = CoreDataStoreDump(format: format.storeFormat, entity: entity, lossless: lossless)
            let result: (counts: [String: Int], warnings: [String: Int])
            if let output {
                result = try dump.write(reader, toDirectory: output)
            } else {
                var output = ChunkedWriter { Console.output(bytes: $0) }
                result = try dump.write(reader) { try output.append($0) }
                try output.flush()
            }
            for (warning, count) in result.warnings.sorted(by: { $0.key < $1.key }) {
                Console.error("ferry: warning: \(reader.path): \(warning)" + (count > 1 ? " (\(count) times)" : ""))
            }
            let total = result.counts.values.reduce(0, +)
            Console.error("ferry: \(Console.count(total, "record")) from \(Console.count(result.counts.count, "entity", plural: "entities"))"
                          + (output.map { " written to \($0)" } ?? ""))
        }

        private func writeHistory(_ reader: CoreDataStoreReader) throws {
            var writer = JSONWriter(sortedKeys: true)
            var count = 0
            if format == .json { Console.output("{\"format\":\"ferry.history/1\",\"changes\":[") }
            try PersistentHistory.forEachChange(of: reader) { change in
                writer.reset()
                if format == .json && count > 0 { writer.appendRaw(",") }
                writer.write(change)
                if format == .ndjson { writer.appendNewline() }
                Console.output(bytes: writer.bytes)
                count += 1
            }
            if format == .json { Console.output("]}\n") }
            Console.error("ferry: \(count) changes of the persistent history")
        }
    }
}

enum DumpFormat: String, ExpressibleByArgument, CaseIterable {
    case ndjson, json
    var storeFormat: CoreDataStoreDump.Format { self == .json ? .json : .ndjson }
}

extension Ferry.Dump {
    /// How a model's version was chosen, after the source that already names it.
    static func howMatched(_ reader: CoreDataStoreReader, chosen: String?) -> String {
        guard case .model = reader.schemaSource else { return "" }
        if chosen != nil { return " (as asked)" }
        switch reader.versionMatch?.method {
        case .identifier?: return " (named by the store's version identifier)"
        case .versionHashes?, .computedVersionHashes?: return " (matched by the store's entity version hashes)"
        case .schema?: return " (matched by the store's tables)"
        case .partOfStore?: return " (describing part of the store)"
        case nil: return ""
        }
    }
}
