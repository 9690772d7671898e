import Foundation

/// A payload file made in memory, with its digest, on its way into the archive.
struct PayloadFile: Sendable {
    var name: String
    var bytes: [UInt8]
    var digest: FileDigest
}

/// Payload files handed from the thread that makes them to the one that archives them, in
/// the order made. At most `capacity` bytes wait between the two (always at least one file),
/// so memory stays bounded however large the tables are.
final class PayloadQueue: @unchecked Sendable {
    /// The archiving side gave up: the making side stops at its next file.
    struct Cancelled: Error {}

    private let condition = NSCondition()
    private var files: [PayloadFile] = []
    private var head = 0
    private var waitingBytes = 0
    private var ended = false
    private var cancelled = false
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Waits while the queue is full; throws ``Cancelled`` once the archiving side has given up.
    func put(_ file: PayloadFile) throws(Cancelled) {
        condition.lock()
        defer { condition.unlock() }
        while !cancelled, head < files.count, waitingBytes + file.bytes.count > capacity { condition.wait() }
        guard !cancelled else { throw Cancelled() }
        files.append(file)
        waitingBytes += file.bytes.count
        condition.broadcast()
    }

    /// No more files come (whether the making side finished or failed).
    func end() {
        condition.lock()
        ended = true
        condition.broadcast()
        condition.unlock()
    }

    /// The next file, or nil after the last.
    func take() -> PayloadFile? {
        condition.lock()
        defer { condition.unlock() }
        while head == files.count, !ended { condition.wait() }
        guard head < files.count else { return nil }
        let file = files[head]
        head += 1
        waitingBytes -= file.bytes.count
        if head == files.count {
            files.removeAll(keepingCapacity: true)
            head = 0
        }
        condition.broadcast()
        return file
    }

    func cancel() {
        condition.lock()
        cancelled = true
        files.removeAll()
        head = 0
        waitingBytes = 0
        condition.broadcast()
        condition.unlock()
    }
}

/// Work started on its own thread at once; `value()` waits for its outcome.
final class BackgroundJob<Value: Sendable>: @unchecked Sendable {
    private let finished = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var outcome: Result<Value, any Error>?

    init(_ work: @escaping @Sendable () throws -> Value) {
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let result = Result { try work() }
            lock.withLock { outcome = result }
            finished.signal()
        }
    }

    func value() throws -> Value {
        finished.wait()
        finished.signal()
        guard let outcome = lock.withLock({ outcome }) else { preconditionFailure("a finished job has an outcome") }
        return try outcome.get()
    }

    /// Whether it failed, once it has finished (waits for it).
    var failure: (any Error)? {
        do {
            _ = try value()
            return nil
        } catch {
            return error
        }
    }
}
