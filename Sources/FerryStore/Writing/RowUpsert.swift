import FerryJSON
import Foundation
import GRDB
import GRDBSQLite

/// The SQL of one kind of upsert: a table, its columns in binding order, and the key that
/// decides a conflict. Shapes are made once (they are static), so that writing a row builds no
/// SQL and no strings.
final class UpsertShape: Sendable {
    let table: String
    let columns: [String]
    let sql: String
    /// For tables whose rows many records share: the position of the key, to count each row once.
    let sharedKeyIndex: Int32?
    /// The schema's CHECK of each column, in binding order (``ColumnRules``).
    let rules: [ColumnRule?]

    /// - Parameter conflict: the key that decides a conflict; nil for a plain insert.
    init(_ table: String, _ columns: [String], conflict: [String]? = ["id"], shared: Bool = false) {
        self.table = table
        self.columns = columns
        let insert = "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
        if let conflict {
            let updates = columns.filter { !conflict.contains($0) }.map { "\($0) = excluded.\($0)" }
            sql = insert + " ON CONFLICT(\(conflict.joined(separator: ", "))) DO "
                + (updates.isEmpty ? "NOTHING" : "UPDATE SET \(updates.joined(separator: ", "))")
        } else {
            sql = insert
        }
        precondition(!shared || conflict?.count == 1, "a shared table is counted by a one-column key")
        sharedKeyIndex = shared ? conflict.flatMap { columns.firstIndex(of: $0[0]) }.map { Int32($0 + 1) } : nil
        let tableRules = ColumnRules.byTable[table.replacingOccurrences(of: "temp.", with: "")] ?? [:]
        rules = columns.map { tableRules[$0] }
        // A row names exactly one owner: the columns it leaves out are NULL.
        precondition(ColumnRules.owners[table].map { owners in columns.filter(owners.contains).count == 1 } ?? true,
                     "\(table): a shape binds exactly one owner column")
    }
}

/// Binds one row's values in the shape's column order, straight through SQLite's C API: a
/// conversion writes millions of rows, and GRDB's `StatementArguments` boxes every value in an
/// existential first (a fifth of the conversion's time when measured). Each value names its
/// column, and debug builds check the name against the shape, so the order cannot drift.
///
/// Text is gathered into one buffer that outlives the statement's step and bound from there
/// (`SQLITE_STATIC`), so that SQLite does not allocate and copy every value again.
struct RowBinder {
    private let statement: SQLiteStatement
    private let shape: UpsertShape
    private(set) var index: Int32 = 0
    private(set) var failure: Int32 = SQLITE_OK
    /// The first value that breaks its column's CHECK, said as SQLite would.
    private(set) var violation: String?
    /// The key of a shared-table row.
    private(set) var key: String?
    /// The row's text, one after another, and where each value's bytes are.
    fileprivate var text: [UInt8] = []
    fileprivate var spans: [(index: Int32, start: Int, count: Int)] = []

    init(statement: SQLiteStatement, shape: UpsertShape) {
        self.statement = statement
        self.shape = shape
    }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private mutating func next(_ column: String) {
        index += 1
        assert(Int(index) <= shape.columns.count && shape.columns[Int(index) - 1] == column,
               "\(shape.table): value for \(column) bound at position \(index)")
    }

    private mutating func check(_ code: Int32) {
        if code != SQLITE_OK, failure == SQLITE_OK { failure = code }
    }

    mutating func add(_ column: String, _ value: String?) {
        next(column)
        guard var value else { return bindNull() }
        if index == shape.sharedKeyIndex { key = value }
        let start = text.count
        value.withUTF8 { text.append(contentsOf: $0) }
        spans.append((index, start, text.count - start))
        if let rule = shape.rules[Int(index) - 1] { enforce(rule, from: start) }
    }

    /// JSON written straight into the row's text by ``JSONWriter``: valid by construction, and no
    /// `String` is made for it.
    mutating func add(_ column: String, json value: JSONValue?) {
        next(column)
        guard let value else { return bindNull() }
        let start = text.count
        JSONWriter.append(value, to: &text)
        spans.append((index, start, text.count - start))
        if let rule = shape.rules[Int(index) - 1], rule != .json { enforce(rule, from: start) }
    }

    private mutating func bindNull() {
        if shape.rules[Int(index) - 1] == .owner { fail(shape.columns[Int(index) - 1], "is NULL; the row needs an owner") }
        check(sqlite3_bind_null(statement, index))
    }

    private mutating func enforce(_ rule: ColumnRule, from start: Int) {
        let reason = text.withUnsafeBufferPointer { ColumnRules.violation(rule, UnsafeBufferPointer(rebasing: $0[start...])) }
        if let reason { fail(shape.columns[Int(index) - 1], reason) }
    }

    private mutating func fail(_ column: String, _ reason: String) {
        guard violation == nil else { return }
        violation = "CHECK constraint failed: \(shape.table).\(column) \(reason)"
        check(SQLITE_CONSTRAINT)
    }

    /// Binds the gathered text; it must stay where it is until the statement has stepped.
    fileprivate mutating func bindText(_ buffer: UnsafeBufferPointer<UInt8>) {
        for span in spans {
            // A zero-length value needs a pointer that is not NULL, or SQLite stores NULL.
            let code = span.count == 0
                ? sqlite3_bind_text(statement, span.index, "", 0, Self.transient)
                : buffer.baseAddress!.advanced(by: span.start).withMemoryRebound(to: CChar.self, capacity: span.count) {
                    sqlite3_bind_text(statement, span.index, $0, Int32(span.count), nil)
                }
            check(code)
        }
    }

    mutating func add(_ column: String, _ value: Int64?) {
        next(column)
        check(value.map { sqlite3_bind_int64(statement, index, $0) } ?? sqlite3_bind_null(statement, index))
    }

    mutating func add(_ column: String, _ value: Int?) {
        add(column, value.map { Int64($0) })
    }

    /// Booleans are stored as 0 and 1.
    mutating func add(_ column: String, _ value: Bool?) {
        add(column, value.map { Int64($0 ? 1 : 0) })
    }

    mutating func add(_ column: String, _ value: Double?) {
        next(column)
        check(value.map { sqlite3_bind_double(statement, index, $0) } ?? sqlite3_bind_null(statement, index))
    }

    mutating func add(_ column: String, _ value: Data) {
        next(column)
        let code = value.withUnsafeBytes { bytes -> Int32 in
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return sqlite3_bind_zeroblob(statement, index, 0) }
            return sqlite3_bind_blob(statement, index, base, Int32(bytes.count), Self.transient)
        }
        check(code)
    }
}

/// Prepared upsert statements by shape, for one connection.
struct UpsertStatements {
    private var prepared: [ObjectIdentifier: Statement] = [:]
    private var text: [UInt8] = []
    private var spans: [(index: Int32, start: Int, count: Int)] = []

    /// Binds one row with `bind` and runs the upsert.
    /// - Returns: the row's key when the shape's table is shared, else nil.
    /// - Throws: `DatabaseError` naming the table and SQLite's message (a constraint, a full disk).
    mutating func run(_ shape: UpsertShape, db: Database, _ bind: (inout RowBinder) -> Void) throws -> String? {
        let statement: Statement
        if let known = prepared[ObjectIdentifier(shape)] { statement = known } else {
            statement = try db.makeStatement(sql: shape.sql)
            prepared[ObjectIdentifier(shape)] = statement
        }
        let handle = statement.sqliteStatement
        var row = RowBinder(statement: handle, shape: shape)
        // The row fills this connection's buffers, emptied but as large as they have grown.
        swap(&row.text, &text)
        swap(&row.spans, &spans)
        bind(&row)
        assert(Int(row.index) == shape.columns.count, "\(shape.table): \(row.index) of \(shape.columns.count) values bound")
        let code = row.text.withUnsafeBufferPointer { buffer in
            row.bindText(buffer)
            let code = row.failure == SQLITE_OK ? sqlite3_step(handle) : row.failure
            // Reset while the text is still there; the next row binds every column anew.
            sqlite3_reset(handle)
            return code
        }
        row.text.removeAll(keepingCapacity: true)
        row.spans.removeAll(keepingCapacity: true)
        swap(&text, &row.text)
        swap(&spans, &row.spans)
        guard code == SQLITE_DONE else {
            let message = row.violation ?? db.sqliteConnection.map { String(cString: sqlite3_errmsg($0)) }
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: shape.sql)
        }
        return row.key
    }
}
