import Foundation

/// Work on a thread of its own, started at once; `value()` waits for its result or error, and
/// may be asked again. A thread rather than a dispatch queue's worker: these jobs block (on a
/// queue, on the disk), and a pool of one worker per core would start the next one late.
package final class BackgroundJob<Value>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var outcome: Result<Value, any Error>?

    package init(_ work: @escaping @Sendable () throws -> Value) {
        let thread = Thread { [self] in
            let result = Result { try work() }
            lock.withLock { outcome = result }
            done.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    package func value() throws -> Value {
        done.wait()
        done.signal()
        guard let outcome = lock.withLock({ outcome }) else { throw CancellationError() }
        return try outcome.get()
    }

    /// The error it ended with, or nil; waits for it to end.
    package var failure: (any Error)? {
        do {
            _ = try value()
            return nil
        } catch {
            return error
        }
    }
}
