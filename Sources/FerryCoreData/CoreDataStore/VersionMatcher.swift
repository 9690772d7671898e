import FerryModel
import Foundation

/// A model version a store may have been made with: its parsed model and, when a compiled
/// `.momd` is at hand, its entity version hashes.
public struct CandidateVersion: Sendable {
    public var name: String
    public var model: DataModel
    public var versionHashes: [String: Data]?

    public init(name: String, model: DataModel, versionHashes: [String: Data]? = nil) {
        self.name = name
        self.model = model
        self.versionHashes = versionHashes
    }
}

/// Which version of a model a store was made with, how that was decided, or how the closest
/// version differs.
public struct VersionMatch: Sendable, Encodable {
    public enum Method: String, Sendable, Encodable {
        /// The store's `NSStoreModelVersionIdentifiers` name one version, whose schema agrees.
        case identifier
        /// The store's entity version hashes equal a compiled version's hashes.
        case versionHashes = "version-hashes"
        /// The store's entity version hashes equal the hashes computed from a version's XML
        /// (``EntityVersionHash``, Formats/coredata-version-hash.md).
        case computedVersionHashes = "computed-version-hashes"
        /// The tables, columns and join tables a version implies equal the store's.
        case schema
        /// The version describes part of the store exactly (its entities, their hashes, tables and
        /// columns); the store holds other entities too (merged models, configurations).
        case partOfStore = "part-of-store"
    }

    public var version: String?
    public var method: Method?
    /// Versions that fit equally well (they differ only in what is not stored).
    public var candidates: [String]
    public var closestVersion: String?
    /// How the store differs from the closest version when none matches; empty on a match.
    public var differences: [String]
    /// Anything surprising on the way, such as an identifier contradicted by the schema.
    public var notes: [String]
}

/// Matches a store against model versions in layers: exact entity hashes when a compiled model
/// gives them, then the hashes computed from each version's XML, then version identifiers
/// (confirmed by the schema), then schema equivalence, which always runs. When none matches, the
/// closest version's differences name the tables and columns and the entities whose hash differs.
public struct VersionMatcher: Sendable {
    public init() {}

    public func match(metadata: CoreDataStoreMetadata, schema: CoreDataStoreSchema, versions: [CandidateVersion]) -> VersionMatch {
        var notes: [String] = []

        if !metadata.versionHashes.isEmpty {
            let hashed = versions.filter { $0.versionHashes == metadata.versionHashes }
            if let version = hashed.last {
                return VersionMatch(version: version.name, method: .versionHashes, candidates: hashed.map(\.name),
                                    closestVersion: version.name, differences: [], notes: notes)
            }
            if versions.contains(where: { $0.versionHashes != nil }) {
                notes.append("no compiled version has the store's entity hashes")
            }
            let computed = versions.filter { $0.versionHashes == nil && Self.computedHashes($0.model) == metadata.versionHashes }
            if let version = computed.last {
                return VersionMatch(version: version.name, method: .computedVersionHashes, candidates: computed.map(\.name),
                                    closestVersion: version.name, differences: [], notes: notes)
            }
        }

        // Laid out only when no hash decides: a model of 90 versions is 90 layouts.
        let storeShape = CoreDataStoreShape(schema: schema, savedEntities: Set(metadata.versionHashes.keys))
        let framework = metadata.frameworkVersion.flatMap { Int($0) }
        let comparisons = versions.map { version in
            (version, storeShape.differences(from: CoreDataStoreShape(expectedBy: version.model, schema: schema, frameworkVersion: framework)))
        }

        if !metadata.versionIdentifiers.isEmpty {
            let named = comparisons.filter { $0.0.model.versionIdentifier.map(metadata.versionIdentifiers.contains) ?? false }
            if named.count == 1, named[0].1.isEmpty {
                return VersionMatch(version: named[0].0.name, method: .identifier, candidates: [named[0].0.name],
                                    closestVersion: named[0].0.name, differences: [], notes: notes)
            }
            if named.count == 1 {
                notes.append("the store's identifier \(metadata.versionIdentifiers.joined(separator: ", ")) names \(named[0].0.name), but its schema differs")
            } else if named.count > 1 {
                notes.append("identifier \(metadata.versionIdentifiers.joined(separator: ", ")) is declared by \(named.map(\.0.name).joined(separator: ", "))")
            }
        }

        let exact = comparisons.filter { $0.1.isEmpty }.map(\.0.name)
        if let chosen = exact.last {
            if exact.count > 1 {
                notes.append("versions \(exact.joined(separator: ", ")) imply the same tables; using the newest, \(chosen)")
            }
            return VersionMatch(version: chosen, method: .schema, candidates: exact, closestVersion: chosen, differences: [], notes: notes)
        }
        let closest = comparisons.enumerated().min { a, b in
            (a.element.1.count, -a.offset) < (b.element.1.count, -b.offset)
        }?.element
        var differences = closest?.1 ?? []
        if let closest, !metadata.versionHashes.isEmpty {
            let hashes = closest.0.versionHashes ?? Self.computedHashes(closest.0.model)
            for (entity, hash) in metadata.versionHashes.sorted(by: { $0.key < $1.key }) where hashes[entity].map({ $0 != hash }) ?? false {
                differences.append("entity \(entity): its version hash differs from the store's")
            }
        }
        return VersionMatch(version: nil, method: nil, candidates: [], closestVersion: closest?.0.name,
                            differences: differences, notes: notes)
    }

    /// The newest version that describes part of the store exactly: a merged model's or another
    /// configuration's store holds more entities than one model. Every entity of the version is in
    /// the store, with its hash when the store records one, and every table and column the
    /// version implies is there; the store has entities besides.
    public func subsetMatch(metadata: CoreDataStoreMetadata, schema: CoreDataStoreSchema, versions: [CandidateVersion]) -> CandidateVersion? {
        let storeShape = CoreDataStoreShape(schema: schema, savedEntities: [])
        let storeEntities = schema.entities.filter { $0.number < 16000 }.count
        let framework = metadata.frameworkVersion.flatMap { Int($0) }
        return versions.last { version in
            let entities = version.model.entities
            guard !entities.isEmpty, entities.count < storeEntities,
                  entities.allSatisfy({ schema.entityEntry(named: $0.name) != nil }) else { return false }
            if !metadata.versionHashes.isEmpty {
                let hashes = version.versionHashes ?? Self.computedHashes(version.model)
                guard entities.allSatisfy({ hashes[$0.name] != nil && hashes[$0.name] == metadata.versionHashes[$0.name] }) else { return false }
            }
            let expected = CoreDataStoreShape(expectedBy: version.model, schema: schema, frameworkVersion: framework)
            return expected.tables.allSatisfy { table, columns in storeShape.tables[table].map { columns.isSubset(of: $0) } ?? false }
        }
    }

    static func computedHashes(_ model: DataModel) -> [String: Data] {
        EntityVersionHash.hashes(of: model).mapValues { Data($0) }
    }
}

/// The tables Core Data made for a model, with their columns, and the entity names, as a store
/// has them or as ``CoreDataSQLLayout`` predicts them for a version (with the store's entity
/// numbers). Join-table columns are compared without their numeric suffix, which a store migrated
/// in place may hold in an older order (Photos).
struct CoreDataStoreShape: Equatable {
    var tables: [String: Set<String>] = [:]
    var entityNames: Set<String> = []

    init(schema: CoreDataStoreSchema, savedEntities: Set<String>) {
        entityNames = savedEntities
        for table in schema.tables where CoreDataStoreSchema.TableKind(table.name) == .other {
            add(table.name, columns: table.columns.map(\.name))
        }
    }

    init(expectedBy model: DataModel, schema: CoreDataStoreSchema, frameworkVersion: Int?) {
        entityNames = Set(model.entities.map(\.name))
        let layout = CoreDataSQLLayout(model: model, numbers: CoreDataStoreMapping.entityNumbers(of: model, in: schema),
                                       frameworkVersion: frameworkVersion, tablesInStore: Set(schema.tables.map(\.name)))
        for table in layout.tables { add(table.name, columns: table.columns.map(\.name)) }
    }

    private mutating func add(_ table: String, columns: [String]) {
        let name = table.uppercased()
        let join = name.hasPrefix("Z_")
        tables[name] = Set(columns.map { $0.uppercased() }.filter { !["Z_PK", "Z_ENT", "Z_OPT"].contains($0) }.map { join ? SQLName.unsuffixed($0) : $0 })
    }

    /// How this store shape differs from what a version expects, one line each.
    func differences(from expected: CoreDataStoreShape) -> [String] {
        var lines: [String] = []
        for table in Set(expected.tables.keys).union(tables.keys).sorted() {
            switch (expected.tables[table], tables[table]) {
            case (let want?, nil): lines.append("table \(table) is missing (\(want.count) columns expected)")
            case (nil, _?): lines.append("table \(table) is not in the model")
            case (let want?, let have?):
                for column in want.subtracting(have).sorted() { lines.append("\(table).\(column) is missing") }
                for column in have.subtracting(want).sorted() { lines.append("\(table).\(column) is not in the model") }
            default: break
            }
        }
        // Z_METADATA names the entities of the model that last saved the store.
        if !entityNames.isEmpty && entityNames != expected.entityNames {
            for name in expected.entityNames.subtracting(entityNames).sorted() { lines.append("entity \(name) is not in the store's metadata") }
            for name in entityNames.subtracting(expected.entityNames).sorted() { lines.append("entity \(name) of the store's metadata is not in the model") }
        }
        return lines
    }
}
