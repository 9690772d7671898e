import FerryCoreData
import FerryModel
import Foundation
import GRDB
import GRDBSQLite

/// How a canonical table's columns go into a Core Data table in one `INSERT … SELECT`: each
/// attribute as it is or through a date or UUID function, each to-one as its destination's
/// `rowid`. Each value is checked in the statement: one the row-by-row path would not take
/// unchanged (or convert the same way) calls `ferry_refuse()`, which fails the statement, and
/// the table goes row by row, where the row is named. A check a `STRICT` table's declared type
/// already makes true is left out: a million logs' 17 checks cost two of the statement's eight
/// seconds (`Formats/performance.md`).
struct BulkValues {
    var attributes: [(name: String, expression: String)] = []
    var toOne: [(name: String, expression: String)] = []

    static let date = "ferry_seconds_since_2001", uuid = "ferry_uuid_bytes", refuse = "ferry_refuse"

    /// Nil for an attribute type the row path alone converts.
    /// - Parameter database: the name the canonical store is attached under.
    init?(plan: CanonicalCoreDataWriter.TablePlan, database: String) {
        for (attribute, name) in zip(plan.attributes, plan.attributeColumns) {
            let column = "t.\"\(name)\""
            var expression = column
            let condition: String?
            // Where SQLite already holds the column to the type the check asks for.
            let declared = plan.strictTypes[name]
            func typed(_ type: String, strict: Set<String>) -> String? {
                declared.map(strict.contains) == true ? nil : "typeof(\(column)) IN ('\(type)', 'null')"
            }
            switch attribute.type {
            case .string, .uri: condition = typed("text", strict: ["TEXT"])
            case .binary: condition = typed("blob", strict: ["BLOB"])
            case .double, .float, .decimal: condition = typed("real", strict: ["REAL"])
            case .boolean: condition = "\(column) IS NULL OR (typeof(\(column)) = 'integer' AND \(column) IN (0, 1))"
            case .integer16, .integer32, .integer64:
                guard let range = attribute.type.integerRange else { return nil }
                if attribute.type == .integer64 {
                    condition = typed("integer", strict: ["INTEGER", "INT"])
                } else {
                    condition = "\(column) IS NULL OR (typeof(\(column)) = 'integer' AND \(column) BETWEEN \(range.lowerBound) AND \(range.upperBound))"
                }
            case .date:
                condition = typed("text", strict: ["TEXT"])
                expression = "\(Self.date)(\(column))"
            case .uuid:
                condition = typed("text", strict: ["TEXT"])
                expression = "\(Self.uuid)(\(column))"
            default:
                return nil
            }
            attributes.append((attribute.name, condition.map { Self.checked(expression, when: $0) } ?? expression))
        }
        for link in plan.links {
            let key = link.destinationKey(CanonicalCoreDataWriter.TablePlan.prefix(database))
            // A key naming no row is refused, by row, on the row path (the subquery runs once).
            let checked = link.column.contains(".") ? key : "CASE WHEN t.\"\(link.column)\" IS NULL THEN NULL ELSE coalesce(\(key), \(Self.refuse)()) END"
            toOne.append((link.relationship, checked))
        }
    }

    private static func checked(_ expression: String, when condition: String) -> String {
        "CASE WHEN \(condition) THEN \(expression) ELSE \(refuse)() END"
    }

    /// Registers the SQL functions of the expressions: what ``AttributeCells`` does to a date's
    /// and a UUID's text, refusing (so that the statement fails and the row path names the row)
    /// what it refuses. Through SQLite's C interface: a million dates through GRDB's boxed
    /// functions cost seconds; these read the text's bytes in place.
    static func registerFunctions(_ db: Database) throws {
        guard let connection = db.sqliteConnection else { throw DatabaseError(message: "no connection") }
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC
        // `ferry_refuse` is not deterministic: SQLite would evaluate a constant one once, up front.
        for (name, count, function, flags) in [(date, 1, dateFunction, flags), (uuid, 1, uuidFunction, flags), (refuse, 0, refuseFunction, SQLITE_UTF8)] {
            let code = sqlite3_create_function_v2(connection, name, Int32(count), flags, nil, function, nil, nil, nil)
            guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot add \(name)") }
        }
    }

    private static let refuseFunction: SQLFunction = { context, _, _ in
        sqlite3_result_error(context, "a value the row-by-row path names", -1)
    }

    typealias SQLFunction = @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void

    private static let dateFunction: SQLFunction = { context, _, arguments in
        guard let argument = arguments?[0], sqlite3_value_type(argument) != SQLITE_NULL else { return sqlite3_result_null(context) }
        guard let text = sqlite3_value_text(argument) else { return sqlite3_result_null(context) }
        let bytes = UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(argument)))
        guard let seconds = CoreDataDate.secondsSince2001(iso8601: bytes) else { return sqlite3_result_error(context, "not an ISO 8601 time", -1) }
        sqlite3_result_double(context, seconds)
    }

    private static let uuidFunction: SQLFunction = { context, _, arguments in
        guard let argument = arguments?[0], sqlite3_value_type(argument) != SQLITE_NULL else { return sqlite3_result_null(context) }
        guard let text = sqlite3_value_text(argument) else { return sqlite3_result_null(context) }
        let bytes = UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(argument)))
        guard let (high, low) = UUIDText.bits(bytes) else { return sqlite3_result_error(context, "not a UUID", -1) }
        // The 16 bytes in order, without an array per value.
        let uuid = (high.bigEndian, low.bigEndian)
        withUnsafeBytes(of: uuid) { sqlite3_result_blob(context, $0.baseAddress, 16, RowPlayer.transient) }
    }
}
