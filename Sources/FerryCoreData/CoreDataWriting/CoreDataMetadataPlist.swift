import FerryModel
import Foundation

/// The `Z_METADATA` property list Core Data writes for a store of a model: its version
/// identifier, the store type, the auto-vacuum level, the digest and checksum of the entity
/// version hashes (from the framework versions that write them), the hashes, and the framework
/// and hash-format versions, each dictionary in CoreFoundation's order, so that the bytes are
/// Core Data's own (`Formats/coredata-store-writing.md`). The store UUID is not in it: it is
/// `Z_METADATA.Z_UUID`.
public enum CoreDataMetadataPlist {
    /// The framework version from which stores carry `NSStoreModelVersionHashesDigest`.
    public static let digestFrom = 1044
    /// The framework version from which stores carry `NSStoreModelVersionChecksumKey`.
    public static let checksumFrom = 1344

    /// - Parameter identifier: the version identifier to record; by default the model's own.
    public static func value(for model: DataModel, frameworkVersion: Int, identifier: String? = nil) -> PropertyListValue {
        let hashes = EntityVersionHash.hashes(of: model)
        // Entities go in by name; the table lists them by bucket.
        let names = CFHashOrder.ordered(hashes.keys.sorted(by: EntityVersionHash.codePointOrder))
        var members: [(key: String, value: PropertyListValue)] = [
            ("NSStoreModelVersionIdentifiers", .array([.string(identifier ?? model.versionIdentifier ?? "")])),
            ("NSStoreType", .string("SQLite")),
            ("_NSAutoVacuumLevel", .string("2")),
        ]
        if frameworkVersion >= digestFrom { members.append(("NSStoreModelVersionHashesDigest", .string(EntityVersionHash.digest(of: hashes)))) }
        if frameworkVersion >= checksumFrom { members.append(("NSStoreModelVersionChecksumKey", .string(EntityVersionHash.checksum(of: hashes)))) }
        members += [
            ("NSStoreModelVersionHashes", .dictionary(names.map { ($0, .data(Data(hashes[$0] ?? []))) })),
            ("NSPersistenceFrameworkVersion", .integer(Int64(frameworkVersion))),
            ("NSStoreModelVersionHashesVersion", .integer(3)),
        ]
        // The table is sized for one key more: Core Data removes NSStoreUUID before saving.
        let order = CFHashOrder.ordered(members.map(\.key), sizedFor: members.count + 1)
        return .dictionary(order.compactMap { key in members.first { $0.key == key } })
    }

    public static func bytes(for model: DataModel, frameworkVersion: Int, identifier: String? = nil) -> [UInt8] {
        BinaryPropertyListWriter.write(value(for: model, frameworkVersion: frameworkVersion, identifier: identifier))
    }
}
