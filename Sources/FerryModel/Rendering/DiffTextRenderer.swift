/// The human-readable `ferry diff` output: a verdict line per version pair, then its changes
/// marked `+` added, `-` removed, `~` changed, with their impact and reason.
public struct DiffTextRenderer: Sendable {
    public init() {}

    public func render(_ comparisons: [ModelComparison]) -> String {
        var lines: [String] = []
        for comparison in comparisons {
            if !lines.isEmpty { lines.append("") }
            let count = comparison.changes.count
            lines.append("\(comparison.old) → \(comparison.new): \(comparison.verdict.rawValue) (\(count) change\(count == 1 ? "" : "s"))")
            var table = TextTable()
            for change in comparison.changes {
                table.add(marker(change.kind) + " " + change.location, change.detail, change.impact.rawValue, change.reason)
            }
            lines += table.render()
            if let steps = comparison.steps {
                let listed = steps.map { "\($0.old) → \($0.new) \($0.verdict.rawValue)" }.joined(separator: ", ")
                lines.append("  step by step: \(listed) (directly: \(comparison.directVerdict?.rawValue ?? comparison.verdict.rawValue))")
            }
            if comparison.sameVersionHashes {
                lines.append("  version hashes: all the same (Core Data opens the old store without migrating)")
            } else {
                let changed = comparison.versionHashChanged
                lines.append("  version hashes: " + (changed.isEmpty ? "entities added or removed" : "changed for \(changed.joined(separator: ", "))")
                             + " (Core Data migrates the old store)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func marker(_ kind: ModelChange.Kind) -> String {
        switch kind {
        case .entityAdded, .attributeAdded, .relationshipAdded: return "+"
        case .entityRemoved, .attributeRemoved, .relationshipRemoved: return "-"
        default: return "~"
        }
    }
}
