import FerryCanonical
import FerryStore

/// The store takes a conversion's batches as they fill.
extension StoreSession: BatchSink {
    public func flush(_ context: ConversionContext) throws {
        let batch = context.batch
        context.batch = CanonicalBatch()
        try flush(consume batch, report: context.report)
    }

    /// Links and writes the rest of a conversion.
    public func finish(_ context: ConversionContext) throws {
        try finish(&context.batch, report: context.report)
    }
}
