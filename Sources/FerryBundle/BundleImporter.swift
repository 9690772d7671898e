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
    }

    public func importBundle(_ bundle: String, into store: String) throws -> Result {
        let staging = try StagingFolder(beside: store, purpose: "import")
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
        // Bring an older snapshot up to this Ferry's schema, in staging.
        try CanonicalStore(path: snapshot).close()

        let exists = FileManager.default.fileExists(atPath: store)
        var backupPath: String?
        if exists {
            try StoreFiles.settle(store)
            backupPath = try backup.backUp(store)
        }
        if merge && exists {
            let target = try CanonicalStore(path: store)
            defer { try? target.close() }
            let merged = try target.merge(from: snapshot)
            let problems = try target.check()
            guard problems.isEmpty else { throw StoreError(.integrity(problems), path: store) }
            return Result(bundleID: verification.bundleID, counts: merged, backup: backupPath, merged: true)
        }
        let mode = Self.mode(of: exists ? store : nil)
        chmod(snapshot, mode)
        try StoreFiles.publish(snapshot, as: store)
        return Result(bundleID: verification.bundleID, counts: counts, backup: backupPath, merged: false)
    }

    /// A replaced store keeps its permissions; a new one gets 0644 less the umask.
    private static func mode(of existing: String?) -> mode_t {
        var status = stat()
        if let existing, stat(existing, &status) == 0 { return status.st_mode & 0o7777 }
        let mask = umask(0)
        umask(mask)
        return 0o644 & ~mask
    }
}
