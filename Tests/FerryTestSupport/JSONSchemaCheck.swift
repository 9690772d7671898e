import Foundation

/// Validates JSON against a schema in `Formats/json/` with Python's `jsonschema` package
/// (`make setup` installs it), an implementation independent of Ferry.
public enum JSONSchemaCheck {
    public static let isAvailable: Bool = {
        (try? CommandRunner.run("/usr/bin/env", ["python3", "-c", "import jsonschema"]).status) == 0
    }()

    /// The validation errors, empty when the document is valid.
    public static func errors(in json: Data, schema: String) throws -> [String] {
        let directory = TemporaryDirectory("ferry-schema")
        let document = try directory.write(json, to: "document.json")
        let schemaPath = TestPaths.formats.appendingPathComponent("json").appendingPathComponent(schema).path
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator.check_schema(schema)
            for error in jsonschema.Draft202012Validator(schema).iter_errors(json.load(open(sys.argv[2]))):
                print("/".join(map(str, error.absolute_path)) + ": " + error.message)
            """
        let result = try CommandRunner.run("/usr/bin/env", ["python3", "-c", script, schemaPath, document])
        guard result.status == 0 else { return ["validator failed: \(result.stderr)"] }
        return result.stdout.split(separator: "\n").map(String.init)
    }
}
