import Crypto
import FerryJSON
import Foundation

/// Core Data's entity version hash, computed from the model file alone: the 32 bytes a store's
/// metadata keeps per entity (`NSStoreModelVersionHashes`) and a `.momd`'s `VersionInfo.plist`
/// lists, by which Core Data decides whether a store needs migrating.
///
/// The construction was found by experiment against real stores and compiled models, and is
/// written down, with what is verified and what is not, in Formats/coredata-version-hash.md.
///
/// For example:
/// ```swift
/// let hashes = EntityVersionHash.hashes(of: model)   // ["User": 32 bytes, …]
/// ```
public enum EntityVersionHash {
    /// Every entity's hash, by entity name.
    public static func hashes(of model: DataModel) -> [String: [UInt8]] {
        var memo: [String: [UInt8]] = [:]
        for entity in model.entities { _ = hash(of: entity, in: model, memo: &memo) }
        return memo
    }

    /// `NSStoreModelVersionHashesDigest`, as stores of framework 1044 and later carry it: SHA-512
    /// over each entity's name and hash, entities by name in code-point order, in base64.
    public static func digest(of hashes: [String: [UInt8]]) -> String {
        var bytes: [UInt8] = []
        for name in hashes.keys.sorted(by: codePointOrder) { bytes += Array(name.utf8) + (hashes[name] ?? []) }
        return Data(SHA512.hash(data: bytes)).base64EncodedString()
    }

    /// `NSStoreModelVersionChecksumKey` (framework 1344 and later), the `.momd`'s version
    /// checksum: SHA-256 over the entities' hashes, by name in code-point order, in base64.
    public static func checksum(of hashes: [String: [UInt8]]) -> String {
        let bytes = hashes.keys.sorted(by: codePointOrder).flatMap { hashes[$0] ?? [] }
        return Data(SHA256.hash(data: bytes)).base64EncodedString()
    }

    /// Names by Unicode code point, as Core Data orders entities for its digests and tables
    /// (Swift's `<` orders by canonical equivalence instead).
    public static func codePointOrder(_ a: String, _ b: String) -> Bool {
        a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars)
    }

    /// One entity's hash (its superentities' are part of it).
    public static func hash(of entity: EntityDescription, in model: DataModel) -> [UInt8] {
        var memo: [String: [UInt8]] = [:]
        return hash(of: entity, in: model, memo: &memo)
    }

    private static func hash(of entity: EntityDescription, in model: DataModel, memo: inout [String: [UInt8]]) -> [UInt8] {
        if let known = memo[entity.name] { return known }
        // A cycle of parents (a damaged file) ends here rather than recursing forever.
        memo[entity.name] = []
        var bytes = Array(entity.name.utf8)
        bytes.append(entity.isAbstract ? 1 : 0)
        if let parentName = entity.parentName, let parent = model.entity(named: parentName) {
            bytes += hash(of: parent, in: model, memo: &memo)
        }
        for (_, propertyHash) in storedProperties(of: entity, in: model).sorted(by: { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }) {
            bytes += propertyHash
        }
        for constraint in entity.uniquenessConstraints {
            bytes += Array(constraint.joined(separator: ".").utf8)
        }
        if let modifier = entity.versionHashModifier { bytes += Array(modifier.utf8) }
        let result = sha256(bytes)
        memo[entity.name] = result
        return result
    }

    /// The hashed properties: inherited and own (own ones override by name), transient ones and
    /// fetched properties left out.
    private static func storedProperties(of entity: EntityDescription, in model: DataModel) -> [(name: String, hash: [UInt8])] {
        var byName: [String: [UInt8]] = [:]
        for attribute in model.allAttributes(of: entity) where !attribute.isTransient {
            byName[attribute.name] = hash(of: attribute)
        }
        for relationship in model.allRelationships(of: entity) where !relationship.isTransient {
            byName[relationship.name] = hash(of: relationship)
        }
        return byName.map { (name: $0.key, hash: $0.value) }
    }

    static func hash(of attribute: AttributeDescription) -> [UInt8] {
        var bytes = propertyBase(attribute.name, optional: attribute.isOptional, modifier: attribute.versionHashModifier)
        appendLittleEndian(UInt32(attribute.type.coreDataCode), to: &bytes)
        if attribute.allowsExternalBinaryDataStorage { bytes.append(1) }
        if attribute.preservesValueInHistoryOnDeletion { bytes.append(1) }
        return sha256(bytes)
    }

    static func hash(of relationship: RelationshipDescription) -> [UInt8] {
        var bytes = propertyBase(relationship.name, optional: relationship.isOptional, modifier: relationship.versionHashModifier)
        bytes += Array((relationship.destinationEntity ?? "").utf8)
        bytes += Array((relationship.inverseName ?? "").utf8)
        let maxCount = relationship.isToMany ? max(0, relationship.maxCount ?? 0) : 1
        appendLittleEndian(UInt32(clamping: maxCount), to: &bytes)
        appendLittleEndian(UInt32(clamping: max(0, relationship.minCount ?? 0)), to: &bytes)
        if relationship.isOrdered { bytes += [1, 0] }
        return sha256(bytes)
    }

    /// What every property's hash starts from: the hash of its name, optional flag, a flag that is
    /// 0 for every hashed property, and its modifier.
    private static func propertyBase(_ name: String, optional: Bool, modifier: String?) -> [UInt8] {
        var bytes = Array(name.utf8)
        bytes.append(optional ? 1 : 0)
        bytes.append(0)
        if let modifier { bytes += Array(modifier.utf8) }
        return sha256(bytes)
    }

    private static func appendLittleEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    private static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        Array(SHA256.hash(data: bytes))
    }
}

extension AttributeType {
    /// Core Data's `NSAttributeType` raw value.
    public var coreDataCode: Int {
        switch self {
        case .undefined: return 0
        case .integer16: return 100
        case .integer32: return 200
        case .integer64: return 300
        case .decimal: return 400
        case .double: return 500
        case .float: return 600
        case .string: return 700
        case .boolean: return 800
        case .date: return 900
        case .binary: return 1000
        case .uuid: return 1100
        case .uri: return 1200
        case .transformable: return 1800
        case .objectID: return 2000
        case .composite: return 2100
        }
    }
}
