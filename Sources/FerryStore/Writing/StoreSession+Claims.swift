import FerryCanonical
import Foundation
import GRDB

/// Claimed ids past what the conversion holds in memory, in a temporary table of this
/// transaction: it goes with the transaction, whatever its end.
extension StoreSession: ClaimLedger {
    private static let claim = UpsertShape("temp.ferry_claim", ["tbl", "high", "low", "file", "record"], conflict: nil)

    public func keep(_ claims: [ClaimedID]) throws {
        if !claiming {
            try db.execute(sql: """
                CREATE TEMP TABLE IF NOT EXISTS ferry_claim (tbl TEXT NOT NULL, high INTEGER NOT NULL, low INTEGER NOT NULL,
                  file INTEGER NOT NULL, record INTEGER NOT NULL, PRIMARY KEY (tbl, high, low)) WITHOUT ROWID;
                DELETE FROM temp.ferry_claim;
                """)
            claiming = true
        }
        // In key order the b-tree is appended to rather than split at random places.
        for claim in claims.sorted(by: { ($0.table, $0.high, $0.low) < ($1.table, $1.high, $1.low) }) {
            _ = try claimStatements.run(Self.claim, db: db) { row in
                row.add("tbl", claim.table)
                row.add("high", Int64(bitPattern: claim.high))
                row.add("low", Int64(bitPattern: claim.low))
                row.add("file", Int64(claim.file))
                row.add("record", Int64(claim.record))
            }
        }
    }

    public func firstClaim(table: String, high: UInt64, low: UInt64) throws -> (file: UInt32, record: UInt32)? {
        guard claiming else { return nil }
        let statement = try db.cachedStatement(sql: "SELECT file, record FROM temp.ferry_claim WHERE tbl = ? AND high = ? AND low = ?")
        guard let row = try Row.fetchOne(statement, arguments: [table, Int64(bitPattern: high), Int64(bitPattern: low)]) else { return nil }
        return (UInt32(truncatingIfNeeded: row[0] as Int64), UInt32(truncatingIfNeeded: row[1] as Int64))
    }

    /// Drops the ledger at the end of the session.
    func finishClaims() throws {
        guard claiming else { return }
        claimStatements = UpsertStatements()
        try db.execute(sql: "DROP TABLE temp.ferry_claim")
        claiming = false
    }
}
