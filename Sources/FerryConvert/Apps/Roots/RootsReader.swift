import FerryCanonical
import FerryCoreData
import FerryJSON

extension SourceApp {
    public static let roots = SourceApp("roots")
}

/// Roots' JSON files, known by their names (`tasks.json`, and copies such as
/// `tasks_cache_backup_1712345678.json`), converted courses first because the others name them.
struct RootsReader: SourceReader {
    let about = ReaderInfo(.roots, "Roots", reads: ["Roots' JSON files (courses.json, tasks.json …)"])

    func recognize(_ file: CandidateFile) -> RecognizedFile? {
        guard let (kind, isCopy) = RootsNormalizer.kind(ofFileNamed: file.name),
              let rank = RootsFileKind.order.firstIndex(of: kind) else { return nil }
        return RecognizedFile(app: app, kind: kind.fileName, rank: rank, copyOf: isCopy ? kind.fileName : nil) { path, context in
            try RootsNormalizer(context: context).convert(kind, try JSONDocuments.read(path))
        }
    }

    var stores: (any AppStoreReader)? { RootsStores() }
}

/// Roots' Core Data store is told apart, so that it is named, but not converted yet.
struct RootsStores: AppStoreReader {
    func recognizes(entities: Set<String>) -> Bool {
        entities.contains("Semester") && (entities.contains("Course") || entities.contains("Assignment"))
    }

    func convert(_ index: CoreDataRecordIndex, time: String, context: ConversionContext, options: ConversionOptions) throws {
        // Named with --from, a store of another app is said to be one, not taken for Roots'.
        try index.require(.roots, anyOf: ["Semester", "Course", "Assignment"])
        throw ConversionError(.notRecognized("a Roots store: Ferry converts Roots' JSON files (tasks.json, courses.json …), not its Core Data store yet; ferry dump reads it"),
                              at: RecordLocation(file: index.reader.path))
    }
}
