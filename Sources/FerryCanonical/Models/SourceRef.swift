/// Where a canonical record came from: the app, the legacy entity or file kind, the record's
/// own key there (its UUID, or `<Entity>/p<Z_PK>` for store rows without one) and the file.
public struct SourceRef: Sendable, Hashable, Codable {
    public var app: SourceApp
    public var entity: String
    public var key: String?
    /// The input file's name (not its full path, so that a re-import elsewhere matches).
    public var file: String

    public init(app: SourceApp, entity: String, key: String?, file: String) {
        self.app = app
        self.entity = entity
        self.key = key
        self.file = file
    }
}

/// The app (or file format) a record came from, by the name stored in `source_app`. Open:
/// each reader brings its own name (FerryConvert's `SourceReaders` lists them), so a new one
/// changes nothing here.
public struct SourceApp: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(_ name: String) {
        self.init(rawValue: name)
    }

    public var description: String { rawValue }
}
