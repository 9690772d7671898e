import Foundation

/// How far an export has come, for a progress line: rows written as NDJSON, then bytes archived.
public struct ExportProgress: Sendable, Equatable {
    public enum Stage: String, Sendable {
        /// Writing each table's rows; `total` is an estimate from each table's largest rowid.
        case tables
        /// Compressing the payload into the archive; `total` is exact.
        case archive
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
    private let stage: ExportProgress.Stage
    private let total: Int64
    private var done: Int64 = 0
    private let report: @Sendable (ExportProgress) -> Void

    init(_ stage: ExportProgress.Stage, total: Int64, report: @escaping @Sendable (ExportProgress) -> Void) {
        self.stage = stage
        self.total = total
        self.report = report
        report(ExportProgress(stage: stage, done: 0, total: total))
    }

    func add(_ count: Int64) {
        let progress = lock.withLock {
            done += count
            return ExportProgress(stage: stage, done: done, total: max(total, done))
        }
        report(progress)
    }
}
