import FerryCanonical
import FerryCoreData
import FerryJSON
import FerryStore
import FerryFiles
import Foundation

/// One `ferry convert`: read and normalize every input, link logs to what they used, then
/// write the batch into the canonical store in one transaction.
///
/// A new store is built under a temporary name beside the target, checked, flushed and renamed
/// into place, so that it appears whole or not at all. An existing store is copied beside
/// itself, the copy written in one transaction and checked; only then is the store backed up
/// (`StoreBackup`) and the copy renamed over it: an interrupted or failed run leaves the store
/// byte for byte as it was, and no backup. A dry run writes into a throw-away copy, so that it
/// reports the same counts and finds the same problems.
///
/// For example:
/// ```swift
/// let report = try ConversionJob(inputs: ["Samples/roots"], store: "data.ferry").run()
/// report.counts["project"]
/// ```
public struct ConversionJob {
    public var inputs: [String]
    public var store: String
    public var options: ConversionOptions
    public var dryRun: Bool
    public var backup: StoreBackup
    public var ferryVersion: String
    /// Replace a target that is not a Ferry store (after a backup) instead of refusing it.
    public var replaceForeign = false
    /// The new store is read once and removed (``CoreDataConversion``'s, which checks it while
    /// it reads it): written without the indexes only queries use, neither checked nor flushed
    /// to disk here.
    var readOnce = false

    public init(inputs: [String], store: String, options: ConversionOptions = ConversionOptions(), dryRun: Bool = false,
                backup: StoreBackup = StoreBackup(), ferryVersion: String = "0") {
        self.inputs = inputs
        self.store = store
        self.options = options
        self.dryRun = dryRun
        self.backup = backup
        self.ferryVersion = ferryVersion
    }

    /// - Throws: `ConversionError` and `CoreDataReadError` for bad inputs (nothing is written),
    ///   `StoreError` for a store that cannot be backed up or written (it is left as it was).
    public func run() throws -> ConversionReport {
        // A link's file is written, not the link.
        let resolved = StoreFiles.resolved(store)
        if resolved != store {
            var job = self
            job.store = resolved
            return try job.run()
        }
        let report = ReportBuilder(store: store, dryRun: dryRun)
        // Read what the inputs are before anything is written or backed up: a wrong input fails here.
        let scanned = try InputScanner(from: options.from, openArchive: options.openArchive).scan(inputs)
        guard !scanned.isEmpty else {
            throw ConversionError(.notRecognized("nothing to convert: no files in it"), at: RecordLocation(file: inputs.joined(separator: ", ")))
        }
        let exists = FileManager.default.fileExists(atPath: store)
        // A file that is not a Ferry store is refused before anything is backed up or written
        // (judged without a byte of it or its journal files changed), or replaced whole when
        // allowed; a dry run judges it the same way.
        let foreign = exists ? try !ReplaceableStore.check(store, allowForeign: replaceForeign) : false
        let run = (version: ferryVersion, inputs: JSONValue.array(inputs.map { .string($0) }))

        if dryRun {
            let scratch = ScratchFiles.temporaryPath(purpose: "dry-run")
            defer { FileSync.removeDatabase(scratch) }
            if exists && !foreign { try StoreCopy.copy(store, to: scratch) }
            // A copy of a store is opened as the real run's working copy is; a new store as a new store.
            let target = exists && !foreign ? try CanonicalStore(path: scratch, workingCopy: workingCopy) : try CanonicalStore(path: scratch, bulk: true)
            report.counts(try convert(scanned, into: target, report: report, run: run))
            try target.close()
        } else if exists && !foreign {
            try StoreFiles.settle(store)
            try rewrite(scanned, report: report, run: run)
        } else if exists {
            try writeNew(scanned, report: report, run: run, replacingForeign: true)
        } else {
            try writeNew(scanned, report: report, run: run)
        }
        return report.finish()
    }

    /// Reads, normalizes, links and writes every input in one transaction of `target`, batch by batch.
    /// Without `keepGoing` the inputs are read on a thread of their own while this one writes
    /// (``BatchPipeline``). With it, both sides may reject records, and on one thread the
    /// rejections come in the input's order.
    ///
    /// Into a new store, log ids are not claimed while reading: the store's key refuses a
    /// duplicate once every row is in. The inputs are then read again with every id claimed, so
    /// that the error names both records, as a claim would have; and so they are when a record
    /// fails, as a duplicate before it would have failed first.
    private func convert(_ scanned: [ScannedInput], into target: CanonicalStore, report: ReportBuilder,
                         run: (version: String, inputs: JSONValue)) throws -> [String: Int] {
        let ledger = ClaimFile()
        var unclaimed = false
        do {
            let counts = try target.session(report: report, keepGoing: options.keepGoing, run: run) { session in
                var options = options
                // With keepGoing a duplicate is rejected alone, which takes its claim.
                options.logIDsCheckedByStore = session.refusesDuplicateLogs && !options.keepGoing
                unclaimed = options.logIDsCheckedByStore
                let context = options.keepGoing
                    ? try Converter(options: options).convert(scanned: scanned, report: report, sink: session, ledger: ledger)
                    : try BatchPipeline.run(into: session) { [options] sink in
                        try Converter(options: options).convert(scanned: scanned, report: report, sink: sink, ledger: ledger)
                    }
                try session.finish(context)
            }
            // The store is written by now: a failure to read it back for the report is said, not fatal.
            do {
                report.sameSource(try target.recipesSharingSourceURL())
            } catch {
                report.warning("could not match recipes by source URL: \(error)")
            }
            return counts
        } catch let error as StoreError where unclaimed {
            guard case .duplicateKey = error.kind else { throw error }
            throw firstDuplicateID(scanned) ?? error
        } catch let error as ConversionError where unclaimed {
            throw firstDuplicateID(scanned) ?? error
        }
    }

    /// The first record whose id an earlier record of the inputs has, found by reading them again
    /// with every id claimed and nothing written, up to the first record that fails; nil when no
    /// duplicate comes before it.
    private func firstDuplicateID(_ scanned: [ScannedInput]) -> ConversionError? {
        let discard = DiscardingSink()
        do {
            _ = try Converter(options: options).convert(scanned: scanned, report: ReportBuilder(store: store, dryRun: true), sink: discard,
                                                        ledger: ClaimFile())
        } catch let error as ConversionError {
            if case .duplicateID = error.kind { return error }
        } catch {}
        return nil
    }

    /// With `keepGoing` a rejected record is rolled back alone, which takes a journal.
    private var workingCopy: CanonicalStore.WorkingCopy { options.keepGoing ? .rollingBackRecords : .wholeChange }

    /// Converts into a copy of the existing store, checks it, backs the store up and renames the
    /// copy over it.
    private func rewrite(_ scanned: [ScannedInput], report: ReportBuilder, run: (version: String, inputs: JSONValue)) throws {
        let working = FileSync.temporaryPath(beside: store, purpose: "convert")
        let counts = try StoreFiles.changeThroughCopy(store, at: working, backup: backup, thoroughCheck: false, workingCopy: workingCopy,
                                                      backedUp: { report.backup($0) }) {
            try convert(scanned, into: $0, report: report, run: run)
        }
        report.counts(counts)
    }

    /// Builds a new store under a temporary name in the target's folder, then renames it into place.
    private func writeNew(_ scanned: [ScannedInput], report: ReportBuilder, run: (version: String, inputs: JSONValue),
                          replacingForeign: Bool = false) throws {
        let url = URL(fileURLWithPath: store)
        let folder = url.deletingLastPathComponent().path
        guard FileManager.default.isWritableFile(atPath: folder) else {
            throw StoreError(.cannotCreate("the folder \(folder) does not exist or is not writable"), path: store)
        }
        let temporary = FileSync.temporaryPath(beside: store)
        var published = false
        defer { if !published { FileSync.removeDatabase(temporary) } }
        let target: CanonicalStore
        do {
            target = try CanonicalStore(path: temporary, bulk: true, readOnce: readOnce)
        } catch let error as StoreError {
            throw StoreError(.cannotCreate("in \(folder): \(error.message)"), path: store)
        }
        do {
            report.counts(try convert(scanned, into: target, report: report, run: run))
        } catch var error as StoreError where error.path == temporary {
            // The user named the store; the temporary file beside it is gone with the failure.
            error.path = store
            throw error
        }
        try target.close()
        // The check reads the new file while the kernel writes it to disk: side by side, the
        // two take the longer of their times rather than the sum.
        if !readOnce {
            let jobs: [@Sendable () throws -> [String]] = [{ [temporary] in try CanonicalStore.structuralCheck(temporary) },
                                                           { [temporary] in try StoreSync.flush(temporary); return [] }]
            let problems = try ParallelJobs.run(jobs, threads: 2).flatMap { $0 }
            guard problems.isEmpty else { throw StoreError(.integrity(problems), path: store) }
        }
        if replacingForeign {
            try StoreFiles.replace(store, with: temporary, backup: backup, foreign: true) { report.backup($0) }
            published = true
            return
        }
        guard !FileManager.default.fileExists(atPath: store) else {
            throw StoreError(.cannotCreate("it appeared while converting; nothing was written"), path: store)
        }
        try StoreSync.publish(temporary, as: store, flushing: false, reportingAs: store) {
            .cannotCreate("cannot move the new store into place: \($0)")
        }
        published = true
    }
}

/// Takes batches and drops them: a reading of the inputs for their claims alone.
private final class DiscardingSink: BatchSink {
    func flush(_ context: ConversionContext) throws {
        context.batch = CanonicalBatch()
    }
}
