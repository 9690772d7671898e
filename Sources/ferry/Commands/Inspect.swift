import ArgumentParser
import FerryCoreData
import FerryJSON
import FerryModel
import Foundation

extension Ferry {
    struct Inspect: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a model, or a Core Data / SwiftData store: its metadata, tables, row counts and model version.",
            discussion: """
                For a model, text is a table per entity; json is the whole model (schema: \
                Formats/json/inspect-model.schema.json); mermaid and dot draw it (pipe dot output to `dot -Tsvg`). \
                For a store (an SQLite file), text and json report its metadata, the model version that made it \
                (with --model) and rows per entity (schema: Formats/json/inspect-store.schema.json); mermaid and dot \
                draw the model read from the store.

                Examples:
                  ferry inspect Model.xcdatamodeld --entity Course --format json
                  ferry inspect Model.sqlite --model Model.xcdatamodeld
                """)

        @OptionGroup var input: ModelInput

        @Option(help: ArgumentHelp("Show only this entity (diagrams add its neighbours).", valueName: "name"))
        var entity: String?

        @Option(help: ArgumentHelp("For a store: the model that made it (.xcdatamodeld, .xcdatamodel, contents, .momd).",
                                   valueName: "model"), completion: .file())
        var model: String?

        @Option(help: "Output format.")
        var format: InspectFormat = .text

        @Flag(help: "For a model in text: show each entity's Core Data version hash (json always has them).")
        var hashes = false

        func run() throws {
            if StoreDetection.isSQLite(input.model) {
                if hashes { throw ValidationError("--hashes is for models; a store's entity hashes are in its metadata, shown without it") }
                let reader = try CoreDataStoreReader(path: input.model, model: model, version: input.versionName)
                Console.warn(reader.notes)
                let report = CoreDataStoreReport(reader)
                switch format {
                case .text: Console.output(report.text)
                case .json: Console.output(try JSONOutput.string(report))
                case .mermaid: Console.output(MermaidRenderer().render(reader.model, entityName: entity))
                case .dot: Console.output(DOTRenderer().render(reader.model, entityName: entity))
                }
                return
            }
            if model != nil {
                // Named for what it is: a missing file is missing, not "a model".
                guard FileManager.default.fileExists(atPath: input.model) else { throw CoreDataReadError(.fileNotFound, file: input.model) }
                throw ValidationError("--model is for stores; \(input.model) is not an SQLite store")
            }
            let (bundle, version) = try input.open()
            let model = try bundle.load(version)
            if let entity, model.entity(named: entity) == nil {
                throw ModelError(.unknownEntity(entity, available: model.entities.map(\.name)), at: ModelLocation(file: version.displayPath))
            }
            switch format {
            case .text: Console.output(ModelTextRenderer(showsVersionHashes: hashes).render(model, bundle: bundle, version: version, entityName: entity))
            case .json: Console.output(try JSONOutput.string(ModelDocument(bundle: bundle, model: model, version: version, entityName: entity)))
            case .mermaid: Console.output(MermaidRenderer().render(model, entityName: entity))
            case .dot: Console.output(DOTRenderer().render(model, entityName: entity))
            }
        }
    }
}
