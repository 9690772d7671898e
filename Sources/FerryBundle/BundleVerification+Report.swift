import FerryJSON
import FerryStore

extension BundleVerification {
    /// The result for people: the problems, or what the valid bundle holds.
    public var text: String {
        let result = self
        guard result.isValid else {
            return result.problems.map { "\(result.path): \($0)\n" }.joined()
                + "\(result.path): \(result.problems.count) problem\(result.problems.count == 1 ? "" : "s")\n"
        }
        return "\(result.path): valid bundle \(result.bundleID ?? "?") of \(result.createdAt ?? "?"): "
            + "\(result.payloadFiles) files, \(result.payloadBytes) bytes; \(CanonicalTables.countsLine(result.counts))\n"
    }

    /// The result for scripts, as `ferry verify --format json` prints it.
    public var json: String {
        JSONWriter.string(jsonValue, sortedKeys: true, pretty: true) + "\n"
    }

    var jsonValue: JSONValue {
        let result = self
        var counts = JSONObject()
        for table in result.counts.keys.sorted() { counts[table] = .integer(result.counts[table]!) }
        let problems: [JSONValue] = result.problems.map { problem in
            ["kind": .string(problem.kind.rawValue), "path": problem.path.map { .string($0) } ?? .null, "detail": .string(problem.detail)]
        }
        return [
            "bundle": .string(result.path),
            "valid": .bool(result.isValid),
            "bundleId": result.bundleID.map { .string($0) } ?? .null,
            "createdAt": result.createdAt.map { .string($0) } ?? .null,
            "payloadFiles": .integer(result.payloadFiles),
            "payloadBytes": .integer(result.payloadBytes),
            "counts": .object(counts),
            "problems": .array(problems),
        ]
    }
}
