import FerryCanonical

/// Every app and format Ferry reads. The order is the order of asking: a store goes to the
/// first app whose entities it has (PhotoApp's and BrewGuide's are the most particular), and a
/// file to the first reader that knows it (a `.molten` export before a name Roots knows).
public enum SourceReaders {
    static let all: [any SourceReader] = [
        photoAppReader,
        BrewGuideReader(),
        MoltenReader(),
        foragerReader,
        RootsReader(),
        PaprikaReader(),
        TandoorReader(),
        BeanconquerorReader(),
        MealieReader(),
        CooklangReader(),
        NextcloudReader(),
        SchemaOrgReader(),
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
