/// Where a canonical record came from: the app, the legacy entity or file kind, the record's
/// own key there (its UUID, or `<Entity>/p<Z_PK>` for store rows without one) and the file.
public struct SourceRef: Sendable, Hashable, Codable {
    public var app: LegacyApp
    public var entity: String
    public var key: String?
    /// The input file's name (not its full path, so that a re-import elsewhere matches).
    public var file: String

    public init(app: LegacyApp, entity: String, key: String?, file: String) {
        self.app = app
        self.entity = entity
        self.key = key
        self.file = file
    }
}

/// The apps whose data Ferry carries.
public enum LegacyApp: String, Sendable, Hashable, Codable, CaseIterable {
    case roots, molten, brewguide, forager, photoapp
}
