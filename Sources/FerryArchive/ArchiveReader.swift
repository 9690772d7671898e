import CLibArchive
import FerryFiles
import Foundation

/// One entry of an archive as its header describes it; nothing is written anywhere.
public struct ArchiveEntry: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case regular, directory, symbolicLink, hardLink, fifo, device, socket
        case other(UInt32)
    }

    public var path: String
    public var kind: Kind
    /// The size the header declares, when it declares one.
    public var declaredSize: Int64?
    public var linkTarget: String?

    public init(path: String, kind: Kind, declaredSize: Int64? = nil, linkTarget: String? = nil) {
        self.path = path
        self.kind = kind
        self.declaredSize = declaredSize
        self.linkTarget = linkTarget
    }
}

/// Why an archive could not be read: the file and libarchive's reason, or a limit hit.
public struct ArchiveError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var entry: String?
    public var reason: String

    public init(path: String, entry: String? = nil, reason: String) {
        self.path = path
        self.entry = entry
        self.reason = reason
    }

    public var description: String {
        [path, entry.map { "entry \"\($0)\"" }, reason].compactMap { $0 }.joined(separator: ": ")
    }
}

/// Reads an archive (zip, tar, tar.gz, tar.zst …) entry by entry, streaming, through libarchive.
///
/// For example:
/// ```swift
/// let reader = try ArchiveReader(path: "plan.molten")
/// while let entry = try reader.next() {
///     let bytes = try reader.readData(limit: 64 << 20)
/// }
/// ```
public final class ArchiveReader {
    public let path: String
    private let archive: OpaquePointer
    private var current: ArchiveEntry?

    public init(path: String) throws(ArchiveError) {
        _ = LibArchive.localeReady
        self.path = path
        guard let archive = archive_read_new() else { throw ArchiveError(path: path, reason: "out of memory") }
        self.archive = archive
        archive_read_support_filter_all(archive)
        archive_read_support_format_all(archive)
        // A throw from here on runs deinit, which frees the archive: do not free it here too.
        guard archive_read_open_filename(archive, path, 64 * 1024) == LibArchive.ok else {
            throw ArchiveError(path: path, reason: LibArchive.message(archive))
        }
    }

    deinit {
        archive_read_free(archive)
    }

    /// How many bytes of the archive file libarchive has read so far (compressed), for ratio limits.
    public var compressedBytesRead: Int64 {
        archive_filter_bytes(archive, -1)
    }

    /// The next entry's header, or nil at the end.
    public func next() throws(ArchiveError) -> ArchiveEntry? {
        var entry: OpaquePointer?
        let status = archive_read_next_header(archive, &entry)
        if status == LibArchive.eof { current = nil; return nil }
        guard status == LibArchive.ok || status == LibArchive.warn, let entry else {
            throw ArchiveError(path: path, reason: LibArchive.message(archive))
        }
        guard let name = LibArchive.entryPath(entry) else {
            throw ArchiveError(path: path, reason: "an entry name is not valid text")
        }
        let kind = LibArchive.entryType(entry)
        let size: Int64? = archive_entry_size_is_set(entry) != 0 ? archive_entry_size(entry) : nil
        var target: String?
        if let link = archive_entry_symlink(entry) ?? archive_entry_hardlink(entry) { target = String(cString: link) }
        current = ArchiveEntry(path: name, kind: kind, declaredSize: size, linkTarget: target)
        return current
    }

    /// Streams the current entry's bytes to `body` in chunks; stops with an error past `limit` bytes.
    /// - Returns: the number of bytes read.
    @discardableResult
    public func readData(limit: Int64, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Int64 {
        var total: Int64 = 0
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { archive_read_data(archive, $0.baseAddress, $0.count) }
            if count == 0 { return total }
            guard count > 0 else { throw ArchiveError(path: path, entry: current?.path, reason: LibArchive.message(archive)) }
            total += Int64(count)
            guard total <= limit else { throw ArchiveError(path: path, entry: current?.path, reason: "larger than \(limit) bytes") }
            try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
    }

    /// Reads the next chunk of the current entry into `buffer`: the byte count, 0 at the entry's
    /// end, negative on damage (see ``lastError``).
    public func readChunk(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        archive_read_data(archive, buffer.baseAddress, buffer.count)
    }

    /// libarchive's message for the last failure.
    public var lastError: String {
        LibArchive.message(archive)
    }

    /// The current entry's bytes, at most `limit` of them.
    public func readData(limit: Int64) throws -> Data {
        var data = Data()
        try readData(limit: limit) { data.append(contentsOf: $0) }
        return data
    }
}

extension ArchiveError: ArchiveReadingError {}

extension ArchiveReader: ArchiveEntryReader {
    /// Opens an archive for the readers that take any ``ArchiveEntryReader``.
    public static let opener: ArchiveOpener = { try ArchiveReader(path: $0) }

    public func nextEntry() throws -> (path: String, kind: ArchiveEntryKind)? {
        guard let entry = try next() else { return nil }
        switch entry.kind {
        case .regular: return (entry.path, .regular)
        case .directory: return (entry.path, .directory)
        default: return (entry.path, .other)
        }
    }
}
