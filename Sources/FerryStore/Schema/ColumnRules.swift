import FerryJSON

/// What the schema's CHECK constraints require of a column, checked in Swift as Ferry binds
/// each row. Ferry's writing connection tells SQLite to skip the CHECKs
/// (`PRAGMA ignore_check_constraints`): evaluated by SQLite, the UUID and JSON checks took half
/// of a conversion's SQL time. The schema keeps the CHECKs for every other writer, and `integrity_check`
/// (import, restore) evaluates them. `ColumnRulesTests` keeps this list equal to the schema and
/// each rule equal to SQLite's evaluation of the schema's own expression.
enum ColumnRule: Hashable, Sendable {
    /// `id TEXT … CHECK (length = 36, only 0-9 A-F and '-', '-' at 9 and 24)`: upper-case UUID text.
    case uuid
    /// `CHECK (json_valid(column))`. Ferry binds JSON it writes itself (``RowBinder/add(_:json:)``);
    /// other text is read by Ferry's strict JSON reader first.
    case json
    /// `CHECK (length = 64, only 0-9 a-f)`: lower-case hex SHA-256.
    case sha256
    /// `CHECK (column IN (…))`.
    case oneOf([String])
    /// One of a row's owner columns (`CHECK ((a IS NOT NULL) + (b IS NOT NULL) … = 1)`): a shape
    /// names exactly one of them, and its value may not be NULL.
    case owner
}

enum ColumnRules {
    /// Per table, per column, from the tables' declarations (`Schema/Tables/`).
    static let byTable: [String: [String: ColumnRule]] = {
        var rules: [String: [String: ColumnRule]] = [:]
        for (table, columns) in CanonicalTables.declarations {
            for column in columns { if let rule = column.rule { rules[table, default: [:]][column.name] = rule } }
        }
        return rules
    }()

    /// Tables whose rows belong to exactly one of several owners.
    static let owners: [String: [String]] = {
        var owners: [String: [String]] = [:]
        for (table, columns) in CanonicalTables.declarations {
            let named = columns.filter { $0.rule == .owner }.map(\.name)
            if !named.isEmpty { owners[table] = named }
        }
        return owners
    }()

    /// Why `text` breaks `rule`, or nil when it holds. NULL holds every rule but `owner`, as in
    /// SQL, where a CHECK that is NULL passes.
    static func violation(_ rule: ColumnRule, _ text: UnsafeBufferPointer<UInt8>) -> String? {
        switch rule {
        case .uuid:
            // Exactly the schema's test, no stricter: SQLite's length() counts characters, and a
            // text of 36 bytes that are all ASCII is 36 characters.
            guard text.count == 36, text[8] == UInt8(ascii: "-"), text[23] == UInt8(ascii: "-"),
                  text.allSatisfy({ isUpperHex($0) || $0 == UInt8(ascii: "-") })
            else { return "is not an upper-case UUID" }
            return nil
        case .sha256:
            guard text.count == 64, text.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) })
            else { return "is not a lower-case hex SHA-256" }
            return nil
        case .oneOf(let allowed):
            guard allowed.contains(where: { $0.utf8.elementsEqual(text) }) else {
                return "is not one of \(allowed.joined(separator: ", "))"
            }
            return nil
        case .json:
            // As lenient as `json_valid` where Ferry's reader is stricter for input files.
            var reader = JSONReader()
            reader.allowsDuplicateKeys = true
            reader.maximumDepth = 1000
            return (try? reader.read(text)) == nil ? "is not valid JSON" : nil
        case .owner:
            return nil
        }
    }

    private static func isUpperHex(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46)
    }
}
