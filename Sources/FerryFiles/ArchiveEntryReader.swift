import Foundation

/// What a reader of a zip (a `.molten` export) needs of an archive: its entries one at a time.
/// FerryArchive's `ArchiveReader` (libarchive) is the real one; the readers and the conversion
/// take one from whoever runs them, so that they link without libarchive (an app embedding them
/// has none).
public protocol ArchiveEntryReader: AnyObject {
    /// The next entry's path and kind; nil after the last.
    func nextEntry() throws -> (path: String, kind: ArchiveEntryKind)?
    /// The current entry's bytes; fails past `limit`.
    func readData(limit: Int64) throws -> Data
}

public enum ArchiveEntryKind: Sendable, Hashable {
    case regular, directory, other
}

/// An error of an archive reader: the entry being read, when there was one, and why.
public protocol ArchiveReadingError: Error {
    var entry: String? { get }
    var reason: String { get }
}

/// Opens the archive at a path for reading.
public typealias ArchiveOpener = @Sendable (String) throws -> any ArchiveEntryReader
