import FerryCanonical
import FerryCoreData
import FerryFiles
import FerryModel
import FerryStore
import Foundation

/// `ferry convert --as core-data`: converts the inputs as ``ConversionJob`` does, into a
/// canonical store kept under a temporary name beside the target, then writes that as a Core
/// Data store: of the canonical mirror (`Formats/canonical/Ferry.xcdatamodeld`), or of the app's
/// own model through the app's `AppModelMapping`. The store appears whole or not at all; an
/// existing file is backed up (verified, rotated) before it is replaced. A dry run writes both
/// stores under temporary names and keeps neither.
public struct CoreDataConversion {
    public var job: ConversionJob
    /// The app's model and the version to write for; nil for the canonical mirror.
    public var appModel: (path: String, model: DataModel)?
    /// Runs on the temporary canonical store between its conversion and its check: where tests
    /// damage it as no input can, to hold that the check stands between it and the target.
    var afterConverting: ((_ canonicalStore: String) throws -> Void)?

    public init(job: ConversionJob, appModel: (path: String, model: DataModel)? = nil) {
        self.job = job
        self.appModel = appModel
    }

    /// - Throws: what ``ConversionJob/run()`` throws for the inputs, `CoreDataWriteError` for
    ///   a value the model cannot hold or a store that cannot be written, `StoreError` for a
    ///   backup that fails or a canonical store in between that fails its check.
    public func run() throws -> ConversionReport {
        let target = job.store
        // Which mapping, before anything is read: a model Ferry cannot write into fails first.
        let mapping = try appModel.map { try AppModelMappings.mapping(for: $0.model, at: $0.path) }
        let folder = (target as NSString).deletingLastPathComponent
        guard FileManager.default.isWritableFile(atPath: folder.isEmpty ? "." : folder) else {
            throw CoreDataWriteError(kind: .cannotWrite("the folder \(folder) does not exist or is not writable"), file: target)
        }
        // Only a store of the model being written is replaced (never a canonical store, never an
        // app's other store), unless allowed: judged before anything is converted.
        try ReplaceableCoreDataStore.check(target, model: try appModel?.model ?? CanonicalCoreDataWriter.canonicalModel(),
                                           allowForeign: job.replaceForeign)
        let canonical = FileSync.temporaryPath(beside: target, purpose: "canonical")
        defer { FileSync.removeDatabase(canonical) }
        var inner = job
        inner.store = canonical
        inner.dryRun = false
        inner.readOnce = true
        var report: ConversionReport
        do {
            report = try inner.run()
        } catch var error as StoreError where error.path == canonical {
            // The user named the target; the canonical store beside it is Ferry's own, and gone.
            error.path = target
            throw error
        }
        report.store = target
        report.dryRun = job.dryRun
        try afterConverting?(canonical)
        // The canonical store is checked (pages and records, then foreign keys, which its
        // conversion left out) on another core while it is copied (the copy keeps one busy); the
        // Core Data store is put in place only once the check has passed.
        let check = BackgroundJob { [canonical] in try CanonicalStore.structuralCheck(canonical, foreignKeys: true) }
        defer { _ = check.failure }
        let checked = {
            let problems: [String]
            do {
                problems = try check.value()
            } catch var error as StoreError where error.path == canonical {
                error.path = target
                throw error
            }
            guard problems.isEmpty else { throw StoreError(.integrity(problems), path: target) }
        }

        let exists = FileManager.default.fileExists(atPath: target)
        let output = job.dryRun ? FileSync.temporaryPath(beside: target, purpose: "dry-run") : target
        defer { if job.dryRun { FileSync.removeDatabase(output) } }
        // The backup is kept only once the new store is in place; a failure removes it again.
        let taken = exists && !job.dryRun ? try job.backup.take(target, foreign: job.replaceForeign) : nil
        do {
            let replacing = taken != nil
            if let mapping, let appModel {
                let written = try mapping.write(canonicalStore: canonical, model: appModel.model, modelPath: appModel.path,
                                                to: output, replacing: replacing, keepGoing: job.options.keepGoing, beforePublishing: checked)
                report.coreData = written.output
                for rejection in written.rejected { report.reject(file: rejection.file, key: rejection.key, message: rejection.message) }
            } else {
                let objects = try CanonicalCoreDataWriter(canonicalStore: canonical).write(to: output, replacing: replacing, beforePublishing: checked)
                report.coreData = CoreDataOutput(model: "Ferry.xcdatamodeld", objects: objects)
            }
        } catch {
            taken?.discard()
            // A damaged canonical store is what to say, not what reading it then ran into.
            try checked()
            throw error
        }
        taken?.keep()
        report.backup = taken?.path
        return report
    }
}
