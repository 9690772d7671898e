import FerryJSON
import Foundation
import GRDB

/// What a store says about itself in `Z_METADATA`: its UUID, the model version identifiers
/// and the per-entity version hashes of the model that last saved it.
public struct CoreDataStoreMetadata: Sendable {
    public var storeUUID: String?
    public var storeType: String?
    /// `NSStoreModelVersionIdentifiers`, empty strings left out.
    public var versionIdentifiers: [String] = []
    /// `NSStoreModelVersionHashes`: entity name → 32-byte hash.
    public var versionHashes: [String: Data] = [:]
    public var frameworkVersion: String?
    /// Every other key of the metadata plist, for reports.
    public var otherKeys: [String] = []

    /// Metadata with only the store's UUID, the rest read from the plist after.
    init(storeUUID: String?) {
        self.storeUUID = storeUUID
    }

    /// Reads the newest `Z_METADATA` row.
    /// - Throws: ``CoreDataReadError`` when the row or its plist cannot be read.
    static func read(_ db: Database, file: String) throws -> CoreDataStoreMetadata {
        guard let row = try Row.fetchOne(db, sql: "SELECT Z_UUID, Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION DESC LIMIT 1") else {
            throw CoreDataReadError(.notACoreDataStore("Z_METADATA is empty"), file: file)
        }
        var metadata = CoreDataStoreMetadata(storeUUID: CoreDataStoreValue.text(row["Z_UUID"]))
        guard let blob = CoreDataStoreValue.data(row["Z_PLIST"]) else { return metadata }
        let plist: PropertyListValue
        do {
            plist = try BinaryPropertyList.read(blob)
        } catch {
            throw CoreDataReadError(.corruptStore("Z_METADATA plist: \(error.reason)"), at: RecordLocation(file: file, field: "Z_METADATA.Z_PLIST"))
        }
        metadata.storeType = plist["NSStoreType"]?.string
        metadata.versionIdentifiers = (plist["NSStoreModelVersionIdentifiers"]?.elements ?? []).compactMap(\.string).filter { !$0.isEmpty }
        for member in plist["NSStoreModelVersionHashes"]?.members ?? [] {
            if let hash = member.value.data { metadata.versionHashes[member.key] = hash }
        }
        switch plist["NSPersistenceFrameworkVersion"] {
        case .integer(let number)?: metadata.frameworkVersion = String(number)
        case .string(let text)?: metadata.frameworkVersion = text
        default: break
        }
        let known: Set<String> = ["NSStoreType", "NSStoreModelVersionIdentifiers", "NSStoreModelVersionHashes", "NSPersistenceFrameworkVersion", "NSStoreUUID"]
        metadata.otherKeys = (plist.members ?? []).map(\.key).filter { !known.contains($0) }.sorted()
        return metadata
    }
}

extension Data {
    /// Lower-case hexadecimal, as version hashes are shown.
    var hexString: String { Hex.lowercase(self) }
}
