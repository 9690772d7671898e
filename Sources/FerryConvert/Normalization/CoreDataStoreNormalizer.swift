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
        let index = try app.stores.index(reader)
        let name = (path as NSString).lastPathComponent
        for note in reader.notes { context.report.warning("\(name): \(note)") }
        try app.stores.convert(index, time: context.fileTime(path), context: context, options: options)
        for (warning, count) in index.warnings.sorted(by: { $0.key < $1.key }) {
            context.report.warning("\(name): \(warning)" + (count > 1 ? " (\(count) times)" : ""))
        }
        for (entity, rows) in index.untaken(among: index.entityNames) {
            context.report.warning("\(name): \(rows) \(entity) row\(rows == 1 ? "" : "s") not converted: \(app.reader.app) \(entity) has no canonical home")
        }
        var detected = "\(app.reader.app) store (\(Self.describe(reader.schemaSource))"
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

    /// An app with the reader of its stores.
    private typealias StoreApp = (reader: any SourceReader, stores: any AppStoreReader)

    /// The reader and the app: a given model is used as given; otherwise a store without a
    /// readable model cache is read with the app's shipped model when one of its versions matches.
    private func open(_ path: String) throws -> (CoreDataStoreReader, StoreApp) {
        if let model = options.model {
            let reader = try CoreDataStoreReader(path: path, model: model)
            return (reader, try app(of: reader, path: path))
        }
        let reader = try CoreDataStoreReader(path: path)
        let app = try self.app(of: reader, path: path)
        guard reader.schemaSource == .inferred else { return (reader, app) }
        let name = app.reader.app.rawValue
        let versions = try KnownModels.versions(for: app.reader.app)
        guard !versions.isEmpty else { return (reader, app) }
        do {
            return (try CoreDataStoreReader(path: path, versions: versions, label: "Formats/legacy (\(name))"), app)
        } catch let error as CoreDataReadError {
            guard case .modelMismatch(let reason) = error.kind else { throw error }
            context.report.warning("\((path as NSString).lastPathComponent): no shipped \(name) model version describes this store (\(reason)); its schema is inferred")
            return (reader, app)
        }
    }

    private func app(of reader: CoreDataStoreReader, path: String) throws -> StoreApp {
        let entities = Set(reader.schema.entities.map(\.name)).union(reader.model.entities.map(\.name))
        if let from = options.from {
            guard let app = SourceReaders.reader(for: from), let stores = app.stores else {
                throw ConversionError(.notRecognized("\(from) has no Core Data store Ferry reads"), at: RecordLocation(file: path))
            }
            return (app, stores)
        }
        guard let app = SourceReaders.storeApp(entities), let stores = app.stores else {
            let names = entities.sorted().prefix(8).joined(separator: ", ")
            throw ConversionError(.notRecognized("a store of no app Ferry knows (entities: \(names)); use --from to name the app, or ferry dump to read it"),
                                  at: RecordLocation(file: path))
        }
        return (app, stores)
    }
}
