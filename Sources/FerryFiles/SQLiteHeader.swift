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

    /// What a database's header says of its last commit: the file change counter (offset 24),
    /// which SQLite adds one to at every commit that changes the file in a rollback journal's
    /// modes, and whether the file is in WAL mode (offsets 18 and 19 are 2), whose commits leave
    /// the counter as it was. Nil when the header cannot be read.
    public static func changeCounter(_ path: String) -> (counter: UInt32, wal: Bool)? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: 28)
        let read = header.withUnsafeMutableBytes { SystemCall.readFully(descriptor, into: $0) }
        guard read == 28 else { return nil }
        let counter = header[24..<28].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return (counter, header[18] == 2 || header[19] == 2)
    }
}
