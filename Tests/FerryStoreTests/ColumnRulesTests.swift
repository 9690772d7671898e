import FerryCanonical
import FerryJSON
@testable import FerryStore
import FerryTestSupport
import Foundation
import GRDB
import Testing

/// Ferry's writer skips SQLite's CHECK constraints and holds every bound value to
/// `ColumnRules` instead. These tests keep the rules equal to the schema's CHECKs, read from a
/// new store's own `sqlite_master`, and each rule equal to SQLite evaluating the schema's
/// expression, so that neither can change alone.
@Suite struct ColumnRulesTests {
    let directory = TemporaryDirectory("ferry-column-rules")

    /// Each table's column definitions and table constraints, split at top-level commas.
    func schema() throws -> [String: [String]] {
        let store = try CanonicalStore(path: directory.url.appendingPathComponent("schema.ferry").path)
        defer { try? store.close() }
        let tables = try store.read { try Row.fetchAll($0, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'table'") }
        var result: [String: [String]] = [:]
        for table in tables {
            let sql: String = table["sql"]
            let body = sql[sql.index(after: sql.firstIndex(of: "(")!)..<sql.lastIndex(of: ")")!]
            var parts: [String] = [], depth = 0, current = ""
            for character in body {
                if character == "(" { depth += 1 }
                if character == ")" { depth -= 1 }
                if character == ",", depth == 0 {
                    parts.append(current.trimmingCharacters(in: .whitespacesAndNewlines))
                    current = ""
                } else {
                    current.append(character)
                }
            }
            parts.append(current.trimmingCharacters(in: .whitespacesAndNewlines))
            result[table["name"]] = parts
        }
        return result
    }

    /// The expression of the first `CHECK (…)` in a definition.
    func checkExpression(_ definition: String) -> String? {
        guard let range = definition.range(of: "CHECK (") else { return nil }
        var depth = 1, expression = ""
        for character in definition[range.upperBound...] {
            if character == "(" { depth += 1 }
            if character == ")" { depth -= 1; if depth == 0 { break } }
            expression.append(character)
        }
        return expression
    }

    func matches(_ text: String, _ pattern: String) -> [[String]] {
        let regex = try! NSRegularExpression(pattern: pattern)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            (0..<match.numberOfRanges).map { String(text[Range(match.range(at: $0), in: text)!]) }
        }
    }

    @Test func theRulesAreExactlyTheSchemasChecks() throws {
        var rules: [String: [String: ColumnRule]] = [:]
        var owners: [String: [String]] = [:]
        for (table, definitions) in try schema() {
            for definition in definitions {
                guard let expression = checkExpression(definition) else { continue }
                if definition.hasPrefix("CHECK") {
                    let columns = matches(expression, #"\((\w+) IS NOT NULL\)"#).map { $0[1] }
                    #expect(!columns.isEmpty && expression.hasSuffix("= 1"), "\(table): a table CHECK Ferry does not know: \(expression)")
                    owners[table] = columns
                    for column in columns { rules[table, default: [:]][column] = .owner }
                    continue
                }
                let column = String(definition.prefix { !$0.isWhitespace })
                let rule: ColumnRule
                if expression.contains("length(\(column)) = 36") {
                    rule = .uuid
                } else if expression == "json_valid(\(column))" || expression == "\(column) IS NULL OR json_valid(\(column))" {
                    rule = .json
                } else if expression.contains("length(\(column)) = 64") {
                    rule = .sha256
                } else if expression.hasPrefix("\(column) IN (") {
                    rule = .oneOf(matches(expression, #"'([^']*)'"#).map { $0[1] })
                } else {
                    Issue.record("\(table).\(column): a CHECK Ferry does not know: \(expression)")
                    continue
                }
                rules[table, default: [:]][column] = rule
            }
        }
        #expect(rules == ColumnRules.byTable)
        #expect(owners == ColumnRules.owners)
        #expect(rules["log"]?["id"] == .uuid && rules["log_snapshot"]?["source_type"] == .oneOf(["recipe", "project"]),
                "the parsing above found the checks it is meant to find")
    }

    /// Evaluates the schema's own CHECK expression of `table.column` for each value.
    func sqliteAccepts(_ table: String, _ column: String, _ values: [String]) throws -> [Bool] {
        let definition = try #require(try schema()[table]?.first { $0.hasPrefix(column + " ") })
        let expression = try #require(checkExpression(definition))
            .replacingOccurrences(of: #"\b\#(column)\b"#, with: "?1", options: .regularExpression)
        let queue = try DatabaseQueue()
        return try queue.read { db in try values.map { try Bool.fetchOne(db, sql: "SELECT \(expression)", arguments: [$0])! } }
    }

    func swiftAccepts(_ rule: ColumnRule, _ values: [String]) -> [Bool] {
        values.map { value in
            var value = value
            return value.withUTF8 { ColumnRules.violation(rule, $0) == nil }
        }
    }

    @Test func eachRuleAcceptsWhatTheSchemasExpressionAccepts() throws {
        let uuids = ["3F2A0C1E-1111-4222-8333-444444444444", "3f2a0c1e-1111-4222-8333-444444444444", "3F2A0C1E-1111-4222-8333-44444444444",
                     "3F2A0C1E-1111-4222-8333-4444444444444", "3F2A0C1E1-111-4222-8333-444444444444", "3F2A0C1E-1111-4222-83334-44444444444",
                     "3F2A0C1G-1111-4222-8333-444444444444", String(repeating: "-", count: 36), "3F2A0C1E-1111-4222-8333-44444444444É",
                     "3F2A0C1E-1111-4222-8333-4444444444 4", "", "3F2A0C1E_1111_4222_8333_444444444444", "3F2A0C1E-1111-4222-8333-4444444444\u{0}4"]
        #expect(try sqliteAccepts("log", "id", uuids) == swiftAccepts(.uuid, uuids))
        #expect(try sqliteAccepts("log_snapshot", "source_id", uuids) == swiftAccepts(.uuid, uuids))

        let hex = String(repeating: "0123456789abcdef", count: 4)
        let digests = [hex, hex.uppercased(), String(hex.dropLast()), hex + "0", String(hex.dropLast()) + "g", String(hex.dropLast()) + "é", ""]
        #expect(try sqliteAccepts("attachment_content", "sha256", digests) == swiftAccepts(.sha256, digests))

        let kinds = ["recipe", "project", "Recipe", "log", "", "recipe "]
        #expect(try sqliteAccepts("log_snapshot", "source_type", kinds) == swiftAccepts(.oneOf(["recipe", "project"]), kinds))

        // JSON text Ferry did not write itself is read by its strict reader: whatever that accepts,
        // json_valid accepts.
        let texts = ["{}", "[]", #"{"a":1,"a":2}"#, " {\"a\": [1, 2.5e3, null, true]} ", "{", "", "nul", "{'a':1}", "[1,]", "1", #""x""#, "NaN"]
        for (text, accepted) in zip(texts, swiftAccepts(.json, texts)) where accepted {
            #expect(try sqliteAccepts("log", "extras", [text]) == [true], "\(text)")
        }
        #expect(swiftAccepts(.json, ["{", "", "[1,]", "{'a':1}"]) == [false, false, false, false])
    }

    /// The JSON Ferry writes into rows without reading it back.
    @Test func jsonFerryWritesIsValidToSQLite() throws {
        var object = JSONObject()
        for code in 0..<0x80 { object["k\(code)"] = .string(String(UnicodeScalar(UInt8(code)))) }
        object["text"] = .string("quote \" backslash \\ slash / tab \t newline \n é ☕️ \u{7F} \u{2028}")
        object["nested"] = .array([.object(JSONObject([("a", .null), ("b", .bool(false))])), .double(-0.000123), .double(1e300), .integer(Int64.min)])
        object["not a number"] = .double(.nan)
        var bytes: [UInt8] = []
        JSONWriter.append(.object(object), to: &bytes)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(try sqliteAccepts("log", "extras", [text]) == [true])
        #expect(try JSONReader().read(bytes) == .object(JSONObject(object.members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) })))
    }

    @Test func aValueThatBreaksItsRuleIsRefusedAndNamed() throws {
        let store = try CanonicalStore(path: directory.url.appendingPathComponent("refused.ferry").path)
        defer { try? store.close() }
        let id = "C1C1C1C1-1111-4222-8333-444444444444"
        var log = Log(id: id, source: SourceRef(app: SourceApp("brewguide"), entity: "BrewLog", key: id, file: "logs.json"), kind: "brew",
                      createdAt: "2024-05-01T08:00:00Z", modifiedAt: "2024-05-01T08:00:00Z")
        log.snapshot = LogSnapshot(sourceType: "playlist", sourceID: nil)
        var batch = CanonicalBatch()
        batch.logs = [log]
        #expect {
            try store.write(batch)
        } throws: { error in
            "\(error)".contains("CHECK constraint failed: log_snapshot.source_type is not one of recipe, project")
        }
        log.snapshot = LogSnapshot(sourceType: "recipe", sourceID: "c1c1c1c1-1111-4222-8333-444444444444")
        batch.logs = [log]
        #expect {
            try store.write(batch)
        } throws: { error in
            "\(error)".contains("CHECK constraint failed: log_snapshot.source_id is not an upper-case UUID")
        }
        #expect(try store.rowCounts()["log"] == 0, "nothing of a refused write is kept")
    }

    @Test func otherStatementsStillHaveTheirChecksAfterAWrite() throws {
        let store = try CanonicalStore(path: directory.url.appendingPathComponent("after.ferry").path)
        defer { try? store.close() }
        try store.write(CanonicalBatch())
        #expect(throws: DatabaseError.self) {
            try store.queue.write { db in
                try db.execute(sql: "INSERT INTO tag (id, name) VALUES ('lower-case-not-a-uuid', 'x')")
            }
        }
    }
}
