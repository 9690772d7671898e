import FerryCanonical
import FerryStore
import Foundation

/// Reads and normalizes a conversion's inputs on a thread of its own while the store's thread
/// links and writes the batches handed over: the two halves cost about the same, and two cores
/// do them at once. At most one batch waits between them, so memory stays flat.
///
/// The store's thread links and writes the batches in the order they were made, exactly as a
/// single thread would; the reading thread never touches the store. The first failure wins as
/// it would on one thread: a batch handed over before the reading failed is still written, and
/// its error comes first.
final class BatchPipeline: BatchSink, @unchecked Sendable {
    private let condition = NSCondition()
    private var waiting: (batch: CanonicalBatch, report: ReportBuilder)?
    private var reading = true
    private var stopped = false
    /// Logs written, given back to be freed on the reading thread, which made them, and their
    /// array filled again. Freed on another thread, every string went back to glibc through the
    /// reading thread's arena lock, and the reading thread's next ones came from its slow path
    /// (a sixth of its time went to malloc); and a new array for each batch mapped fresh pages.
    /// Two: a batch written while the reading side was still filling the one after found the
    /// one before still there, and its logs were freed here instead.
    private var spent: [[Log]] = []
    /// Recipes written, freed on the reading thread at its next hand-over, for the same reasons.
    private var spentRecipes: [[Recipe]] = []

    /// The reading side: waits while a batch is still waiting, then hands this one over.
    func flush(_ context: ConversionContext) throws {
        var written: [[Recipe]] = []
        var logs = condition.withLock { () -> [Log]? in
            swap(&written, &spentRecipes)
            return spent.popLast()
        } ?? []
        // The last reference to the recipes written: they are freed here, on the thread that made them.
        written.removeAll()
        logs.removeAll(keepingCapacity: true)
        var batch = CanonicalBatch()
        batch.logs = consume logs
        swap(&batch, &context.batch)
        condition.lock()
        defer { condition.unlock() }
        while waiting != nil, !stopped { condition.wait() }
        guard !stopped else { throw Stopped() }
        waiting = (batch, context.report)
        // Let go of before the store's thread may wake, which links the batch in place: shared,
        // the whole batch would be copied first (copy on write).
        batch = CanonicalBatch()
        condition.broadcast()
    }

    /// The writing side: records written, to be freed (and logs' array refilled) by the reading side.
    private func giveBack(_ records: StoreSession.Spent) {
        condition.withLock {
            if let logs = records.logs, spent.count < 2 { spent.append(logs) }
            if !records.recipes.isEmpty { spentRecipes.append(records.recipes) }
        }
    }

    /// The writing side: the next batch, or nil once reading has ended and none waits.
    private func next() -> (batch: CanonicalBatch, report: ReportBuilder)? {
        condition.lock()
        defer { condition.unlock() }
        while waiting == nil, reading { condition.wait() }
        let next = waiting
        waiting = nil
        condition.broadcast()
        return next
    }

    private func readingEnded() {
        condition.withLock {
            reading = false
            condition.broadcast()
        }
    }

    /// Writing failed: the reading side stops at its next hand-over.
    private func stop() {
        condition.withLock {
            stopped = true
            waiting = nil
            condition.broadcast()
        }
    }

    /// Thrown to the reading side once writing has failed; the writing error is the one reported.
    struct Stopped: Error {}

    /// Runs `convert` on a thread of its own, writing what it hands over into `session` on this
    /// thread. Returns the conversion's context, whose last batch is still to be linked and written.
    static func run(into session: StoreSession, _ convert: @escaping @Sendable (BatchSink) throws -> ConversionContext) throws -> ConversionContext {
        let pipeline = BatchPipeline()
        let outcome = Outcome()
        let thread = Thread {
            outcome.result = Result { try convert(pipeline) }
            pipeline.readingEnded()
            outcome.done.signal()
        }
        // The readers recurse into nested JSON and models as deep as the main thread allows.
        thread.stackSize = 16 << 20
        session.takeLogsApart()
        thread.start()
        var writeError: Error?
        while let (batch, report) = pipeline.next() {
            do {
                pipeline.giveBack(try session.flush(consume batch, report: report))
            } catch {
                writeError = error
                pipeline.stop()
                break
            }
        }
        outcome.done.wait()
        if let writeError { throw writeError }
        return try outcome.result!.get()
    }

    /// What the reading thread ends with; written before `done` is signalled, read after.
    private final class Outcome: @unchecked Sendable {
        var result: Result<ConversionContext, Error>?
        let done = DispatchSemaphore(value: 0)
    }
}
