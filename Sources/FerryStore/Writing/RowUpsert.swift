import FerryJSON
import Foundation
import GRDB
import GRDBSQLite

/// The SQL of one kind of upsert: a table, its columns in binding order, and the key that
/// decides a conflict. Shapes are made once (they are static), so that writing a row builds no
/// SQL and no strings.
class UpsertShape: @unchecked Sendable {
    let table: String
    let columns: [String]
    let sql: String
    /// For tables whose rows many records share: the position of the key, to count each row once.
    let sharedKeyIndex: Int32?
    /// The schema's CHECK of each column, in binding order (``ColumnRules``), where a bind reads
    /// them without touching the shape: each column is bound by a closure of its own
    /// (``TableRow``), and reading a class's array from each retained and released it. Shapes
    /// are made once and never freed (they are static), so neither is this.
    let ruleBuffer: UnsafeBufferPointer<ColumnRule?>
    /// The table and its columns, hashed into a record's digest (``RowTape/digest(since:)``): the
    /// same for an upsert and a plain insert of the same rows.
    let digestSeed: UInt64

    /// - Parameter conflict: the key that decides a conflict; nil for a plain insert.
    convenience init(_ table: String, _ columns: [String], rules: [ColumnRule?]? = nil, conflict: [String]?, shared: Bool = false) {
        self.init(table, columns, sql: Self.upsert(table, columns, conflict: conflict), rules: rules, conflict: conflict, shared: shared)
    }

    static func upsert(_ table: String, _ columns: [String], conflict: [String]?) -> String {
        let insert = "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
        guard let conflict else { return insert }
        let updates = columns.filter { !conflict.contains($0) }.map { "\($0) = excluded.\($0)" }
        return insert + " ON CONFLICT(\(conflict.joined(separator: ", "))) DO " + (updates.isEmpty ? "NOTHING" : "UPDATE SET \(updates.joined(separator: ", "))")
    }

    /// A statement of its own, binding `columns` in order.
    init(_ table: String, _ columns: [String], sql: String, rules: [ColumnRule?]? = nil, conflict: [String]? = nil, shared: Bool = false) {
        self.table = table
        self.columns = columns
        self.sql = sql
        digestSeed = RowDigestHasher.text(([table] + columns).joined(separator: "\u{1F}"))
        precondition(!shared || conflict?.count == 1, "a shared table is counted by a one-column key")
        sharedKeyIndex = shared ? conflict.flatMap { columns.firstIndex(of: $0[0]) }.map { Int32($0 + 1) } : nil
        let rules = rules ?? columns.map { _ in nil }
        let buffer = UnsafeMutableBufferPointer<ColumnRule?>.allocate(capacity: rules.count)
        _ = buffer.initialize(from: rules)
        ruleBuffer = UnsafeBufferPointer(buffer)
        // A row names exactly one owner: the columns it leaves out are NULL.
        precondition(rules.filter { $0 == .owner }.count <= 1, "\(table): a shape binds exactly one owner column")
    }
}

/// The upsert of a canonical table's rows, bound from records of `Record` as the table's
/// declaration says (``TableRow``).
final class TableShape<Record>: UpsertShape, @unchecked Sendable {
    let row: TableRow<Record>

    /// - Parameters:
    ///   - key: the key that decides a conflict, by default the table's first column.
    ///   - plainInsert: no conflict is decided: every row is new.
    init(_ row: TableRow<Record>, key: [CanonicalColumn]? = nil, plainInsert: Bool = false, shared: Bool = false) {
        self.row = row
        let conflict = plainInsert ? nil : (key ?? Array(row.columns.prefix(1))).map(\.name)
        let columns = row.columns.map(\.name)
        super.init(row.table, columns, sql: Self.upsert(row.table, columns, conflict: conflict), rules: row.columns.map(\.rule),
                   conflict: conflict, shared: shared)
    }
}

/// Takes one row's values in the shape's column order onto a ``RowTape``, to be bound straight
/// through SQLite's C API when the tape is played: a conversion writes millions of rows, and
/// GRDB's `StatementArguments` boxes every value in an existential first (a fifth of the
/// conversion's time when measured). The values come in the order of the table's declaration
/// (``TableRow``), the order its shape's statement binds.
///
/// Text and JSON go into the tape's byte buffer, which outlives the statement's step, so that
/// SQLite does not allocate and copy every value again (`SQLITE_STATIC`).
struct RowBinder {
    let shape: UpsertShape
    /// The shape's rules and shared key, copied out of the class (see ``UpsertShape/ruleBuffer``).
    private let rules: UnsafeBufferPointer<ColumnRule?>
    private let sharedKeyIndex: Int32?
    fileprivate(set) var index: Int32 = 0
    /// The first value that breaks its column's CHECK, said as SQLite would.
    fileprivate(set) var violation: String?
    /// The key of a shared-table row.
    fileprivate(set) var key: String?
    fileprivate var tape: RowTape

    fileprivate init(shape: UpsertShape, tape: RowTape) {
        self.shape = shape
        rules = shape.ruleBuffer
        sharedKeyIndex = shape.sharedKeyIndex
        self.tape = tape
    }

    private mutating func next() {
        index += 1
        assert(Int(index) <= shape.columns.count, "\(shape.table): more values than its \(shape.columns.count) columns")
    }

    mutating func add(_ value: String?) {
        next()
        guard var value else { return addNull() }
        if index == sharedKeyIndex { key = value }
        let start = tape.bytes.count
        value.withUTF8 { tape.bytes.append(contentsOf: $0) }
        tape.values.append(.text(start: start, count: tape.bytes.count - start))
        if let rule = rules[Int(index) - 1] { enforce(rule, from: start) }
    }

    /// JSON written straight into the tape by ``JSONWriter``: valid by construction, and no
    /// `String` is made for it.
    mutating func add(json value: JSONValue?) {
        next()
        guard let value else { return addNull() }
        let start = tape.bytes.count
        tape.json.append(value, to: &tape.bytes)
        tape.values.append(.text(start: start, count: tape.bytes.count - start))
        if let rule = rules[Int(index) - 1], rule != .json { enforce(rule, from: start) }
    }

    private mutating func addNull() {
        if rules[Int(index) - 1] == .owner { fail(shape.columns[Int(index) - 1], "is NULL; the row needs an owner") }
        tape.values.append(.null)
    }

    private mutating func enforce(_ rule: ColumnRule, from start: Int) {
        let reason = tape.bytes.withUnsafeBufferPointer { ColumnRules.violation(rule, UnsafeBufferPointer(rebasing: $0[start...])) }
        if let reason { fail(shape.columns[Int(index) - 1], reason) }
    }

    private mutating func fail(_ column: String, _ reason: String) {
        guard violation == nil else { return }
        violation = "CHECK constraint failed: \(shape.table).\(column) \(reason)"
    }

    mutating func add(_ value: Int64?) {
        next()
        tape.values.append(value.map { .integer($0) } ?? .null)
    }

    mutating func add(_ value: Int?) {
        add(value.map { Int64($0) })
    }

    /// Booleans are stored as 0 and 1.
    mutating func add(_ value: Bool?) {
        add(value.map { Int64($0 ? 1 : 0) })
    }

    mutating func add(_ value: Double?) {
        next()
        tape.values.append(value.map { .real($0) } ?? .null)
    }

    mutating func add(_ value: Data) {
        next()
        let start = tape.bytes.count
        tape.bytes.append(contentsOf: value)
        tape.values.append(.blob(start: start, count: value.count))
    }
}

extension RowTape {
    /// Takes one row of `shape`, its values given by `bind`, for the record last begun.
    /// - Returns: the row's key when the shape's table is shared, else nil.
    mutating func add(_ shape: UpsertShape, _ bind: (inout RowBinder) -> Void) -> String? {
        add(shape, for: ()) { row, _ in bind(&row) }
    }

    /// As ``add(_:_:)``, with `record` handed to `bind` rather than captured by it: a closure
    /// capturing a log copied it, a retain and a release of each of its strings, for every row.
    mutating func add<Record>(_ shape: UpsertShape, for record: Record, _ bind: (inout RowBinder, Record) -> Void) -> String? {
        var row = RowBinder(shape: shape, tape: RowTape())
        // The row fills this tape's buffers in place (no copy on write).
        swap(&row.tape, &self)
        bind(&row, record)
        swap(&row.tape, &self)
        assert(Int(row.index) == shape.columns.count, "\(shape.table): \(row.index) of \(shape.columns.count) values bound")
        rows.append(Row(shape: shape, end: values.count, violation: row.violation, record: records.count - 1))
        return row.key
    }
}
