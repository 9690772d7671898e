import GRDB
import GRDBSQLite

/// A row's value ready to bind straight through SQLite's C API: text and blobs as bytes of a
/// buffer that outlives the statement's step, so that SQLite copies nothing (`SQLITE_STATIC`).
/// Millions of rows go in so (a conversion's logs, `load`'s records); GRDB's
/// `StatementArguments` boxed every value in an existential first.
public enum BoundValue: Sendable {
    case null
    case integer(Int64)
    case real(Double)
    /// Bytes of the buffer the values are bound from.
    case text(start: Int, count: Int)
    case blob(start: Int, count: Int)

    /// SQLite's `SQLITE_TRANSIENT`: it copies the bytes bound before the call returns.
    public static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Binds `values` to the statement's parameters 1, 2, …, their text and blobs read from `bytes`.
    /// - Returns: the first code that is not `SQLITE_OK`.
    public static func bind(_ values: ArraySlice<BoundValue>, from bytes: UnsafeBufferPointer<UInt8>, to statement: SQLiteStatement) -> Int32 {
        var index: Int32 = 0
        for value in values {
            index += 1
            let code: Int32
            switch value {
            case .null: code = sqlite3_bind_null(statement, index)
            case .integer(let integer): code = sqlite3_bind_int64(statement, index, integer)
            case .real(let real): code = sqlite3_bind_double(statement, index, real)
            case .text(let start, let count):
                // A zero-length value needs a pointer that is not NULL, or SQLite stores NULL.
                code = count == 0
                    ? sqlite3_bind_text(statement, index, "", 0, transient)
                    : bytes.baseAddress!.advanced(by: start).withMemoryRebound(to: CChar.self, capacity: count) {
                        sqlite3_bind_text(statement, index, $0, Int32(count), nil)
                    }
            case .blob(let start, let count):
                code = count == 0
                    ? sqlite3_bind_zeroblob(statement, index, 0)
                    : sqlite3_bind_blob(statement, index, bytes.baseAddress!.advanced(by: start), Int32(count), nil)
            }
            if code != SQLITE_OK { return code }
        }
        return SQLITE_OK
    }
}
