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
    /// A few files at most: taking the first leaves nothing of it behind.
    private var files: [PayloadFile] = []
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
        while !cancelled, !files.isEmpty, waitingBytes + file.bytes.count > capacity { condition.wait() }
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

    /// The next file, or nil after the last (or once cancelled).
    func take() -> PayloadFile? {
        condition.lock()
        defer { condition.unlock() }
        while files.isEmpty, !ended, !cancelled { condition.wait() }
        guard !cancelled, !files.isEmpty else { return nil }
        let file = files.removeFirst()
        waitingBytes -= file.bytes.count
        condition.broadcast()
        return file
    }

    /// Either side gave up: waiting files are dropped, and both sides stop waiting.
    func cancel() {
        condition.lock()
        cancelled = true
        files.removeAll()
        waitingBytes = 0
        condition.broadcast()
        condition.unlock()
    }

    var isCancelled: Bool {
        condition.lock()
        defer { condition.unlock() }
        return cancelled
    }
}
