import FerryCanonical
import Foundation
import GRDB
import GRDBSQLite

/// Claimed ids past what a conversion holds in memory, in a private temporary SQLite file that
/// SQLite deletes when it is closed, whatever the conversion's end. It is not a table of the
/// store's transaction because the conversion reads its inputs on its own thread while the
/// store's thread writes (``BatchPipeline``). One thread uses it at a time: the one converting.
package final class ClaimFile: ClaimLedger, @unchecked Sendable {
    private var connection: OpaquePointer?
    private var insert: OpaquePointer?
    private var select: OpaquePointer?

    package init() {}

    deinit {
        sqlite3_finalize(insert)
        sqlite3_finalize(select)
        sqlite3_close_v2(connection)
    }

    package func keep(_ claims: [ClaimedID]) throws {
        let (connection, insert) = try opened()
        try execute(connection, "BEGIN")
        // In key order (as the protocol asks) the b-tree is appended to rather than split at random places.
        for claim in claims {
            sqlite3_bind_text(insert, 1, claim.table, -1, RowPlayer.transient)
            sqlite3_bind_int64(insert, 2, Int64(bitPattern: claim.high))
            sqlite3_bind_int64(insert, 3, Int64(bitPattern: claim.low))
            sqlite3_bind_int64(insert, 4, Int64(claim.file))
            sqlite3_bind_int64(insert, 5, Int64(claim.record))
            let code = sqlite3_step(insert)
            sqlite3_reset(insert)
            guard code == SQLITE_DONE else { throw failure(connection, code) }
        }
        try execute(connection, "COMMIT")
    }

    package func firstClaim(table: String, high: UInt64, low: UInt64) throws -> (file: UInt32, record: UInt32)? {
        guard let connection, let select else { return nil }
        defer { sqlite3_reset(select) }
        sqlite3_bind_text(select, 1, table, -1, RowPlayer.transient)
        sqlite3_bind_int64(select, 2, Int64(bitPattern: high))
        sqlite3_bind_int64(select, 3, Int64(bitPattern: low))
        switch sqlite3_step(select) {
        case SQLITE_ROW:
            return (UInt32(truncatingIfNeeded: sqlite3_column_int64(select, 0)), UInt32(truncatingIfNeeded: sqlite3_column_int64(select, 1)))
        case SQLITE_DONE:
            return nil
        case let code:
            throw failure(connection, code)
        }
    }

    /// The file is made on the first spill: most conversions never need it.
    private func opened() throws -> (OpaquePointer, OpaquePointer) {
        if let connection, let insert { return (connection, insert) }
        var handle: OpaquePointer?
        // An empty name is SQLite's private temporary file, removed when closed.
        let code = sqlite3_open_v2("", &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        guard code == SQLITE_OK, let handle else {
            defer { sqlite3_close_v2(handle) }
            throw failure(handle, code)
        }
        connection = handle
        try execute(handle, """
            PRAGMA page_size = \(CanonicalStore.pageSize); PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -8192;
            CREATE TABLE claim (tbl TEXT NOT NULL, high INTEGER NOT NULL, low INTEGER NOT NULL,
              file INTEGER NOT NULL, record INTEGER NOT NULL, PRIMARY KEY (tbl, high, low)) WITHOUT ROWID;
            """)
        insert = try prepare(handle, "INSERT INTO claim VALUES (?, ?, ?, ?, ?)")
        select = try prepare(handle, "SELECT file, record FROM claim WHERE tbl = ? AND high = ? AND low = ?")
        return (handle, insert!)
    }

    private func prepare(_ connection: OpaquePointer, _ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(connection, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw failure(connection, code) }
        return statement
    }

    private func execute(_ connection: OpaquePointer, _ sql: String) throws {
        let code = sqlite3_exec(connection, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw failure(connection, code) }
    }

    private func failure(_ connection: OpaquePointer?, _ code: Int32) -> DatabaseError {
        let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open a temporary file"
        return DatabaseError(resultCode: ResultCode(rawValue: code), message: "claimed ids (temporary file): \(message)")
    }
}
