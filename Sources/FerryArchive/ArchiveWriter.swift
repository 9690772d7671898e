import CLibArchive
import Foundation

/// The archive formats Ferry writes.
public enum ArchiveFormat: String, Sendable, CaseIterable {
    case tarZstd = "tar.zst"
    case tarGzip = "tar.gz"
    case zip

    /// The format a file name's extension names (`.tar.zst`, `.tzst`, `.tar.gz`, `.tgz`, `.zip`), if any.
    public init?(fileName: String) {
        let name = fileName.lowercased()
        if name.hasSuffix(".tar.zst") || name.hasSuffix(".tzst") { self = .tarZstd }
        else if name.hasSuffix(".tar.gz") || name.hasSuffix(".tgz") { self = .tarGzip }
        else if name.hasSuffix(".zip") { self = .zip }
        else { return nil }
    }

    /// The file name without the format's extension.
    public static func stem(of fileName: String) -> String {
        let lowered = fileName.lowercased()
        for suffix in [".tar.zst", ".tzst", ".tar.gz", ".tgz", ".zip"] where lowered.hasSuffix(suffix) {
            return String(fileName.dropLast(suffix.count))
        }
        return (fileName as NSString).deletingPathExtension
    }
}

/// Writes a deterministic archive: every entry a regular file with the same owner (0), mode
/// (0644) and modification time, no timestamps in compression headers, so the same files
/// give the same bytes.
///
/// For example:
/// ```swift
/// let writer = try ArchiveWriter(path: "out.tar.zst", format: .tarZstd, modificationTime: 0)
/// try writer.addFile(named: "bag/bagit.txt", from: "/tmp/stage/bagit.txt")
/// try writer.finish()
/// ```
public final class ArchiveWriter {
    public let path: String
    private let archive: OpaquePointer
    private let output: ArchiveOutput
    private let modificationTime: Int
    private var finished = false

    public init(path: String, format: ArchiveFormat, modificationTime: Int) throws(ArchiveError) {
        _ = LibArchive.localeReady
        self.path = path
        self.modificationTime = modificationTime
        output = try ArchiveOutput(path: path)
        guard let archive = archive_write_new() else { throw ArchiveError(path: path, reason: "out of memory") }
        self.archive = archive
        var status: Int32
        switch format {
        case .tarZstd:
            status = archive_write_set_format_pax_restricted(archive)
            if status == LibArchive.ok { status = archive_write_add_filter_zstd(archive) }
            // zstd compresses on worker threads while this one reads the next file. Its streamed
            // output is the same for any number of workers from 1 up (1, 2 and 4 measured
            // identical at levels 3 and 1), so bundles stay byte-identical across machines; 0
            // workers would not be.
            // A libzstd built without threads refuses the option and compresses here instead.
            if status == LibArchive.ok {
                _ = archive_write_set_filter_option(archive, "zstd", "threads", String(Self.compressionWorkers))
            }
            // Level 1, not libarchive's 3: faster and no larger on bags (Formats/performance.md).
            if status == LibArchive.ok {
                status = archive_write_set_filter_option(archive, "zstd", "compression-level", String(Self.compressionLevel))
            }
        case .tarGzip:
            status = archive_write_set_format_pax_restricted(archive)
            if status == LibArchive.ok { status = archive_write_add_filter_gzip(archive) }
            // libarchive writes the current time into the gzip header unless told not to.
            if status == LibArchive.ok { status = archive_write_set_filter_option(archive, "gzip", "timestamp", nil) }
        case .zip:
            status = archive_write_set_format_zip(archive)
        }
        if status == LibArchive.ok {
            // No padding to 10 KiB records: the archive ends right after its end-of-archive blocks.
            status = archive_write_set_bytes_in_last_block(archive, 1)
        }
        if status == LibArchive.ok {
            status = archive_write_open2(archive, Unmanaged.passUnretained(output).toOpaque(), nil, ArchiveOutput.callback, nil, nil)
        }
        // A throw from here on runs deinit, which frees the archive: do not free it here too.
        guard status == LibArchive.ok else {
            throw ArchiveError(path: path, reason: LibArchive.message(archive))
        }
    }

    static let compressionLevel = 1

    /// One zstd worker per core, at most four: more gain nothing on an archive this size.
    static let compressionWorkers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 4))

    deinit {
        if !finished { archive_write_fail(archive) }
        archive_write_free(archive)
    }

    /// Adds the file at `source` under `name`, streaming its bytes.
    /// - Parameter chunks: shown each chunk as it goes in (to hash it, or count it).
    public func addFile(named name: String, from source: String, chunks: ((UnsafeRawBufferPointer) -> Void)? = nil) throws(ArchiveError) {
        let descriptor = open(source, O_RDONLY)
        guard descriptor >= 0 else { throw ArchiveError(path: source, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw ArchiveError(path: source, reason: String(cString: strerror(errno))) }
        try writeHeader(name: name, size: Int64(status.st_size))
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        var remaining = Int64(status.st_size)
        while remaining > 0 {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else {
                throw ArchiveError(path: source, reason: count == 0 ? "the file shrank while being archived" : String(cString: strerror(errno)))
            }
            let used = min(count, Int(remaining))
            try writeData(buffer, count: used, entry: name)
            remaining -= Int64(count)
            if let chunks { buffer.withUnsafeBytes { chunks(UnsafeRawBufferPointer(rebasing: $0[0..<used])) } }
        }
    }

    /// Adds `bytes` under `name`.
    public func addFile(named name: String, bytes: [UInt8]) throws(ArchiveError) {
        try writeHeader(name: name, size: Int64(bytes.count))
        if !bytes.isEmpty { try writeData(bytes, count: bytes.count, entry: name) }
    }

    /// Writes the archive's end; the file is complete only after this returns.
    /// - Returns: the SHA-256 of the whole file, for ``ArchiveSeal/seal(_:format:digest:)``.
    @discardableResult
    public func finish() throws(ArchiveError) -> [UInt8] {
        finished = true
        guard archive_write_close(archive) == LibArchive.ok else { throw error() }
        return output.digest
    }

    /// The write's own reason when the file system refused bytes, else libarchive's message.
    private func error(entry: String? = nil) -> ArchiveError {
        ArchiveError(path: path, entry: entry, reason: output.failure ?? LibArchive.message(archive))
    }

    private func writeHeader(name: String, size: Int64) throws(ArchiveError) {
        guard let entry = archive_entry_new() else { throw ArchiveError(path: path, entry: name, reason: "out of memory") }
        defer { archive_entry_free(entry) }
        archive_entry_set_pathname_utf8(entry, name)
        archive_entry_set_filetype(entry, FERRY_AE_IFREG)
        archive_entry_set_perm(entry, 0o644)
        archive_entry_set_size(entry, size)
        archive_entry_set_mtime(entry, modificationTime, 0)
        archive_entry_set_uid(entry, 0)
        archive_entry_set_gid(entry, 0)
        guard archive_write_header(archive, entry) == LibArchive.ok else {
            throw error(entry: name)
        }
    }

    private func writeData(_ bytes: [UInt8], count: Int, entry: String) throws(ArchiveError) {
        let written = bytes.withUnsafeBytes { archive_write_data(archive, $0.baseAddress, count) }
        guard written == count else { throw error(entry: entry) }
    }
}
