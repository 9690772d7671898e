import FerryCoreData
import FerryModel
import Foundation
import GRDB

/// How a canonical table's columns go into a Core Data table in one `INSERT … SELECT`: each
/// attribute as it is or through a date or UUID function, each to-one as its destination's
/// `rowid`, with the conditions under which that gives what the row-by-row path gives.
struct BulkValues {
    var attributes: [(name: String, expression: String)] = []
    var toOne: [(name: String, expression: String)] = []
    /// Per row, true when each value is one the row path takes unchanged or converts the same way.
    var conditions: [String] = []

    static let date = "ferry_seconds_since_2001", uuid = "ferry_uuid_bytes"

    /// Nil for an attribute type the row path alone converts.
    init?(plan: CanonicalCoreDataWriter.TablePlan) {
        for (attribute, name) in zip(plan.attributes, plan.attributeColumns) {
            let column = "t.\"\(name)\""
            var expression = column
            switch attribute.type {
            case .string, .uri: conditions.append("typeof(\(column)) IN ('text', 'null')")
            case .binary: conditions.append("typeof(\(column)) IN ('blob', 'null')")
            case .double, .float, .decimal: conditions.append("typeof(\(column)) IN ('real', 'null')")
            case .boolean: conditions.append("(\(column) IS NULL OR (typeof(\(column)) = 'integer' AND \(column) IN (0, 1)))")
            case .integer16, .integer32, .integer64:
                guard let range = attribute.type.integerRange else { return nil }
                let within = attribute.type == .integer64 ? "" : " AND \(column) BETWEEN \(range.lowerBound) AND \(range.upperBound)"
                conditions.append("(\(column) IS NULL OR (typeof(\(column)) = 'integer'\(within)))")
            case .date:
                conditions.append("typeof(\(column)) IN ('text', 'null')")
                expression = "\(Self.date)(\(column))"
            case .uuid:
                conditions.append("typeof(\(column)) IN ('text', 'null')")
                expression = "\(Self.uuid)(\(column))"
            default:
                return nil
            }
            attributes.append((attribute.name, expression))
        }
        for (index, link) in plan.links.enumerated() {
            let alias = plan.joins[index].alias
            toOne.append((link.relationship, "\(alias).rowid"))
            // A key naming no row is refused, by row, on the row path.
            if !link.column.contains(".") { conditions.append("(t.\"\(link.column)\" IS NULL OR \(alias).rowid IS NOT NULL)") }
        }
    }

    /// Whether every row of `table` meets the conditions (one scan of the canonical store).
    func fits(_ table: String, plan: CanonicalCoreDataWriter.TablePlan, db: Database) throws -> Bool {
        guard !conditions.isEmpty else { return true }
        let misfits = try Int.fetchOne(db, sql: "SELECT count(*) FROM " + plan.from(table, ordered: false) + " WHERE NOT (" + conditions.joined(separator: " AND ") + ")")
        return misfits == 0
    }

    /// The SQL functions of the expressions: what ``AttributeCells`` does to a date's and a UUID's
    /// text, refusing (so that the statement fails and the row path names the row) what it refuses.
    static let functions: [DatabaseFunction] = [
        DatabaseFunction(date, argumentCount: 1, pure: true) { values in
            guard let text = String.fromDatabaseValue(values[0]) else { return nil }
            guard let seconds = CoreDataDate.secondsSince2001(iso8601: text) else { throw DatabaseError(message: "not an ISO 8601 time") }
            return seconds
        },
        DatabaseFunction(uuid, argumentCount: 1, pure: true) { values in
            guard let text = String.fromDatabaseValue(values[0]) else { return nil }
            guard let uuid = UUID(uuidString: text) else { throw DatabaseError(message: "not a UUID") }
            return withUnsafeBytes(of: uuid.uuid) { Data($0) }
        },
    ]
}
