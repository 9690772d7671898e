import FerryJSON
import Foundation

/// What `ferry inspect STORE` reports: metadata, schema source, matched version, tables and
/// per-entity row counts. Schema: `Formats/json/inspect-store.schema.json`.
public struct CoreDataStoreReport: Sendable, Encodable {
    public struct Metadata: Sendable, Encodable {
        public var storeUUID: String?
        public var storeType: String?
        public var versionIdentifiers: [String]
        /// Entity → hexadecimal hash.
        public var versionHashes: [String: String]
        public var frameworkVersion: String?
        public var otherKeys: [String]
    }

    public struct Table: Sendable, Encodable {
        public var name: String
        public var rows: Int
        public var columns: [String]
    }

    public struct Entity: Sendable, Encodable {
        public var name: String
        /// `Z_ENT`; left out (as the schema allows) when the store has no such entity.
        public var number: Int?
        public var parent: String?
        public var table: String?
        public var rows: Int
        public var attributes: Int
        public var relationships: Int
    }

    public var format = "ferry.store/1"
    public var path: String
    public var openMode: String
    public var readsWriteAheadLog: Bool
    public var metadata: Metadata
    public var schemaSource: String
    public var schemaInferred: Bool
    @NullEncoded public var versionMatch: VersionMatch?
    public var entities: [Entity]
    public var tables: [Table]
    /// Nil (null) when the store keeps no persistent history.
    @NullEncoded public var history: PersistentHistory?
    public var notes: [String]

    public init(_ reader: CoreDataStoreReader) {
        path = reader.path
        openMode = reader.file.openMode
        readsWriteAheadLog = reader.file.readsWriteAheadLog
        let stored = reader.metadata
        metadata = Metadata(storeUUID: stored.storeUUID, storeType: stored.storeType, versionIdentifiers: stored.versionIdentifiers,
                            versionHashes: stored.versionHashes.mapValues(\.hexString), frameworkVersion: stored.frameworkVersion,
                            otherKeys: stored.otherKeys)
        schemaSource = reader.schemaSource.description
        schemaInferred = reader.schemaSource == .inferred
        versionMatch = reader.versionMatch
        let counts = Dictionary(reader.entityCounts().map { ($0.entity, $0.rows) }, uniquingKeysWith: +)
        entities = reader.mapping.entities.map { mapping in
            Entity(name: mapping.entity.name, number: mapping.number, parent: mapping.entity.parentName, table: mapping.table,
                   rows: counts[mapping.entity.name] ?? 0, attributes: mapping.attributes.count, relationships: mapping.relationships.count)
        }
        tables = reader.schema.tables.map { Table(name: $0.name, rows: $0.rowCount, columns: $0.columns.map(\.name)) }
        notes = reader.notes
        do {
            history = try PersistentHistory.summary(of: reader)
        } catch {
            notes.append("the persistent history cannot be counted: \(error)")
        }
    }

    /// The human-readable form.
    public var text: String {
        var lines = ["\(path) — Core Data SQLite store (opened \(openMode)\(readsWriteAheadLog ? "; rows in the -wal read too" : ""))"]
        lines.append("store UUID \(metadata.storeUUID ?? "none") · type \(metadata.storeType ?? "?") · framework \(metadata.frameworkVersion ?? "?")")
        lines.append("model version identifiers: \(metadata.versionIdentifiers.isEmpty ? "none" : metadata.versionIdentifiers.joined(separator: ", "))")
        lines.append("schema from \(schemaSource)")
        if let match = versionMatch {
            if let version = match.version {
                lines.append("matched version: \(version) (by \(match.method?.rawValue ?? "?"))")
            } else {
                lines.append("no version matches; closest \(match.closestVersion ?? "none"):")
                lines += match.differences.map { "  - \($0)" }
            }
        }
        lines += notes.map { "note: \($0)" }
        lines.append("")
        let width = max(6, entities.map(\.name.count).max() ?? 0)
        lines.append("ENTITY".padding(toLength: width, withPad: " ", startingAt: 0) + "  Z_ENT  ROWS  TABLE")
        for entity in entities {
            lines.append(entity.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                         + (entity.number.map(String.init) ?? "-").padding(toLength: 5, withPad: " ", startingAt: 0) + "  "
                         + String(entity.rows).padding(toLength: 4, withPad: " ", startingAt: 0) + "  " + (entity.table ?? "-"))
        }
        lines.append("")
        lines.append("tables: " + tables.map { "\($0.name) (\($0.rows))" }.joined(separator: ", "))
        if let history {
            let types = ["insert", "update", "delete"].compactMap { type in history.changeTypes[type].map { "\($0) \(type)s" } }
                + history.changeTypes.filter { !["insert", "update", "delete"].contains($0.key) }.sorted { $0.key < $1.key }.map { "\($0.value) of \($0.key)" }
            lines.append("persistent history: \(history.transactions) transactions, \(history.changes) changes"
                         + (types.isEmpty ? "" : " (\(types.joined(separator: ", ")))") + "; `ferry dump --history` writes them")
        }
        lines.append("entity version hashes:")
        for (entity, hash) in metadata.versionHashes.sorted(by: { $0.key < $1.key }) { lines.append("  \(entity) \(hash)") }
        return lines.joined(separator: "\n") + "\n"
    }
}
