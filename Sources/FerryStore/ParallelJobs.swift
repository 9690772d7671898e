import Foundation

/// Runs independent jobs on a few threads and waits for all of them. Jobs are taken in the
/// order given, so putting the longest first keeps the threads evenly loaded. After a job
/// fails no new one starts, and the error of the earliest failed job is thrown.
package enum ParallelJobs {
    /// One thread per core, at most four: the jobs Ferry runs (tables, checks) gain nothing more.
    package static let defaultThreads = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 4))

    /// - Parameter finished: told how many jobs have finished of how many, after each one; calls
    ///   come one at a time, in counting order, so a progress display never steps back.
    package static func run<Value: Sendable>(_ jobs: [@Sendable () throws -> Value], threads: Int,
                                            finished: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil) throws -> [Value] {
        let state = JobState<Value>(count: jobs.count)
        DispatchQueue.concurrentPerform(iterations: max(1, min(threads, jobs.count))) { _ in
            while let index = state.take() {
                let result: Result<Value, any Error>
                do {
                    result = .success(try jobs[index]())
                } catch {
                    result = .failure(error)
                }
                state.finish(index, result) { done in finished?(done, jobs.count) }
            }
        }
        return try state.values()
    }
}

private final class JobState<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private var failed = false
    private var finishedCount = 0
    private var results: [Result<Value, any Error>?]

    init(count: Int) {
        results = Array(repeating: nil, count: count)
    }

    func take() -> Int? {
        lock.withLock {
            guard !failed, next < results.count else { return nil }
            defer { next += 1 }
            return next
        }
    }

    /// Records a job's result and tells `counted` how many jobs have finished, this one included,
    /// under the lock: two jobs ending at once cannot report their counts out of order.
    func finish(_ index: Int, _ result: Result<Value, any Error>, counted: (Int) -> Void) {
        lock.withLock {
            if case .failure = result { failed = true }
            results[index] = result
            finishedCount += 1
            counted(finishedCount)
        }
    }

    /// Every value in job order, or the earliest job's error.
    func values() throws -> [Value] {
        try lock.withLock {
            var values: [Value] = []
            for result in results {
                guard let result else { continue }
                values.append(try result.get())
            }
            return values
        }
    }
}
