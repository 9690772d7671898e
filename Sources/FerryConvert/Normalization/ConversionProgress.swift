import FerryCanonical
/// How far a conversion has read a large input, for a progress line.
public struct ConversionProgress: Sendable, Equatable {
    /// The input being read.
    public var file: String
    /// Records read from it so far.
    public var records: Int
    public var bytesRead: Int
    public var totalBytes: Int?

    public init(file: String, records: Int, bytesRead: Int, totalBytes: Int?) {
        self.file = file
        self.records = records
        self.bytesRead = bytesRead
        self.totalBytes = totalBytes
    }
}
