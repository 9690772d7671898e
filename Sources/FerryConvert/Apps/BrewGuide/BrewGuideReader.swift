import FerryCanonical
import FerryCoreData

extension SourceApp {
    public static let brewguide = SourceApp("brewguide")
}

/// BrewGuide's DTO JSON (an array, or one record per line), streamed; and its SwiftData store.
struct BrewGuideReader: SourceReader {
    let about = ReaderInfo(.brewguide, "BrewGuide", reads: ["BrewGuide DTO JSON"])

    func recognize(_ file: CandidateFile) -> RecognizedFile? {
        guard file.isNamedJSON, case .record(let first, _) = file.firstRecord, BrewGuideNormalizer.recognizes(first) else { return nil }
        return dtoJSON
    }

    /// Any JSON file, named as BrewGuide's: the streaming reader names the record and field
    /// that do not fit (or the byte where the JSON breaks).
    func assume(_ file: CandidateFile) -> RecognizedFile? {
        file.isNamedJSON ? dtoJSON : nil
    }

    private var dtoJSON: RecognizedFile {
        RecognizedFile(app: app, kind: "DTO JSON") { path, context in try BrewGuideNormalizer(context: context).convert(streaming: path) }
    }

    var stores: (any AppStoreReader)? { BrewGuideStores() }
}

struct BrewGuideStores: AppStoreReader {
    func recognizes(entities: Set<String>) -> Bool {
        entities.contains("BrewLog") || (entities.contains("Recipe") && entities.contains("RecipeStep"))
    }

    func index(_ reader: CoreDataStoreReader) throws -> CoreDataRecordIndex {
        try CoreDataRecordIndex(reader: reader, streaming: BrewGuideStoreReader.streamedEntities)
    }

    func convert(_ index: CoreDataRecordIndex, time: String, context: ConversionContext, options: ConversionOptions) throws {
        try BrewGuideStoreReader(context: context, index: index, time: time, typedRows: options.readsStoreRowsTyped).convert()
    }
}
