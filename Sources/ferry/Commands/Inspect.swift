import ArgumentParser
import FerryModel

extension Ferry {
    struct Inspect: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a model: its entities, attributes, relationships and everything else the file says.",
            discussion: """
                Text is a table per entity; json is the whole model (schema: Formats/json/inspect-model.schema.json); \
                mermaid and dot draw it (pipe dot output to `dot -Tsvg`).

                Example: ferry inspect Model.xcdatamodeld --entity Course --format json
                """)

        @OptionGroup var input: ModelInput

        @Option(help: ArgumentHelp("Show only this entity (diagrams add its neighbours).", valueName: "name"))
        var entity: String?

        @Option(help: "Output format.")
        var format: InspectFormat = .text

        func run() throws {
            let (bundle, version) = try input.open()
            let model = try bundle.load(version)
            if let entity, model.entity(named: entity) == nil {
                throw ModelError(.unknownEntity(entity, available: model.entities.map(\.name)),
                                 at: ModelLocation(file: version.displayPath))
            }
            switch format {
            case .text: Console.output(ModelTextRenderer().render(model, bundle: bundle, version: version, entityName: entity))
            case .json: Console.output(try JSONOutput.string(ModelDocument(bundle: bundle, model: model, version: version, entityName: entity)))
            case .mermaid: Console.output(MermaidRenderer().render(model, entityName: entity))
            case .dot: Console.output(DOTRenderer().render(model, entityName: entity))
            }
        }
    }
}
