import FerryJSON
import Foundation

/// A material or ingredient line: a catalog key or free text, an exact decimal quantity, a unit.
public struct MaterialLine: Sendable, Hashable {
    public var id: String
    public var position: Int
    /// A catalog natural key (`bullseye-clear-0`), when the line names a catalog item.
    public var catalogKey: String?
    public var description: String?
    /// Decimal text as written (`0.5`, `2.3`), so that nothing is rounded.
    public var quantity: String?
    public var unit, notes, sourceKey: String?
    public var extras = JSONObject()

    public init(id: String, position: Int) {
        (self.id, self.position) = (id, position)
    }
}

/// A web link kept with a recipe or project.
public struct ReferenceLink: Sendable, Hashable {
    public var id: String
    public var position: Int
    public var url: String
    public var title, description, addedAt, sourceKey: String?
    public var extras = JSONObject()

    public init(id: String, position: Int, url: String) {
        (self.id, self.position, self.url) = (id, position, url)
    }
}

/// A file belonging to a record; its bytes, when Ferry has them, are kept once per SHA-256.
public struct Attachment: Sendable, Hashable {
    public var id: String
    public var position: Int
    public var name, mediaType, localURL, sha256: String?
    public var byteCount: Int64?
    public var addedAt, tag, sourceKey: String?
    public var extras = JSONObject()

    public init(id: String, position: Int) {
        (self.id, self.position) = (id, position)
    }
}

/// An item of a materials catalog (the glass catalog), referenced by material lines' keys.
public struct CatalogItem: Sendable, Hashable {
    public var naturalKey: String
    public var source: SourceRef
    public var name, manufacturer, code: String?
    public var extras = JSONObject()

    public init(naturalKey: String, source: SourceRef) {
        (self.naturalKey, self.source) = (naturalKey, source)
    }
}

/// Everything one conversion produced, ready to be written in one transaction.
public struct CanonicalBatch: Sendable {
    public var recipes: [Recipe] = []
    public var projects: [Project] = []
    public var logs: [Log] = []
    public var catalog: [CatalogItem] = []
    /// Attachment bytes by lower-case hexadecimal SHA-256.
    public var attachmentContents: [String: Data] = [:]

    public init() {}

    public var isEmpty: Bool { recipes.isEmpty && projects.isEmpty && logs.isEmpty && catalog.isEmpty }
}
