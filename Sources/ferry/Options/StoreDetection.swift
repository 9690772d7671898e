import FerryFiles

/// Tells stores from models by content: an SQLite file starts with "SQLite format 3\0".
enum StoreDetection {
    static func isSQLite(_ path: String) -> Bool { SQLiteHeader.starts(path) }
}
