import FerrySystem

/// Whether a file is an SQLite database by its first bytes ("SQLite format 3\0"), the way
/// SQLite itself tells: read, never opened as a database. False for a folder, a short file, or
/// one that cannot be read (whoever then opens it meets the real error).
public enum SQLiteHeader {
    public static func starts(_ path: String) -> Bool {
        header(path, count: 16) != nil
    }

    /// The file's first `count` bytes when there are as many and they start as SQLite's do.
    private static func header(_ path: String, count: Int) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: count)
        let read = header.withUnsafeMutableBytes { SystemCall.readFully(descriptor, into: $0) }
        guard read == count, header[0..<16].elementsEqual("SQLite format 3\0".utf8) else { return nil }
        return header
    }

    /// What an SQLite file's header says of how the file is laid out, read without SQLite's
    /// locks (a hint, to be checked again by whatever opens the file); nil for a file that cannot
    /// be read or is not SQLite.
    public static func layout(_ path: String) -> Layout? {
        guard let header = header(path, count: 72) else { return nil }
        func number(_ range: Range<Int>) -> UInt32 { header[range].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }
        return Layout(pageSize: number(16..<18), walMode: header[18] == 2 || header[19] == 2, reservedBytes: header[20],
                      autoVacuum: number(52..<56) != 0, incrementalVacuum: number(64..<68) != 0,
                      userVersion: number(60..<64), applicationID: number(68..<72))
    }

    /// The header's fields that say how a database file is kept (https://sqlite.org/fileformat.html).
    public struct Layout: Equatable, Sendable {
        /// 1 stands for 65,536.
        public var pageSize: UInt32
        /// Bytes 18 and 19 (the read and write versions) say 2.
        public var walMode: Bool
        public var reservedBytes: UInt8
        public var autoVacuum: Bool
        public var incrementalVacuum: Bool
        public var userVersion: UInt32
        public var applicationID: UInt32
    }
}
