import FerryCanonical

/// Every app and format Ferry reads, in the order a store's entities are matched.
public enum SourceReaders {
    static let all: [any SourceReader] = [
        RootsReader(),
        MoltenReader(),
        BrewGuideReader(),
        foragerReader,
        photoAppReader,
    ]

    /// The names `--from` takes.
    public static var apps: [SourceApp] { all.map(\.app) }

    static func reader(for app: SourceApp) -> (any SourceReader)? {
        all.first { $0.app == app }
    }

    /// The app whose stores have these entities.
    static func storeApp(_ entities: Set<String>) -> (any SourceReader)? {
        all.first { $0.stores?.recognizes(entities: entities) ?? false }
    }
}
