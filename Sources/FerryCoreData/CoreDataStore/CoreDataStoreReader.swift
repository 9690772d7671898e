import FerryJSON
import FerryModel
import Foundation
import GRDB

/// Where the model used to read a store came from.
public enum SchemaSource: Sendable, Equatable, CustomStringConvertible {
    /// A model given by the user (XML or compiled), at this version.
    case model(path: String, version: String?)
    /// The compiled model Core Data keeps in the store's `Z_MODELCACHE` (SwiftData stores too).
    case modelCache
    /// Inferred from `Z_PRIMARYKEY` and the tables: names are lower case, types from declarations.
    case inferred

    public var description: String {
        switch self {
        case .model(let path, let version): return "model \(path)" + (version.map { ", version \"\($0)\"" } ?? "")
        case .modelCache: return "the store's model cache (Z_MODELCACHE)"
        case .inferred: return "the store's tables, inferred (no model given, no model cache)"
        }
    }
}

/// One object of a store, as `ferry dump` writes it.
public struct CoreDataRecord: Sendable {
    public var entity: String
    /// The object's `id`/`uuid` UUID attribute when it has a unique one, else `<Entity>/p<Z_PK>`.
    public var id: String
    public var primaryKey: Int64
    /// Attributes by name, relationships as ids (to-many as arrays, in order when ordered).
    public var values: JSONObject
    /// Read losslessly: `Z_OPT`, the `Z_FOK_` values of ordered to-manys beside their ids, and
    /// `Z_ENT` when it is not the entity's number (a row Core Data reads as its table's one entity).
    public var lossless: (optimisticLock: Int64?, orders: JSONObject, storedEntity: CoreDataCell?)?
    /// Rows of other entities written into `values` in place of their ids, per entity (see
    /// `forEachRecord(of:…inlining:)`).
    public var inlined: [String: Int] = [:]

    public var json: JSONValue {
        var object = JSONObject([("entity", .string(entity)), ("id", .string(id)), ("pk", .integer(primaryKey)), ("values", .object(values))])
        if let lossless {
            object["opt"] = lossless.optimisticLock.map { .integer($0) } ?? .null
            if !lossless.orders.members.isEmpty { object["orders"] = .object(lossless.orders) }
            if let stored = lossless.storedEntity { object["ent"] = stored.losslessJSON }
        }
        return .object(object)
    }
}

/// Reads a Core Data or SwiftData SQLite store on any platform, without Core Data and without
/// changing the store: its metadata, its schema, which model version made it, and its objects.
///
/// For example:
/// ```swift
/// let reader = try CoreDataStoreReader(path: "Model.sqlite", model: "Model.xcdatamodeld")
/// print(reader.versionMatch?.version ?? "no version matches")
/// try reader.forEachRecord { record in print(record.entity, record.id) }
/// ```
public final class CoreDataStoreReader: @unchecked Sendable {
    public let path: String
    public let file: CoreDataStoreFile
    public let metadata: CoreDataStoreMetadata
    public let schema: CoreDataStoreSchema
    public let model: DataModel
    public let schemaSource: SchemaSource
    /// Set when a model was given or a model cache was read.
    public let versionMatch: VersionMatch?
    public let mapping: CoreDataStoreMapping
    /// Notes for the user: chosen versions, model cache problems, unmapped columns.
    public private(set) var notes: [String] = []

    /// - Parameters:
    ///   - model: an `.xcdatamodeld`, `.xcdatamodel`, `contents`, `.momd` or `.mom`; nil to use
    ///     the store's model cache or infer the schema.
    ///   - version: a version of that model to use instead of the matched one.
    /// - Throws: ``CoreDataReadError`` for unreadable or non-Core Data stores and for a model
    ///   that does not describe the store; `ModelError` for an unreadable model.
    public convenience init(path: String, model modelPath: String? = nil, version: String? = nil) throws {
        try self.init(path: path, choice: modelPath.map { .file($0) }, version: version)
    }

    /// Reads a store with one of `versions`, a model known without a file (such as the legacy
    /// models Ferry ships), picked by ``VersionMatcher``.
    /// - Throws: ``CoreDataReadError`` `.modelMismatch` when no version describes the store.
    public convenience init(path: String, versions: [CandidateVersion], label: String) throws {
        try self.init(path: path, choice: .versions(label: label, versions), version: nil)
    }

    private enum ModelChoice {
        case file(String)
        case versions(label: String, [CandidateVersion])
    }

    /// A store already opened (``CoreDataStoreCheck`` reads its raw metadata first), read with
    /// the model at `modelPath`, or its model cache, or its tables.
    convenience init(file: CoreDataStoreFile, model modelPath: String?) throws {
        try self.init(path: file.path, choice: modelPath.map { .file($0) }, version: nil, file: file)
    }

    private init(path: String, choice: ModelChoice?, version: String?, file opened: CoreDataStoreFile? = nil) throws {
        self.path = path
        file = try opened ?? CoreDataStoreFile(path: path)
        let (metadata, schema, cache) = try file.read { db in
            // The schema first: it says whether this is a Core Data store at all.
            let schema = try CoreDataStoreSchema.read(db, file: path)
            let cache = schema.table(named: "Z_MODELCACHE") == nil ? nil : try Data.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE LIMIT 1")
            return (try CoreDataStoreMetadata.read(db, file: path), schema, cache)
        }
        self.metadata = metadata
        self.schema = schema
        let resolved = try Self.resolveModel(choice, version: version, cache: cache, metadata: metadata, schema: schema,
                                             file: file, path: path)
        model = resolved.model
        schemaSource = resolved.source
        versionMatch = resolved.match
        var notes = resolved.notes
        mapping = CoreDataStoreMapping(model: model, schema: schema, frameworkVersion: metadata.frameworkVersion.flatMap { Int($0) })
        if case .model = schemaSource, !mapping.problems.isEmpty {
            throw CoreDataReadError(.modelMismatch(mapping.problems.prefix(6).joined(separator: "; ")), file: path)
        }
        notes += mapping.problems + mapping.unexplained
        self.notes = notes
    }

    private struct ResolvedModel {
        var model: DataModel
        var source: SchemaSource
        var match: VersionMatch?
        var notes: [String]
    }

    /// The model to read the store with: the given model at its matched (or chosen) version,
    /// else the store's model cache, else one inferred from the tables.
    private static func resolveModel(_ choice: ModelChoice?, version: String?, cache: Data?, metadata: CoreDataStoreMetadata,
                                     schema: CoreDataStoreSchema, file: CoreDataStoreFile, path: String) throws -> ResolvedModel {
        guard let choice else {
            let inferred = { () throws -> DataModel in try file.read { db in try SchemaInference.model(of: schema, db: db, file: path) } }
            guard let cache else {
                return ResolvedModel(model: try inferred(), source: .inferred, match: nil, notes: [])
            }
            let model: DataModel
            do {
                model = try ArchivedModel.decodeModelCache(cache, file: "\(path): Z_MODELCACHE")
            } catch {
                return ResolvedModel(model: try inferred(), source: .inferred, match: nil,
                                     notes: ["the model cache cannot be read (\(error.message)); the schema is inferred from the tables"])
            }
            let match = VersionMatcher().match(metadata: metadata, schema: schema,
                                               versions: [CandidateVersion(name: "model cache", model: model)])
            return ResolvedModel(model: model, source: .modelCache, match: match, notes: match.notes)
        }
        let (modelPath, candidates): (String, [CandidateVersion])
        switch choice {
        case .file(let path): (modelPath, candidates) = (path, try Self.candidates(path))
        case .versions(let label, let versions): (modelPath, candidates) = (label, versions)
        }
        let match = VersionMatcher().match(metadata: metadata, schema: schema, versions: candidates)
        let chosen: CandidateVersion
        if let version {
            guard let named = candidates.first(where: { $0.name == version || $0.name + ".xcdatamodel" == version }) else {
                throw CoreDataReadError(.modelMismatch("no version \"\(version)\" in \(modelPath); versions: \(candidates.map(\.name).joined(separator: ", "))"), file: path)
            }
            // Entity hashes are the store's own word on its version: another version would read
            // its columns as what they are not (every record "fails" a migration check).
            if let matched = match.version, !match.candidates.contains(named.name),
               [.versionHashes, .computedVersionHashes, .identifier].contains(match.method) {
                let evidence = match.method == .identifier ? "version identifier" : "entity version hashes"
                throw CoreDataReadError(.modelMismatch("the store's \(evidence) say version \"\(matched)\" made it, not \"\(named.name)\"; leave the version out to read it as \"\(matched)\""), file: path)
            }
            chosen = named
        } else if let matched = match.version, let found = candidates.first(where: { $0.name == matched }) {
            chosen = found
        } else if let part = VersionMatcher().subsetMatch(metadata: metadata, schema: schema, versions: candidates) {
            return try merged(part, modelPath: modelPath, cache: cache, schema: schema, file: file, path: path, match: match)
        } else {
            let detail = match.differences.prefix(6).joined(separator: "; ") + (match.differences.count > 6 ? "; …" : "")
            throw CoreDataReadError(.modelMismatch("no version of \(modelPath) matches; closest is \(match.closestVersion ?? "none"): \(detail)"), file: path)
        }
        return ResolvedModel(model: chosen.model, source: .model(path: modelPath, version: chosen.name), match: match, notes: match.notes)
    }

    /// A model that describes part of a store (merged models, configurations) reads that part;
    /// the store's other entities come from its model cache, else from its tables.
    private static func merged(_ part: CandidateVersion, modelPath: String, cache: Data?, schema: CoreDataStoreSchema,
                               file: CoreDataStoreFile, path: String, match: VersionMatch) throws -> ResolvedModel {
        let known = Set(part.model.entities.map(\.name))
        var others: [EntityDescription] = []
        var source = "the store's model cache"
        if let cache, let cached = try? ArchivedModel.decodeModelCache(cache, file: "\(path): Z_MODELCACHE"),
           schema.entities.filter({ $0.number < 16000 && !known.contains($0.name) }).allSatisfy({ cached.entity(named: $0.name) != nil }) {
            others = cached.entities.filter { !known.contains($0.name) }
        } else {
            source = "the store's tables (inferred)"
            let inferred = try file.read { db in try SchemaInference.model(of: schema, db: db, file: path) }
            others = inferred.entities.filter { !known.contains($0.name) && (schema.entityEntry(named: $0.name)?.number ?? 0) < 16000 }
        }
        let model = DataModel(file: part.model.file, versionName: part.model.versionName, entities: part.model.entities + others,
                              attributes: part.model.attributes)
        let note = "\(modelPath), version \(part.name), describes \(known.count) of the store's entities; "
            + "\(others.map(\.name).sorted().joined(separator: ", ")) read with \(source)"
        var partial = match
        partial.version = part.name
        partial.differences = []
        partial.candidates = [part.name]
        partial.method = .partOfStore
        return ResolvedModel(model: model, source: .model(path: modelPath, version: part.name), match: partial, notes: match.notes + [note])
    }

    /// The versions of a model file or compiled model, as candidates for matching.
    static func candidates(_ modelPath: String) throws -> [CandidateVersion] {
        if modelPath.hasSuffix(".momd") || modelPath.hasSuffix(".mom") || modelPath.hasSuffix(".momd/") {
            return try CompiledModel(at: modelPath).candidates()
        }
        let bundle = try ModelBundle.opening(modelPath)
        var result: [CandidateVersion] = []
        for version in bundle.versions {
            result.append(CandidateVersion(name: version.name, model: try bundle.load(version)))
        }
        return result
    }

    /// Rows per entity: those whose `Z_ENT` is the entity's own number, or every row of its table
    /// when it is the table's one entity (Core Data reads them all as it; so does `dump`).
    public func entityCounts() -> [(entity: String, rows: Int)] {
        mapping.entities.map { entity in
            if let table = entity.table, mapping.holdsTableAlone(entity),
               let rows = schema.tables.first(where: { $0.name == table })?.rowCount {
                return (entity.entity.name, rows)
            }
            return (entity.entity.name, entity.number.flatMap { schema.rowsPerEntityNumber[$0] } ?? 0)
        }
    }

    /// Calls `body` for every object, entity by entity in model order, each in primary-key order.
    /// - Parameter entity: only this entity (its own rows, not its sub-entities').
    /// - Throws: ``CoreDataReadError`` for damaged rows or unknown entities, or what `body` throws.
    /// - Returns: warnings met on the way (unknown archived classes, missing external files…), with counts.
    @discardableResult
    /// - Parameter lossless: values as stored (``CoreDataCell/losslessJSON``), with `Z_OPT` and orders.
    public func forEachRecord(entity entityName: String? = nil, lossless: Bool = false, _ body: (CoreDataRecord) throws -> Void) throws -> [String: Int] {
        if let entityName, mapping.entity(named: entityName) == nil {
            throw CoreDataReadError(.unknownEntity(entityName, available: mapping.entities.map(\.entity.name)), file: path)
        }
        return try forEachRecord(of: entityName.map { [$0] }, lossless: lossless, body)
    }

    /// Calls `body` for every object of `entities` (all when nil), streaming: one row at a time,
    /// in primary-key order, whatever the size of the store.
    /// - Parameters:
    ///   - omitted: relationships whose destination is one of these entities are left out of the
    ///     records (a caller that streams those entities itself need not hold their ids).
    ///   - typed: rows of one entity offered typed first (``TypedRows``); those it takes do not reach `body`.
    @discardableResult
    ///   - inlining: entities whose rows a to-many holds are written into the owner's record as
    ///     objects, in the to-many's order, rather than as ids (a leaf entity only; not with `lossless`).
    public func forEachRecord(of entities: Set<String>?, omittingRelationshipsTo omitted: Set<String> = [], typed: TypedRows? = nil,
                              lossless: Bool = false, inlining: Set<String> = [], _ body: (CoreDataRecord) throws -> Void) throws -> [String: Int] {
        var walker = RecordWalker(reader: self)
        walker.lossless = lossless
        walker.inlined = inlining
        try file.read { db in
            for entity in mapping.entities where entities?.contains(entity.entity.name) ?? true {
                try walker.walk(entity, omitting: { omitted.contains($0.destinationEntity ?? "") }, typed: typed, db: db, body: body)
            }
        }
        return walker.decoder.warnings
    }
}
