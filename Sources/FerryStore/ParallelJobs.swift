import Foundation

/// Runs independent jobs on a few threads and waits for all of them. Jobs are taken in the
/// order given, so putting the longest first keeps the threads evenly loaded. After a job
/// fails no new one starts, and the error of the earliest failed job is thrown.
public enum ParallelJobs {
    /// One thread per core, at most four: the jobs Ferry runs (tables, checks) gain nothing more.
    public static let defaultThreads = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 4))

    public static func run<Value: Sendable>(_ jobs: [@Sendable () throws -> Value], threads: Int) throws -> [Value] {
        let state = JobState<Value>(count: jobs.count)
        DispatchQueue.concurrentPerform(iterations: max(1, min(threads, jobs.count))) { _ in
            while let index = state.take() {
                do {
                    state.finish(index, .success(try jobs[index]()))
                } catch {
                    state.finish(index, .failure(error))
                }
            }
        }
        return try state.values()
    }
}

private final class JobState<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private var failed = false
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

    func finish(_ index: Int, _ result: Result<Value, any Error>) {
        lock.withLock {
            if case .failure = result { failed = true }
            results[index] = result
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
