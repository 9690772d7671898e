/// Where a conversion keeps the ids it has claimed once there are too many to hold in memory:
/// telling a duplicate id needs every id seen so far, about 50 MB a million in memory.
public protocol ClaimLedger: AnyObject {
    /// Keeps these claims, given in key order (table, high, low); none of their ids is kept yet.
    func keep(_ claims: [ClaimedID]) throws
    /// Where the UUID `high`/`low` was first claimed in `table`, if it was.
    func firstClaim(table: String, high: UInt64, low: UInt64) throws -> (file: UInt32, record: UInt32)?
}

/// A UUID claimed by a record: the table, its 128 bits, and where it was seen (an index into
/// the conversion's files, and the record's number in its file).
public struct ClaimedID: Sendable, Equatable {
    public var table: String
    public var high: UInt64
    public var low: UInt64
    public var file: UInt32
    public var record: UInt32

    public init(table: String, high: UInt64, low: UInt64, file: UInt32, record: UInt32) {
        (self.table, self.high, self.low, self.file, self.record) = (table, high, low, file, record)
    }
}
