import FerryCanonical
import FerryJSON
import FerryCoreData
import Foundation

/// Converts a Core Data or SwiftData store of one of the apps. The store is read with its own
/// model cache, else a model the user gives, else the app's model Ferry ships, else a schema
/// inferred from its tables; its entities tell the app; that app's normalizer takes the rows;
/// rows of entities no normalizer converts are reported, never dropped silently.
struct CoreDataStoreNormalizer {
    let context: ConversionContext
    let options: ConversionOptions

    /// - Returns: what the store was taken for, for the report: `molten store (model cache)`.
    func convert(_ path: String) throws -> String {
        let (reader, app) = try open(path)
        let index: CoreDataRecordIndex
        switch app {
        case .brewguide: index = try CoreDataRecordIndex(reader: reader, streaming: BrewGuideStoreReader.streamedEntities)
        case .molten:
            // Without a model a store's to-manys are unknown: children are found by their link to
            // the owner, so they are held and the owners' links to them kept.
            let inferred = reader.schemaSource == .inferred
            index = try CoreDataRecordIndex(reader: reader, streaming: inferred ? [] : MoltenStoreReader.streamedEntities,
                                            inlining: inferred ? [] : MoltenStoreReader.children(in: reader.model))
        case .photoapp: index = try CoreDataRecordIndex(reader: reader, streaming: PhotoAppStoreReader.streamedEntities)
        default: index = try CoreDataRecordIndex(reader: reader)
        }
        let name = (path as NSString).lastPathComponent
        for note in reader.notes { context.report.warning("\(name): \(note)") }
        let time = context.fileTime(path)
        switch app {
        case .molten: try MoltenStoreReader(context: context, index: index, time: time).convert()
        case .forager: try ForagerStoreReader(context: context, index: index, time: time).convert()
        case .photoapp: try PhotoAppStoreReader(context: context, index: index, time: time).convert()
        case .brewguide: try BrewGuideStoreReader(context: context, index: index, time: time, typedRows: options.readsStoreRowsTyped).convert()
        case .roots:
            throw ConversionError(.notRecognized("a Roots store: Ferry converts Roots' JSON files (tasks.json, courses.json …), not its Core Data store yet; ferry dump reads it"),
                                  at: RecordLocation(file: path))
        }
        for (warning, count) in index.warnings.sorted(by: { $0.key < $1.key }) {
            context.report.warning("\(name): \(warning)" + (count > 1 ? " (\(count) times)" : ""))
        }
        for (entity, rows) in index.untaken(among: index.entityNames) {
            context.report.warning("\(name): \(rows) \(entity) row\(rows == 1 ? "" : "s") not converted: \(app.rawValue) \(entity) has no canonical home")
        }
        var detected = "\(app.rawValue) store (\(Self.describe(reader.schemaSource))"
        if let version = reader.versionMatch?.version, case .model = reader.schemaSource { detected += ", version \"\(version)\"" }
        return detected + ")"
    }

    static func describe(_ source: SchemaSource) -> String {
        switch source {
        case .model(let path, _): return "model \(path)"
        case .modelCache: return "its model cache"
        case .inferred: return "schema inferred from its tables"
        }
    }

    /// The reader and the app: a given model is used as given; otherwise a store without a
    /// readable model cache is read with the app's shipped model when one of its versions matches.
    private func open(_ path: String) throws -> (CoreDataStoreReader, LegacyApp) {
        if let model = options.model {
            let reader = try CoreDataStoreReader(path: path, model: model)
            return (reader, try app(of: reader, path: path))
        }
        let reader = try CoreDataStoreReader(path: path)
        let app = try self.app(of: reader, path: path)
        guard reader.schemaSource == .inferred else { return (reader, app) }
        let versions = try KnownModels.versions(for: app)
        guard !versions.isEmpty else { return (reader, app) }
        do {
            return (try CoreDataStoreReader(path: path, versions: versions, label: "Formats/legacy (\(app.rawValue))"), app)
        } catch let error as CoreDataReadError {
            guard case .modelMismatch(let reason) = error.kind else { throw error }
            context.report.warning("\((path as NSString).lastPathComponent): no shipped \(app.rawValue) model version describes this store (\(reason)); its schema is inferred")
            return (reader, app)
        }
    }

    private func app(of reader: CoreDataStoreReader, path: String) throws -> LegacyApp {
        let entities = Set(reader.schema.entities.map(\.name)).union(reader.model.entities.map(\.name))
        if let from = options.from { return from }
        guard let app = Self.detect(entities) else {
            let names = entities.sorted().prefix(8).joined(separator: ", ")
            throw ConversionError(.notRecognized("a store of no app Ferry knows (entities: \(names)); use --from to name the app, or ferry dump to read it"),
                                  at: RecordLocation(file: path))
        }
        return app
    }

    /// The app whose entities the store has.
    static func detect(_ entities: Set<String>) -> LegacyApp? {
        func any(_ names: String...) -> Bool { names.contains(where: entities.contains) }
        if any("PhotoAction", "SwipeSession") { return .photoapp }
        if any("BrewLog") || (any("Recipe") && any("RecipeStep")) { return .brewguide }
        // Molten's first versions (Flameworker 3, 4) held only the catalog and inventory.
        if any("ProjectPlan", "ProjectLog", "Logbook", "GlassItem", "ProjectStepGlassItem", "CatalogItemOverride", "CatalogItemParent") { return .molten }
        if any("GroceryItem", "WeeklyList", "GroceryListItem") { return .forager }
        if any("Semester") && any("Course", "Assignment") { return .roots }
        return nil
    }
}
