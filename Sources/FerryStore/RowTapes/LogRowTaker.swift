import FerryCanonical
import Foundation

/// Takes logs' rows (their text and JSON, the schema's checks) on a thread of its own while the
/// store's thread plays the rows of the logs handed over before. In a conversion into a new
/// store, logs are nearly all the rows, and taking them was a third of the store's thread.
///
/// One batch of logs is taken while the one before is played, so the store's thread writes
/// every row in the order a single thread would (that batch's other records come after the logs
/// before them, as they do on one thread), and the first failure is the same. Used only for a
/// store that was empty (no old rows to delete first) and without `keepGoing` (a record's
/// failure fails the conversion).
final class LogRowTaker: @unchecked Sendable {
    private let condition = NSCondition()
    /// Logs handed over and not taken yet.
    private var waiting: [Log]?
    private var taking = false
    /// The rows of the logs last taken, not collected yet, and those logs, handed back whole.
    private var taken: RowTape?
    private var takenLogs: [Log]?
    private var ended = false
    /// Played tapes, empty but as large as a batch made them: refilled rather than grown anew.
    /// Two, as taking one batch and playing the one before race: with one, a tape played late
    /// found the slot full and was freed, and the next batch grew a new one.
    private var spares: [RowTape] = []
    /// Touched by the taking thread only, until ``finish()`` has returned.
    private var writer = BatchWriter()

    init(keepsDigests: Bool = true) {
        writer.fresh = true
        writer.keepsDigests = keepsDigests
        let thread = Thread { [self] in run() }
        thread.start()
    }

    /// Hands over a batch's logs, once the ones before are taken.
    /// - Returns: the rows of the logs handed over before (nil the first time), to be played
    ///   now, and those logs, to be freed where they were made (``BatchPipeline``).
    func exchange(_ logs: consuming [Log]) -> (rows: RowTape, logs: [Log])? {
        condition.lock()
        defer { condition.unlock() }
        waitUntilTaken()
        let previous = taken.map { ($0, takenLogs ?? []) }
        taken = nil
        takenLogs = nil
        waiting = logs
        condition.broadcast()
        return previous
    }

    /// Gives back a tape once played, to be filled again.
    func recycle(_ tape: RowTape) {
        condition.withLock { if spares.count < 2 { spares.append(tape) } }
    }

    /// Ends the thread once the logs handed over are taken.
    /// - Returns: their rows, still to be played, and the rows counted by table (as ``BatchWriter`` counts).
    func finish() -> (rows: RowTape?, counted: BatchWriter) {
        condition.lock()
        defer { condition.unlock() }
        waitUntilTaken()
        ended = true
        condition.broadcast()
        let last = taken
        taken = nil
        return (last, writer)
    }

    /// Ends the thread without waiting for what it takes (the conversion failed).
    func stop() {
        condition.withLock {
            ended = true
            waiting = nil
            condition.broadcast()
        }
    }

    /// With the condition's lock held: until the logs handed over are taken.
    private func waitUntilTaken() {
        while taking || waiting != nil { condition.wait() }
    }

    private func run() {
        while true {
            condition.lock()
            while waiting == nil, !ended { condition.wait() }
            guard !ended, let logs = waiting else {
                condition.unlock()
                return
            }
            waiting = nil
            taking = true
            condition.unlock()

            // Each log is read in place, through the buffer: iterating, or even subscripting the
            // array, copied it first, a retain and a release of each of its strings. Not freed
            // here: see ``exchange(_:)``.
            logs.withUnsafeBufferPointer { logs in
                for index in logs.indices { writer.take(logs.baseAddress! + index) }
            }
            var rows = condition.withLock { spares.popLast() } ?? RowTape()
            writer.handOver(&rows)

            condition.lock()
            taken = rows
            takenLogs = logs
            taking = false
            condition.broadcast()
            condition.unlock()
        }
    }
}
