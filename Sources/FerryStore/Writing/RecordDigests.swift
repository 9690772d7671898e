import FerryCanonical
import Foundation
import GRDB
import GRDBSQLite

/// The digests of records' rows kept in the store (`ferry_record_digest`, schema v3). Converting
/// into a store that holds a record, the digest of the rows it would write is compared with the
/// one kept, and the record is written only when they differ: converting the same input again
/// reads it and writes nearly nothing.
///
/// They are trusted only while the file's change counter is the one the last conversion left
/// (SQLite adds one at every commit that changes the file, in a rollback journal's modes): a
/// store changed since by anything else (an import, `sqlite3`, an app) or in WAL mode (whose
/// commits leave the counter alone) has them all forgotten, and every record it holds is written
/// again, as before there were digests.
enum RecordDigests {
    /// The tables whose records are digested, by the number `ferry_record_digest` keeps.
    enum Table: Int, CaseIterable {
        case recipe = 1, project = 2, log = 3

        var name: String {
            switch self {
            case .recipe: RecipeTable.table
            case .project: ProjectTable.table
            case .log: LogTable.table
            }
        }

        /// SQL for the rowid of the record whose id is `id` (a parameter or a column).
        func rowid(ofID id: String) -> String {
            "SELECT rowid FROM \(name) WHERE \(SharedColumns.id) = \(id)"
        }
    }

    static func table(named name: String) -> Table? {
        Table.allCases.first { $0.name == name }
    }

    /// What the store holds of a record.
    enum Stored: Equatable {
        case absent
        /// Its row, and the digest of its rows when one is kept.
        case present(row: Int64, digest: Int64?)
    }

    /// Forgets the digests unless the file is as the last conversion left it. Called in the
    /// session's transaction, once it has read (SQLite's shared lock is held).
    /// - Returns: the change counter the file will have once this session commits; nil when the
    ///   file's header cannot say (WAL mode), and the digests this session keeps are forgotten by the next.
    static func begin(_ db: Database) throws -> Int64? {
        let stamp = try Int64.fetchOne(db, sql: "SELECT change_counter FROM ferry_record_digest_stamp")
        guard let header = try header(db), !header.wal else {
            try forgetAll(db)
            return nil
        }
        if stamp != Int64(header.counter) { try forgetAll(db) }
        // The counter is four bytes and wraps; the commit adds one.
        return Int64(header.counter &+ 1)
    }

    /// The file change counter (header bytes 24–27, which SQLite adds one to at every commit that
    /// changes the file in a rollback journal's modes) and whether the file is in WAL mode (bytes
    /// 18–19 are 2; WAL commits leave the counter as it was). Read through SQLite's own handle of
    /// the file: a descriptor of our own, closed, would drop every POSIX lock the process holds
    /// on it, SQLite's included.
    private static func header(_ db: Database) throws -> (counter: UInt32, wal: Bool)? {
        guard let connection = db.sqliteConnection else { return nil }
        var file: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite3_file_control(connection, "main", SQLITE_FCNTL_FILE_POINTER, &file) == SQLITE_OK,
              let file, let read = file.pointee.pMethods?.pointee.xRead else { return nil }
        var bytes = [UInt8](repeating: 0, count: 28)
        let code = bytes.withUnsafeMutableBytes { read(file, $0.baseAddress, 28, 0) }
        guard code == SQLITE_OK else { return nil }
        return (bytes[24..<28].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }, bytes[18] == 2 || bytes[19] == 2)
    }

    /// For a change of Ferry's own that leaves every digested row as it was (a migration that
    /// rebuilds tables with their rows and rowids): the counter to stamp the digests with so that
    /// they stay trusted after its commit, when they were true for the file as it was; nil when
    /// they were not. Called in that change's transaction before anything is written (the file's
    /// header is still the last commit's).
    static func counterKeepingThemTrusted(_ db: Database) throws -> Int64? {
        let stamped = try Int64.fetchOne(db, sql: "SELECT change_counter FROM ferry_record_digest_stamp")
        guard let header = try header(db), !header.wal, stamped == Int64(header.counter) else { return nil }
        return Int64(header.counter &+ 1)
    }

    /// Says which change counter the digests are true for; in the session's transaction.
    static func stamp(_ db: Database, counter: Int64?) throws {
        try db.execute(sql: "DELETE FROM ferry_record_digest_stamp")
        guard let counter else { return }
        try db.execute(sql: "INSERT INTO ferry_record_digest_stamp (change_counter) VALUES (?)", arguments: [counter])
    }

    /// Forgets every digest: a store that comes from elsewhere (a bundle's, a backup restored),
    /// whose digests say nothing Ferry can hold its rows to.
    static func forgetAll(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM ferry_record_digest; DELETE FROM ferry_record_digest_stamp")
    }

    /// A part table's owner column, the record whose digest covers the part, and SQL for that
    /// record's rowid from the part's old row.
    private typealias Owner = (column: CanonicalColumn, record: Table, rowid: String)

    /// Parts whose id comes from the input, by table, with every column that can own them.
    private static let ownedParts: [(table: String, owners: [Owner])] = {
        func own(_ column: CanonicalColumn, _ record: Table) -> Owner { (column, record, record.rowid(ofID: "old.\(column)")) }
        // A material line of a step belongs to the step's recipe or project.
        func ofStep(_ column: CanonicalColumn, _ record: Table, steps: String, stepOwner: CanonicalColumn) -> Owner {
            (column, record, """
                SELECT r.rowid FROM \(record.name) r JOIN \(steps) s ON s.\(stepOwner) = r.\(SharedColumns.id)
                WHERE s.\(SharedColumns.id) = old.\(column)
                """)
        }
        return [
            (RecipeStepTable.table, [own(RecipeStepTable.recipeID, .recipe)]),
            (ProjectStepTable.table, [own(ProjectStepTable.projectID, .project)]),
            (MaterialLineTable.table, [own(MaterialLineTable.recipeID, .recipe),
                                       ofStep(MaterialLineTable.recipeStepID, .recipe, steps: RecipeStepTable.table, stepOwner: RecipeStepTable.recipeID),
                                       own(MaterialLineTable.projectID, .project),
                                       ofStep(MaterialLineTable.projectStepID, .project, steps: ProjectStepTable.table, stepOwner: ProjectStepTable.projectID),
                                       own(MaterialLineTable.logID, .log)]),
            (ReferenceLinkTable.table, [own(ReferenceLinkTable.recipeID, .recipe), own(ReferenceLinkTable.projectID, .project)]),
            (AttachmentTable.table, [own(AttachmentTable.recipeID, .recipe), own(AttachmentTable.projectID, .project), own(AttachmentTable.logID, .log)]),
        ]
    }()

    /// Parts whose id comes from the input (a step, a material line, a link, an attachment) are
    /// upserted by it: a record may take over a part another record held, whose rows then are no
    /// longer the ones its digest was taken of. For the session, a temporary trigger on each
    /// such table forgets the former owner's digest when a part changes owner.
    static func watchPartsChangingOwner(_ db: Database) throws {
        for (table, owners) in ownedParts {
            let moved = owners.map { "old.\($0.column) IS NOT new.\($0.column)" }.joined(separator: " OR ")
            let forget = owners.map { "DELETE FROM ferry_record_digest WHERE record_table = \($0.record.rawValue) AND row IN (\($0.rowid));" }
            try db.execute(sql: """
                CREATE TEMP TRIGGER IF NOT EXISTS ferry_forget_owner_of_\(table) AFTER UPDATE ON main.\(table) WHEN \(moved)
                BEGIN
                \(forget.joined(separator: "\n"))
                END
                """)
        }
    }

    /// Drops the session's triggers (``watchPartsChangingOwner(_:)``).
    static func stopWatching(_ db: Database) throws {
        for (table, _) in ownedParts {
            try db.execute(sql: "DROP TRIGGER IF EXISTS temp.ferry_forget_owner_of_\(table)")
        }
    }

    /// Forgets one record's digest: its rows were changed after it was taken (a link settled late).
    static func forget(_ table: Table, id: String, db: Database) throws {
        try db.cachedStatement(sql: """
            DELETE FROM ferry_record_digest WHERE record_table = \(table.rawValue) AND row = (\(table.rowid(ofID: "?")))
            """).execute(arguments: [id])
    }

    /// The record `id` of `table` as the store holds it: one lookup of its key.
    static func stored(_ table: Table, id: String, db: Database) throws -> Stored {
        let statement = try db.cachedStatement(sql: """
            SELECT t.rowid, d.digest FROM \(table.name) t
            LEFT JOIN ferry_record_digest d ON d.record_table = \(table.rawValue) AND d.row = t.rowid
            WHERE t.\(SharedColumns.id) = ?
            """).sqliteStatement
        defer { sqlite3_reset(statement) }
        let bound = sqlite3_bind_text(statement, 1, id, -1, RowPlayer.transient)
        guard bound == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: bound), message: "binding a record's id") }
        switch sqlite3_step(statement) {
        case SQLITE_ROW:
            let digest = sqlite3_column_type(statement, 1) == SQLITE_NULL ? nil : sqlite3_column_int64(statement, 1)
            return .present(row: sqlite3_column_int64(statement, 0), digest: digest)
        case SQLITE_DONE:
            return .absent
        case let code:
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: db.sqliteConnection.map { String(cString: sqlite3_errmsg($0)) })
        }
    }

    /// ``stored(_:id:db:)`` of many records, looked up in the order of their keys, where one
    /// lookup finds the pages the one before read: in the input's order, a million random UUIDs
    /// went to a page of the key's index that was rarely the page cache's.
    /// - Returns: what the store holds of each, in the order of `ids`.
    static func storedInKeyOrder(_ table: Table, ids: [String], db: Database) throws -> [Stored] {
        var stored = [Stored](repeating: .absent, count: ids.count)
        // The key's index orders its text byte by byte, as `String` orders canonical UUIDs.
        for index in ids.indices.sorted(by: { ids[$0] < ids[$1] }) {
            stored[index] = try Self.stored(table, id: ids[index], db: db)
        }
        return stored
    }

    /// The row keeping a record's digest, its row found by its id (columns: id, digest).
    static let byID = Dictionary(uniqueKeysWithValues: Table.allCases.map { table in
        (table, UpsertShape("ferry_record_digest", [SharedColumns.id.name, "digest"], sql: """
            INSERT INTO ferry_record_digest (record_table, row, digest)
            VALUES (\(table.rawValue), (\(table.rowid(ofID: "?"))), ?)
            ON CONFLICT (record_table, row) DO UPDATE SET digest = excluded.digest
            """))
    })

    /// The same for a log or recipe just inserted by a plain INSERT into a store that was empty
    /// (for a log, one whose key is built after the rows, ``CanonicalStore/session(report:keepGoing:run:_:)``):
    /// it is the last row of its table, and a row no digest was kept for (the session began by
    /// forgetting them all): a plain insert, without the statement journal an upsert opens. Nil
    /// for projects, which are upserted.
    static func ofLast(_ table: Table) -> UpsertShape? {
        switch table {
        case .log: ofLastLog
        case .recipe: ofLastRecipe
        case .project: nil
        }
    }

    private static let ofLastLog = lastRow(of: .log)
    private static let ofLastRecipe = lastRow(of: .recipe)

    private static func lastRow(of table: Table) -> UpsertShape {
        UpsertShape("ferry_record_digest", ["digest"], sql: """
            INSERT INTO ferry_record_digest (record_table, row, digest)
            VALUES (\(table.rawValue), (SELECT max(rowid) FROM \(table.name)), ?)
            """)
    }
}
