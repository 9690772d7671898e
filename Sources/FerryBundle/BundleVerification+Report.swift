import FerryJSON
import FerryStore

extension BundleVerification {
    /// The result for people: the problems, or what the valid bundle holds.
    public var text: String {
        let result = self
        guard result.isValid else {
            let consequences = result.problems.filter(\.isConsequence)
            var lines = result.problems.filter { !$0.isConsequence }.map { "\(result.path): \($0)\n" }
            if !consequences.isEmpty {
                let kinds = BundleProblem.Kind.allCases.compactMap { kind -> String? in
                    let count = consequences.filter { $0.kind == kind }.count
                    return count == 0 ? nil : "\(count) \(kind.rawValue)"
                }
                var why: [String] = []
                if consequences.contains(where: { $0.path != nil }) { why.append("what was not read past the damage looks missing or unlisted") }
                if consequences.contains(where: { $0.path == nil }) { why.append("the seal differs because those bytes changed") }
                lines.append("\(result.path): \(kinds.joined(separator: ", ")) more, following from it: \(why.joined(separator: "; ")) "
                             + "(--format json lists each)\n")
            }
            return lines.joined() + "\(result.path): \(BundleProblem.tally(result.problems))\n"
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
            ["kind": .string(problem.kind.rawValue), "path": problem.path.map { .string($0) } ?? .null, "detail": .string(problem.detail),
             "consequence": .bool(problem.isConsequence)]
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
