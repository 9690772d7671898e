import FerrySystem

/// Whether a file is an SQLite database by its first bytes ("SQLite format 3\0"), the way
/// SQLite itself tells: read, never opened as a database. False for a folder, a short file, or
/// one that cannot be read (whoever then opens it meets the real error).
public enum SQLiteHeader {
    public static func starts(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: 16)
        let read = header.withUnsafeMutableBytes { SystemCall.readFully(descriptor, into: $0) }
        return read == 16 && header == Array("SQLite format 3\0".utf8)
    }
}
