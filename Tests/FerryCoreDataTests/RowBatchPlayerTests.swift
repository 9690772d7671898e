@testable import FerryCoreData
import GRDB
import GRDBSQLite
import Testing

/// ``RowBatchPlayer`` writes rows that follow one another by the same statement 32 at a time.
@Suite struct RowBatchPlayerTests {
    /// Rows 1…100, the first 50 by statement 0 and the rest by statement 1.
    func batch(_ names: (Int) -> String) -> RowBatch {
        var batch = RowBatch()
        for number in 1...100 {
            let base = batch.begin(entry: 1000 + number, statement: number <= 50 ? 0 : 1, columns: 2)
            batch.values[base] = .integer(Int64(number))
            batch.set(base + 1, .text(names(number)))
        }
        return batch
    }

    /// Two statements of the same SQL: a run of rows that go together ends where the statement changes (row 51).
    func player() -> RowBatchPlayer {
        RowBatchPlayer(sql: Array(repeating: "INSERT INTO t (n, name) VALUES (?, ?)", count: 2))
    }

    /// The statements SQLite ran that insert several rows.
    final class ManyRows: @unchecked Sendable {
        var count = 0
    }

    func table(_ db: Database) throws -> ManyRows {
        try db.execute(sql: "CREATE TABLE t (n INTEGER PRIMARY KEY, name TEXT UNIQUE)")
        let many = ManyRows()
        db.trace { if "\($0)".contains("), (") { many.count += 1 } }
        return many
    }

    /// 100 rows: 1–32 together, 33–50 alone (the statement changes at 51), 51–82 together, 83–100 alone.
    @Test func everyRowGoesInWithItsValues() throws {
        try DatabaseQueue().inDatabase { db in
            let many = try table(db)
            var player = player()
            try player.play(batch { "name \($0)" }, db: db)
            try player.play(batch { "again \($0)" }.shifted(by: 100), db: db)
            let rows = try Row.fetchAll(db, sql: "SELECT n, name FROM t ORDER BY n")
            #expect(rows.map { $0[0] as Int } == Array(1...200))
            #expect(rows.map { $0[1] as String } == (1...100).map { "name \($0)" } + (1...100).map { "again \($0)" })
            #expect(many.count == 4)
        }
    }

    /// Where 32 rows' values are more parameters than SQLite takes, every row goes alone.
    @Test func rowsGoAloneBeyondSQLitesParameterLimit() throws {
        try DatabaseQueue().inDatabase { db in
            let many = try table(db)
            let connection = try #require(db.sqliteConnection)
            sqlite3_limit(connection, SQLITE_LIMIT_VARIABLE_NUMBER, 63)
            var player = player()
            try player.play(batch { "name \($0)" }, db: db)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM t") == 100)
            #expect(many.count == 0)
        }
    }

    /// Where SQLite refuses one row of 32 that go together (the first, one inside, the last), the
    /// rows before it are written, it is the row named, and none after it is written, as when
    /// each row went alone.
    @Test(arguments: [51, 70, 82])
    func aRowRefusedAmongRowsThatGoTogetherIsTheOneNamed(_ bad: Int) throws {
        try DatabaseQueue().inTransaction { db in
            _ = try table(db)
            var player = player()
            let refused = try #require(throws: RowBatchPlayer.Refused.self) {
                try player.play(batch { $0 == bad ? "name 3" : "name \($0)" }, db: db)
            }
            #expect(refused.entry == 1000 + bad)
            #expect(refused.message.contains("UNIQUE constraint failed: t.name"), "\(refused.message)")
            #expect(try Int.fetchAll(db, sql: "SELECT n FROM t ORDER BY n") == Array(1..<bad))
            return .rollback
        }
    }

    /// A full disk is SQLite's to report, as it was with one row at a time.
    @Test func aFullDiskIsReported() throws {
        let queue = try DatabaseQueue()
        try queue.inDatabase { db in
            _ = try table(db)
            try db.execute(sql: "PRAGMA max_page_count = 3; BEGIN")
            var player = player()
            let refused = try #require(throws: RowBatchPlayer.Refused.self) {
                try player.play(batch { "name \($0) " + String(repeating: "x", count: 500) }, db: db)
            }
            #expect(refused.message.contains("full"), "\(refused.message)")
            #expect((1001...1100).contains(refused.entry))
        }
    }
}

private extension RowBatch {
    /// The same rows with their first value (the key) moved up.
    func shifted(by offset: Int64) -> RowBatch {
        var copy = self
        for row in copy.rows {
            let start = row.end - 2
            if case .integer(let key) = copy.values[start] { copy.values[start] = .integer(key + offset) }
        }
        return copy
    }
}
