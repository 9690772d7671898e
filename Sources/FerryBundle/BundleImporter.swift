import FerryFiles
import FerryStore
import Foundation

/// `ferry import`: a bundle into a store. The archive is unpacked into a private staging
/// folder beside the store (every entry judged first, nothing written elsewhere), verified
/// whole, and its store snapshot checked as untrusted; only then is the current store backed
/// up and replaced by rename, or, with `merge`, the bundle's rows upserted into it by id in
/// one transaction.
///
/// For example:
/// ```swift
/// let result = try BundleImporter().importBundle("data.tar.zst", into: "data.ferry")
/// ```
public struct BundleImporter: Sendable {
    public var limits: BundleLimits
    public var backup: StoreBackup
    public var merge: Bool
    /// Replace a target that is not a Ferry store (after a backup) instead of refusing it; a
    /// merge needs a Ferry store whatever this says.
    public var replaceForeign = false
    /// Called as the archive is unpacked and as the parts of the store's check finish.
    public var progress: (@Sendable (BundleProgress) -> Void)?

    public init(limits: BundleLimits = BundleLimits(), backup: StoreBackup = StoreBackup(), merge: Bool = false,
                progress: (@Sendable (BundleProgress) -> Void)? = nil) {
        self.limits = limits
        self.backup = backup
        self.merge = merge
        self.progress = progress
    }

    public struct Result: Sendable {
        public var bundleID: String?
        /// Rows per table the bundle brought.
        public var counts: [String: Int]
        public var backup: String?
        public var merged: Bool
        /// With a merge: per table, the bundle's rows that were new, changed or already there.
        public var merge: [String: MergeCount]?
    }

    public func importBundle(_ bundle: String, into store: String) throws -> Result {
        // A link's file is replaced, not the link; staging beside it, on its file system.
        let store = StoreFiles.resolved(store)
        // Judged before anything is unpacked, backed up or written.
        let foreign = try !ReplaceableStore.check(store, allowForeign: merge ? nil : replaceForeign)
        let staging = try StagingFolder(beside: store, purpose: "import")
        // A merge's working copy of the store is made while the bundle is unpacked and checked,
        // on the core the unpacking leaves idle.
        let working = staging.file("merged.ferry")
        let copied = merge && FileManager.default.fileExists(atPath: store) ? try StoreFiles.startCopy(store, to: working) : nil
        do {
            let (verification, counts, snapshot) = try unpackAndCheck(bundle, into: staging)
            // Judged again now: the store may have appeared (or gone) while the bundle was checked.
            let exists = FileManager.default.fileExists(atPath: store)
            var backupPath: String?
            if merge && exists {
                // The merged store is checked, then replaces the store: an interrupted merge
                // leaves the store as it was. The check is the structural one a conversion gets
                // (`quick_check`): the bundle's store passed its own whole check as untrusted, the
                // merge's statements enforced every CHECK, and its foreign keys were checked
                // before it committed; `integrity_check` of the merged copy took 19 s at a
                // million logs.
                let merged: [String: MergeCount]
                if let before = try copied?.value(),
                   MergeDirection.choose(existing: working, incoming: snapshot, incomingRows: counts.values.reduce(0, +)) == .intoIncoming {
                    // The bundle holds more than the store: its store takes the rows only the
                    // store has (usually none), read from the store's copy (the store as
                    // `before` describes it, and a file no other process writes), rather than
                    // the copy taking all of the bundle's rows.
                    defer { FileSync.removeDatabase(working) }
                    merged = try StoreFiles.change(store, through: snapshot, unchangedSince: before, backup: backup, thoroughCheck: false,
                                                   workingCopy: .wholeChange, backedUp: { backupPath = $0 }) { try $0.merge(keepingRowsOf: working) }
                } else {
                    // The bundle's rows are upserted into the store's copy.
                    merged = try StoreFiles.changeThroughCopy(store, at: working, backup: backup, thoroughCheck: false, workingCopy: .wholeChange,
                                                              copied: copied, backedUp: { backupPath = $0 }) { try $0.merge(from: snapshot) }
                }
                return Result(bundleID: verification.bundleID, counts: counts, backup: backupPath, merged: true, merge: merged)
            }
            copied?.wait()
            if exists {
                try StoreFiles.replace(store, with: snapshot, backup: backup, foreign: foreign) { backupPath = $0 }
            } else {
                chmod(snapshot, StoreFiles.permissions(of: nil))
                try StoreFiles.publish(snapshot, as: store)
            }
            return Result(bundleID: verification.bundleID, counts: counts, backup: backupPath, merged: false)
        } catch {
            // The copy goes with the staging folder: it is not left writing into it.
            copied?.wait()
            throw error
        }
    }

    /// Unpacks the bundle into staging, refusing every unsafe entry, verifies it whole and
    /// checks its store as untrusted; an older store is brought up to this Ferry's schema.
    /// - Returns: the verification, the store's rows per table and the store's path in staging.
    private func unpackAndCheck(_ bundle: String, into staging: StagingFolder) throws
        -> (verification: BundleVerification, counts: [String: Int], snapshot: String) {
        let scan = try BundleScanner(limits: limits, progress: progress).scan(bundle, into: staging)
        let validation = BagValidator().validate(scan)
        guard validation.problems.isEmpty else { throw BundleError(.invalid(validation.problems), path: bundle) }
        let verification = BundleVerifier.verification(bundle, scan: scan, result: validation)

        let snapshot = staging.file(BundleLayout.storeSnapshot)
        let counts: [String: Int]
        do {
            (_, counts) = try UntrustedStore.check(snapshot, progress: progress.map { report in
                { @Sendable done, total in report(BundleProgress(stage: .check, done: Int64(done), total: Int64(total))) }
            })
        } catch let error as StoreError {
            throw BundleError(.unusableStore(error.message), path: bundle)
        }
        for (table, expected) in verification.counts where counts[table] != expected {
            throw BundleError(.unusableStore("bundle.json counts \(expected) \(table) rows, the store holds \(counts[table] ?? 0)"), path: bundle)
        }
        // Bring an older snapshot up to this Ferry's schema, in staging; its record digests
        // came with the bundle, whose rows a later conversion must not take on trust.
        let staged = try CanonicalStore(path: snapshot)
        try staged.forgetRecordDigests()
        try staged.close()
        return (verification, counts, snapshot)
    }
}
