import FerryJSON
import FerryStore

/// `datapackage.json`: a Frictionless Data Package (v2) describing each canonical table twice,
/// as its NDJSON parts and as its CSV parts, with a Table Schema each (types, required columns,
/// the key, foreign keys), so that `frictionless validate` checks the rows and datasette-style
/// tools load them. Paths are relative to the descriptor, which sits at the top of the payload.
public enum DataPackage {
    public struct Parts: Sendable {
        public var rows: Int
        public var ndjson: [String]
        public var csv: [String]

        public init(rows: Int, ndjson: [String], csv: [String]) {
            (self.rows, self.ndjson, self.csv) = (rows, ndjson, csv)
        }
    }

    /// The CSV resource of a table is named this (resource names are unique in a package).
    public static func csvResource(_ table: String) -> String { "\(table)-csv" }

    /// - Parameters:
    ///   - parts: each table's part paths, relative to the descriptor.
    ///   - created: the data's time (the bundle's `createdAt`).
    public static func descriptor(_ tables: [ExportedTable], parts: [String: Parts], created: String) -> [UInt8] {
        var resources: [JSONValue] = []
        for table in tables {
            guard let paths = parts[table.name] else { continue }
            let fields = fields(of: table)
            if paths.rows == 0, !paths.ndjson.isEmpty {
                // An empty NDJSON file has no line to read the columns from: frictionless fails on
                // it, and on every table whose keys refer to it. The table is described inline
                // instead, as its header alone: no rows, the same columns.
                resources.append(.object(JSONObject([
                    ("name", .string(table.name)),
                    ("type", "table"),
                    ("data", [.array(fields.compactMap { $0["name"] })]),
                    ("schema", schema(table, fields: fields, resource: { $0 })),
                ])))
            } else if !paths.ndjson.isEmpty {
                resources.append(.object(JSONObject([
                    ("name", .string(table.name)),
                    ("type", "table"),
                    ("path", .array(paths.ndjson.map(JSONValue.string))),
                    ("format", "ndjson"),
                    ("mediatype", "application/x-ndjson"),
                    ("encoding", "utf-8"),
                    ("schema", schema(table, fields: fields, resource: { $0 })),
                ])))
            }
            guard !paths.csv.isEmpty else { continue }
            resources.append(.object(JSONObject([
                ("name", .string(csvResource(table.name))),
                ("type", "table"),
                ("path", .array(paths.csv.map(JSONValue.string))),
                ("format", "csv"),
                ("mediatype", "text/csv"),
                ("encoding", "utf-8"),
                ("dialect", .object(JSONObject([("header", true), ("delimiter", ","), ("lineTerminator", "\r\n"), ("quoteChar", "\""),
                                                  ("doubleQuote", true)]))),
                ("schema", schema(table, fields: fields, resource: csvResource)),
            ])))
        }
        let package = JSONObject([
            ("$schema", "https://datapackage.org/profiles/2.0/datapackage.json"),
            ("name", "ferry-canonical-store"),
            ("title", "A Ferry canonical store: recipes, projects, logs and their parts"),
            ("created", .string(created)),
            // Ferry without its version: the payload, and so the bundle's id, depend on the data alone.
            ("contributors", [["title": "Ferry", "roles": ["creator"]]]),
            ("resources", .array(resources)),
        ])
        return Array((JSONWriter.string(.object(package), sortedKeys: false, pretty: true) + "\n").utf8)
    }

    /// The columns as the parts hold them: `attachment_content`'s bytes are `byte_count` and `path`.
    static func fields(of table: ExportedTable) -> [JSONValue] {
        table.columns.flatMap { column -> [JSONValue] in
            if table.name == AttachmentContentTable.table, column.name == AttachmentContentTable.data.name {
                return [field(FrozenStore.attachmentFields.byteCount, type: "integer", required: true, description: "the size of the attachment's bytes"),
                        field(FrozenStore.attachmentFields.path, type: "string", required: true, description: "where the bytes are: in the NDJSON from the top of the bag, in the CSV from this file's folder")]
            }
            return [field(column.name, type: type(of: column), required: column.required)]
        }
    }

    private static func field(_ name: String, type: String, required: Bool, description: String? = nil) -> JSONValue {
        var field = JSONObject([("name", .string(name)), ("type", .string(type))])
        if let description { field["description"] = .string(description) }
        if required { field["constraints"] = ["required": true] }
        return .object(field)
    }

    /// SQLite's declared types as Table Schema's. Times stay strings: the canonical form is
    /// ISO 8601 in UTC, but a Table Schema `datetime` would refuse nothing Ferry writes and
    /// say less than the column's name does.
    private static func type(of column: ExportedTable.Column) -> String {
        switch column.type {
        case "INTEGER": return "integer"
        case "REAL": return "number"
        case "TEXT": return "string"
        default: return "any"
        }
    }

    private static func schema(_ table: ExportedTable, fields: [JSONValue], resource: (String) -> String) -> JSONValue {
        var schema = JSONObject([("fields", .array(fields))])
        if !table.key.isEmpty { schema["primaryKey"] = .array(table.key.map(JSONValue.string)) }
        let keys = table.foreignKeys.map { key -> JSONValue in
            var reference = JSONObject()
            // A table that refers to itself (a project's parent) names no resource.
            if key.table != table.name { reference["resource"] = .string(resource(key.table)) }
            reference["fields"] = .array(key.referenced.map(JSONValue.string))
            return .object(JSONObject([("fields", .array(key.columns.map(JSONValue.string))), ("reference", .object(reference))]))
        }
        if !keys.isEmpty { schema["foreignKeys"] = .array(keys) }
        return .object(schema)
    }
}
