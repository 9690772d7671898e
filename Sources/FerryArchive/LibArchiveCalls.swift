import CLibArchive
import Foundation

/// What every call into libarchive shares: its status codes and messages turned into
/// ``ArchiveError``, and the locale it needs. `ArchiveReader` and `ArchiveWriter` make the calls
/// themselves (libarchive is this target's one job) and come here for the error text and the
/// entries' types and names.
enum LibArchive {
    /// libarchive 3.6.2 converts entry names through the C locale and crashes on non-ASCII names
    /// under the "C" locale (libarchive issue 2233): switch to UTF-8 once, before any archive call.
    static let localeReady: Bool = {
        setlocale(LC_CTYPE, "C.UTF-8") != nil || setlocale(LC_CTYPE, "en_US.UTF-8") != nil
    }()

    static func message(_ archive: OpaquePointer?) -> String {
        guard let archive, let text = archive_error_string(archive) else { return "unknown libarchive error" }
        return String(cString: text)
    }

    static let ok = ARCHIVE_OK, eof = ARCHIVE_EOF, warn = ARCHIVE_WARN, retry = ARCHIVE_RETRY

    static func entryType(_ entry: OpaquePointer) -> ArchiveEntry.Kind {
        let type = UInt32(archive_entry_filetype(entry))
        switch type {
        case FERRY_AE_IFREG: return archive_entry_hardlink(entry) != nil ? .hardLink : .regular
        case FERRY_AE_IFDIR: return .directory
        case FERRY_AE_IFLNK: return .symbolicLink
        case FERRY_AE_IFIFO: return .fifo
        case FERRY_AE_IFCHR, FERRY_AE_IFBLK: return .device
        case FERRY_AE_IFSOCK: return .socket
        default: return archive_entry_hardlink(entry) != nil ? .hardLink : .other(type)
        }
    }

    static func entryPath(_ entry: OpaquePointer) -> String? {
        if let utf8 = archive_entry_pathname_utf8(entry) { return String(cString: utf8) }
        if let raw = archive_entry_pathname(entry) { return String(cString: raw) }
        return nil
    }
}
