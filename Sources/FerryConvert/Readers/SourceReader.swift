import FerryCanonical
import FerryCoreData

/// One app's (or file format's) way in: which files are its own, how each becomes canonical
/// records, and which Core Data stores are its. ``SourceReaders/all`` lists every reader;
/// a new app is a folder holding its reader and one line there.
protocol SourceReader: Sendable {
    /// Which app or format it reads, by name.
    var about: ReaderInfo { get }
    /// What this reader takes `file` for, judged by its name and content; nil when it is not its.
    func recognize(_ file: CandidateFile) -> RecognizedFile?
    /// What it takes a file no reader recognized for, once the user has said the inputs are
    /// this app's (`--from`): its own reader then names what is wrong with the file. Nil leaves
    /// the file unrecognized.
    func assume(_ file: CandidateFile) -> RecognizedFile?
    /// How it reads the app's Core Data stores, when the app has them.
    var stores: (any AppStoreReader)? { get }
}

/// A reader's names: the one its records carry in `source_app` (and `--from` takes), the
/// app's name in sentences ("Roots"), and the kinds of file it reads, for the message about a
/// file no reader takes ("Roots' JSON files").
struct ReaderInfo: Sendable {
    let app: SourceApp
    let displayName: String
    let fileKinds: [String]

    init(_ app: SourceApp, _ displayName: String, reads fileKinds: [String] = []) {
        self.app = app
        self.displayName = displayName
        self.fileKinds = fileKinds
    }
}

extension SourceReader {
    func assume(_ file: CandidateFile) -> RecognizedFile? { nil }
    var stores: (any AppStoreReader)? { nil }
    var app: SourceApp { about.app }
    var displayName: String { about.displayName }
    var fileKinds: [String] { about.fileKinds }

    /// "Roots' tasks.json", "BrewGuide's DTO JSON".
    func possessive(_ what: String) -> String {
        displayName + (displayName.hasSuffix("s") ? "' " : "'s ") + what
    }
}

/// An app whose data lives in its Core Data store only: no file of its own to recognize.
struct StoreOnlyReader: SourceReader {
    let about: ReaderInfo
    let storeReader: any AppStoreReader

    init(app: SourceApp, displayName: String, stores: any AppStoreReader) {
        about = ReaderInfo(app, displayName)
        storeReader = stores
    }

    func recognize(_ file: CandidateFile) -> RecognizedFile? { nil }
    var stores: (any AppStoreReader)? { storeReader }
}

/// A file a reader took: what it is, and how it becomes records.
struct RecognizedFile: Sendable, Equatable {
    let app: SourceApp
    /// What the report calls it, after the app's name: "tasks.json", "DTO JSON".
    let kind: String
    /// Files that refer to each other are converted after every other file, in this order
    /// (Roots' courses before the tasks that name them); nil converts the file where it comes.
    var rank: Int?
    /// The file a conflict or backup copy is a copy of: skipped unless named on its own.
    var copyOf: String?
    /// Reads the file at the path into the context's batch.
    let convert: @Sendable (String, ConversionContext) throws -> Void

    init(app: SourceApp, kind: String, rank: Int? = nil, copyOf: String? = nil,
         convert: @escaping @Sendable (String, ConversionContext) throws -> Void) {
        self.app = app
        self.kind = kind
        self.rank = rank
        self.copyOf = copyOf
        self.convert = convert
    }

    /// As the report's inputs list it: "roots tasks.json".
    var detected: String { "\(app.rawValue) \(kind)" }

    static func == (lhs: RecognizedFile, rhs: RecognizedFile) -> Bool {
        (lhs.app, lhs.kind, lhs.rank, lhs.copyOf) == (rhs.app, rhs.kind, rhs.rank, rhs.copyOf)
    }
}

/// How an app's Core Data or SwiftData stores become records: which stores are its (by their
/// entities), which entities are read row by row as they stream, and the conversion itself.
protocol AppStoreReader: Sendable {
    /// Whether a store with these entities is this app's.
    func recognizes(entities: Set<String>) -> Bool
    /// The records of the store this app's conversion walks.
    func index(_ reader: CoreDataStoreReader) throws -> CoreDataRecordIndex
    func convert(_ index: CoreDataRecordIndex, time: String, context: ConversionContext, options: ConversionOptions) throws
}

extension AppStoreReader {
    func index(_ reader: CoreDataStoreReader) throws -> CoreDataRecordIndex {
        try CoreDataRecordIndex(reader: reader)
    }
}
