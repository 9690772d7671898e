import FerryFiles
import Foundation

/// Which file a merge of a bundle's store into an existing store writes. Both ways end with the
/// same rows and the same counts; each looks up every row of the side it reads and writes the
/// rows only that side has, so the side with fewer rows is the one read.
public enum MergeDirection: Sendable, Equatable {
    /// A copy of the existing store takes the incoming rows (``CanonicalStore/merge(from:)``).
    case intoStoreCopy
    /// The bundle's store takes the rows only the existing store has
    /// (``CanonicalStore/merge(keepingRowsOf:)``), and replaces the store.
    case intoIncoming

    /// The way to merge `incoming` (a checked store at this Ferry's schema, holding
    /// `incomingRows` canonical rows) into the store whose copy is `existing`: into the incoming
    /// store when it has more rows, and when the two files are kept alike: the same schema
    /// version (an older store is brought up to this one in its copy), neither in WAL mode (a
    /// store the person put in WAL mode stays in it), the same page size, vacuum mode, reserved
    /// bytes and application id (the store keeps its own). More, not as many: a bundle with
    /// rows the store lacks makes the copy's merge write, which leaves the store's record
    /// digests untrusted either way; a bundle of the store's own rows writes nothing into the
    /// copy, whose digests stay trusted, where the bundle's store has none.
    public static func choose(existing: String, incoming: String, incomingRows: Int) -> MergeDirection {
        guard let kept = SQLiteHeader.layout(existing), let bundled = SQLiteHeader.layout(incoming),
              !kept.walMode, kept == bundled, let existingRows = rows(of: existing), incomingRows > existingRows
        else { return .intoStoreCopy }
        return .intoIncoming
    }

    /// The canonical rows of a store; nil when they cannot be counted.
    private static func rows(of path: String) -> Int? {
        do {
            let store = try CanonicalStore(path: path, readOnly: true)
            let counts = try store.rowCounts()
            try store.close()
            return counts.values.reduce(0, +)
        } catch {
            // A store that cannot be counted goes the way that makes no assumption about it.
            return nil
        }
    }
}
