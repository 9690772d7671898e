@testable import FerryCoreData
import GRDB
import Testing

/// ``RowBatchPlayer`` writes rows that follow one another by the same statement 32 at a time.
@Suite struct RowBatchPlayerTests {
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

    @Test func everyRowGoesInWithItsValues() throws {
        try DatabaseQueue().writeWithoutTransaction { db in
            try db.execute(sql: "CREATE TABLE t (n INTEGER PRIMARY KEY, name TEXT UNIQUE)")
            var player = player()
            try player.play(batch { "name \($0)" }, db: db)
            try player.play(batch { "again \($0)" }.shifted(by: 100), db: db)
            let rows = try Row.fetchAll(db, sql: "SELECT n, name FROM t ORDER BY n")
            #expect(rows.map { $0[0] as Int } == Array(1...200))
            #expect(rows.map { $0[1] as String } == (1...100).map { "name \($0)" } + (1...100).map { "again \($0)" })
        }
    }

    /// Where SQLite refuses one row of 32 that go together, the rows before it are written, it is
    /// the row named, and none after it is written, as when each row went alone.
    @Test func aRowRefusedAmongRowsThatGoTogetherIsTheOneNamed() throws {
        try DatabaseQueue().writeWithoutTransaction { db in
            try db.execute(sql: "CREATE TABLE t (n INTEGER PRIMARY KEY, name TEXT UNIQUE)")
            var player = player()
            let refused = try #require(throws: RowBatchPlayer.Refused.self) {
                try player.play(batch { $0 == 70 ? "name 3" : "name \($0)" }, db: db)
            }
            #expect(refused.entry == 1070)
            #expect(refused.message.contains("UNIQUE constraint failed: t.name"), "\(refused.message)")
            #expect(try Int.fetchAll(db, sql: "SELECT n FROM t ORDER BY n") == Array(1...69))
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
