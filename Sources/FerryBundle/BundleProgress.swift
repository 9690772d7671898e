import Foundation

/// How far an export or an import has come, for a progress line: an export's rows written as
/// NDJSON (and archived as they come), then the store snapshot's bytes archived; an import's archive bytes unpacked, then the parts of the
/// bundled store checked.
public struct BundleProgress: Sendable, Equatable {
    public enum Stage: String, Sendable {
        /// Export: writing each table's rows; `total` is an estimate from each table's largest rowid.
        case tables
        /// Export: compressing the store's snapshot into the archive; `total` is exact.
        case archive
        /// Import: reading the archive file (compressed bytes) and unpacking it into staging.
        case unpack
        /// Import: checking the bundled store; `done` and `total` count parts (the whole file's
        /// pages, the references, each table), which differ widely in size.
        case check
    }

    public var stage: Stage
    public var done: Int64
    public var total: Int64

    public init(stage: Stage, done: Int64, total: Int64) {
        self.stage = stage
        self.done = done
        self.total = total
    }
}

/// Adds up what parallel jobs have done and passes the sum on. Jobs report in steps of
/// thousands, so one lock is no contention.
final class ProgressTally: @unchecked Sendable {
    private let lock = NSLock()
    private let stage: BundleProgress.Stage
    private let total: Int64
    private var done: Int64 = 0
    private let report: @Sendable (BundleProgress) -> Void

    init(_ stage: BundleProgress.Stage, total: Int64, report: @escaping @Sendable (BundleProgress) -> Void) {
        self.stage = stage
        self.total = total
        self.report = report
        report(BundleProgress(stage: stage, done: 0, total: total))
    }

    /// Reported under the lock: threads adding side by side would otherwise report their counts
    /// out of order, and progress would seem to go back.
    func add(_ count: Int64) {
        lock.withLock {
            done += count
            report(BundleProgress(stage: stage, done: done, total: max(total, done)))
        }
    }
}
