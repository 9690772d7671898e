import FerryCanonical

/// Takes batches from a conversion as they fill, so that large inputs need not be held whole.
public protocol BatchSink: AnyObject {
    /// Writes (or otherwise takes) `context.batch` and empties it.
    func flush(_ context: ConversionContext) throws
}
