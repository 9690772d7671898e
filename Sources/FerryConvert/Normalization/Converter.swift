import FerryCanonical
import FerryJSON
import FerryCoreData
import FerryFiles
import Foundation

/// How a conversion reads its inputs.
public struct ConversionOptions: Sendable {
    /// The app the inputs come from; nil detects it per input.
    public var from: SourceApp?
    /// A model for stores of apps Ferry does not know.
    public var model: String?
    public var keepGoing: Bool
    public var epoch: LegacyDateDecoder.Epoch
    /// Records read from large inputs before they are written, when converting into a store.
    public var batchSize: Int
    /// Told now and then how far a streamed input has been read.
    public var progress: (@Sendable (ConversionProgress) -> Void)?
    /// Claimed ids held in memory before they move to the ledger: about 6 MB, and as much again
    /// for a moment while they move.
    public var claimsInMemory = 1 << 17
    /// The store refuses a duplicate log id itself (a new store builds the key of its logs after
    /// the rows), so log ids are not claimed while reading. Whoever sets it names a duplicate the store finds by
    /// reading the inputs again without it (``ConversionJob`` does).
    public var logIDsCheckedByStore = false
    /// Opens `.molten` exports (zips): FerryArchive's `ArchiveReader.opener`; nil refuses them.
    public var openArchive: ArchiveOpener?
    /// Store rows an app reads typed (BrewGuide's logs) skip the record objects; off, every row
    /// goes the general way. Both give the same result: a test holds one against the other.
    public var readsStoreRowsTyped = true

    public init(from: SourceApp? = nil, model: String? = nil, keepGoing: Bool = false, epoch: LegacyDateDecoder.Epoch = .automatic,
                batchSize: Int = 5_000, progress: (@Sendable (ConversionProgress) -> Void)? = nil, openArchive: ArchiveOpener? = nil) {
        self.from = from
        self.model = model
        self.keepGoing = keepGoing
        self.epoch = epoch
        self.batchSize = max(1, batchSize)
        self.progress = progress
        self.openArchive = openArchive
    }
}

/// Reads every input and normalizes it into one canonical batch: files and folders, each
/// file's kind detected from its name and content (or fixed by `from`).
///
/// For example:
/// ```swift
/// let context = try Converter(options: ConversionOptions()).convert(["Samples/roots"], report: report)
/// context.batch.projects.count
/// ```
public struct Converter {
    public var options: ConversionOptions

    public init(options: ConversionOptions) {
        self.options = options
    }

    /// - Throws: `ConversionError` for unreadable inputs and, without `keepGoing`, for the
    ///   first bad record; `CoreDataReadError` for unreadable stores.
    /// - Parameters:
    ///   - inputs: files, and folders read whole.
    ///   - report: what the conversion found, added to as it goes.
    ///   - sink: takes batches as large inputs fill them; without one the whole batch is kept.
    ///   - ledger: keeps claimed ids past ``ConversionOptions/claimsInMemory``; without one all stay in memory.
    public func convert(_ inputs: [String], report: ReportBuilder, sink: BatchSink? = nil, ledger: ClaimLedger? = nil) throws -> ConversionContext {
        try convert(scanned: InputScanner(from: options.from, openArchive: options.openArchive).scan(inputs), report: report, sink: sink, ledger: ledger)
    }

    /// Converts inputs already scanned (``InputScanner/scan(_:)``), as ``convert(_:report:sink:ledger:)`` does.
    func convert(scanned files: [ScannedInput], report: ReportBuilder, sink: BatchSink? = nil,
                        ledger: ClaimLedger? = nil) throws -> ConversionContext {
        let context = ConversionContext(dates: LegacyDateDecoder(epoch: options.epoch), report: report, keepGoing: options.keepGoing)
        context.sink = sink
        context.flushThreshold = options.batchSize
        context.progress = options.progress
        context.ledger = ledger
        context.claimsInMemory = options.claimsInMemory
        context.logIDsCheckedByStore = options.logIDsCheckedByStore
        context.openArchive = options.openArchive
        // Files that refer to each other wait for the rest, then go in their reader's order.
        var ranked: [(file: RecognizedFile, path: String)] = []
        var skipped: [(path: String, reason: String)] = []
        for (path, kind, named) in files {
            switch kind {
            case .file(let file) where file.rank != nil:
                ranked.append((file, path))
            case .file(let file):
                // A file found in a folder that its reader, once it looks inside, finds not to be
                // one of its (a web page without a recipe) is skipped and named, as any other.
                do {
                    try convert(path, file, context: context)
                } catch let error as ConversionError where !named && error.location.file == path && Self.isNotRecognized(error) {
                    skipped.append((path, error.message))
                    report.skipped(path, reason: error.message)
                }
            case .store:
                let before = context.recordsMade
                let detected = try CoreDataStoreNormalizer(context: context, options: options).convert(path)
                context.report.input(path, detected: detected, records: context.recordsMade - before)
            case .copy(let original):
                skipped.append((path, "a conflict or backup copy of \(original); name it to convert it"))
                report.skipped(path, reason: skipped[skipped.count - 1].reason)
            case .sidecar:
                skipped.append((path, "a store's journal file; read with its store"))
                report.skipped(path, reason: skipped[skipped.count - 1].reason)
            case .unrecognized(let reason):
                // A file named on the command line is not skipped, --from or not; with --keep-going
                // it is listed as skipped and the others go on.
                if named && !options.keepGoing {
                    throw ConversionError(.notRecognized(options.from == nil ? "\(reason); use --from to say which app it comes from" : reason),
                                          at: RecordLocation(file: path))
                }
                skipped.append((path, reason))
                report.skipped(path, reason: reason)
            }
        }
        // Nothing usable in any input is a failure, not an empty store.
        if ranked.isEmpty, skipped.count == files.count, let first = skipped.first {
            throw ConversionError(.notRecognized("nothing to convert: \(files.count == 1 ? "its one file was" : "all \(files.count) files were") skipped (\(first.reason)\(files.count > 1 ? ", …" : ""))"),
                                  at: RecordLocation(file: first.path))
        }
        for (file, path) in ranked.enumerated().sorted(by: { ($0.element.file.rank ?? 0, $0.offset) < ($1.element.file.rank ?? 0, $1.offset) }).map(\.element) {
            try convert(path, file, context: context)
        }
        return context
    }

    private static func isNotRecognized(_ error: ConversionError) -> Bool {
        if case .notRecognized = error.kind { return true }
        return false
    }

    private func convert(_ path: String, _ file: RecognizedFile, context: ConversionContext) throws {
        let before = context.recordsMade
        try file.convert(path, context)
        context.report.input(path, detected: file.detected, records: context.recordsMade - before)
    }
}

extension CanonicalBatch {
    /// Top-level records: recipes, projects, logs and catalog items.
    public var recordCount: Int { recipes.count + projects.count + logs.count + catalog.count }

    /// How many records a recipe counts as when a batch is full: with its steps, lines and the
    /// node kept whole in extras, a recipe from a site's JSON-LD is some twenty rows and 10 KB
    /// where a log is two rows; at 5,000 recipes a batch the conversion peaked at 310 MB.
    static let recipeWeight = 8
}
