/// The human-readable `ferry lint` output, one finding per line in compiler style:
/// `file:line: severity: Entity.property: message [rule]`, then its hint.
public struct LintTextRenderer: Sendable {
    public init() {}

    public func render(_ report: LintReport) -> String {
        var lines: [String] = []
        let cloudKit = report.cloudKit.applies ? "CloudKit rules on: \(report.cloudKit.reason)" : "CloudKit rules off: \(report.cloudKit.reason)"
        lines.append("\(report.file)\(report.version.map { " (version \"\($0)\")" } ?? ""): \(cloudKit)")
        for finding in report.findings {
            let place = finding.line.map { "\(finding.file):\($0)" } ?? finding.file
            lines.append("\(place): \(finding.severity.rawValue): \(finding.location): \(finding.message) [\(finding.rule.rawValue)]")
            lines.append("    hint: \(finding.hint)")
        }
        let counts = LintSeverity.allCases.map { "\(report.count($0)) \($0.rawValue)\(report.count($0) == 1 ? "" : "s")" }
        lines.append(report.findings.isEmpty ? "no findings" : counts.joined(separator: ", "))
        return lines.joined(separator: "\n") + "\n"
    }
}
