import FerryModel
import Foundation

/// `Z_METADATA`'s property list: the keys Core Data reads when it opens a store, their types,
/// and the digest and checksum it compares before it compares the hashes one by one.
enum MetadataCheck {
    /// - Returns: the stored entity version hashes, when the list holds them.
    static func check(_ blob: Data?, _ findings: inout Findings) -> [String: Data] {
        guard let blob else {
            findings.error("metadata.plist", "Z_METADATA.Z_PLIST is empty: Core Data reads the store's type and model hashes from it")
            return [:]
        }
        let plist: PropertyListValue
        do {
            plist = try BinaryPropertyList.read(blob)
        } catch {
            findings.error("metadata.plist", "Z_METADATA.Z_PLIST is not a binary property list (\(error.reason))")
            return [:]
        }
        guard plist.members != nil else {
            findings.error("metadata.plist", "Z_METADATA.Z_PLIST is not a dictionary")
            return [:]
        }
        switch plist["NSStoreType"] {
        case .string("SQLite")?: break
        case .string(let other)?: findings.error("metadata.type", "NSStoreType is \"\(other)\", not \"SQLite\"")
        case nil: findings.error("metadata.type", "NSStoreType is missing")
        default: findings.error("metadata.type", "NSStoreType is not a string")
        }
        var hashes: [String: Data] = [:]
        if let members = plist["NSStoreModelVersionHashes"]?.members {
            for member in members {
                guard let hash = member.value.data, hash.count == 32 else {
                    findings.error("metadata.hashes", "NSStoreModelVersionHashes[\(member.key)] is not 32 bytes of data")
                    continue
                }
                hashes[member.key] = hash
            }
        } else {
            findings.error("metadata.hashes", "NSStoreModelVersionHashes is missing or not a dictionary: Core Data cannot tell which model made the store")
        }
        expectInteger(plist, "NSStoreModelVersionHashesVersion", &findings, equal: 3)
        expectInteger(plist, "NSPersistenceFrameworkVersion", &findings)
        if let identifiers = plist["NSStoreModelVersionIdentifiers"], identifiers.elements?.allSatisfy({ $0.string != nil }) != true {
            findings.warning("metadata.identifiers", "NSStoreModelVersionIdentifiers is not an array of strings")
        }
        let bytes = hashes.mapValues { [UInt8]($0) }
        compare(plist, "NSStoreModelVersionHashesDigest", with: EntityVersionHash.digest(of: bytes), &findings)
        compare(plist, "NSStoreModelVersionChecksumKey", with: EntityVersionHash.checksum(of: bytes), &findings)
        return hashes
    }

    private static func expectInteger(_ plist: PropertyListValue, _ key: String, _ findings: inout Findings, equal expected: Int64? = nil) {
        guard let value = plist[key] else {
            findings.warning("metadata.keys", "\(key) is missing")
            return
        }
        guard let number = value.integer, case .integer = value else {
            findings.error("metadata.keys", "\(key) is not an integer")
            return
        }
        if let expected, number != expected { findings.error("metadata.keys", "\(key) is \(number), not \(expected)") }
    }

    /// The digest and checksum are optional (older frameworks write neither); when present they
    /// must be the hashes' own, or Core Data takes the store for another model's.
    private static func compare(_ plist: PropertyListValue, _ key: String, with computed: String, _ findings: inout Findings) {
        guard let value = plist[key] else { return }
        guard let stored = value.string else {
            findings.error("metadata.digest", "\(key) is not a string")
            return
        }
        if stored != computed {
            findings.error("metadata.digest", "\(key) is \(stored), but the stored hashes give \(computed): Core Data compares it first and would take the store for another model's")
        }
    }
}

/// The model's entity hashes against the store's: which entities differ, and how.
enum ModelHashCheck {
    static func check(stored: [String: Data], model: DataModel, _ findings: inout Findings) {
        guard !stored.isEmpty else { return }
        let computed = EntityVersionHash.hashes(of: model).mapValues { Data($0) }
        let missing = computed.keys.filter { stored[$0] == nil }.sorted()
        let extra = stored.keys.filter { computed[$0] == nil }.sorted()
        let changed = computed.keys.filter { stored[$0] != nil && stored[$0] != computed[$0] }.sorted()
        var parts: [String] = []
        if !changed.isEmpty { parts.append("entities whose hash differs: \(changed.joined(separator: ", "))") }
        if !missing.isEmpty { parts.append("in the model, not the store: \(missing.joined(separator: ", "))") }
        if !extra.isEmpty { parts.append("in the store, not the model: \(extra.joined(separator: ", "))") }
        guard !parts.isEmpty else { return }
        findings.error("model.hashes", "the store's entity version hashes are not the model's (\(parts.joined(separator: "; "))): Core Data would refuse to open it with this model without a migration")
    }
}

/// `Z_MODELCACHE`: the compiled model Core Data keeps in the store, which tools (and Core Data's
/// own migrations, when the app no longer has the old model) read the store with.
enum ModelCacheCheck {
    static func check(_ cache: Data??, storeHashes: [String: Data], path: String, _ findings: inout Findings) {
        guard case .some(let content) = cache else {
            findings.note("cache.missing", "no Z_MODELCACHE table: stores from before macOS 10.12 and iOS 10 have none")
            return
        }
        guard let content, !content.isEmpty else {
            findings.warning("cache.empty", "Z_MODELCACHE holds no model: tools that read a store without its app's model, and Core Data's migrations from a model the app no longer ships, find none")
            return
        }
        let model: DataModel
        do {
            model = try ArchivedModel.decodeModelCache(content, file: "\(path): Z_MODELCACHE")
        } catch {
            findings.warning("cache.unreadable", "Z_MODELCACHE does not decode: \(error.message)")
            return
        }
        let computed = EntityVersionHash.hashes(of: model).mapValues { Data($0) }
        if !storeHashes.isEmpty, computed != storeHashes {
            let differing = Set(computed.keys).union(storeHashes.keys).filter { computed[$0] != storeHashes[$0] }.sorted()
            // A note: on Photos' stores the difference is in what Ferry decodes of the cache, as
            // far as can be told; Core Data itself only reads the cache to migrate.
            findings.note("cache.hashes", "the hashes of the model Ferry decodes from Z_MODELCACHE differ from the metadata's for \(differing.prefix(8).joined(separator: ", "))\(differing.count > 8 ? ", …" : ""): tools reading the store without its model may read those entities wrong")
        }
    }
}
