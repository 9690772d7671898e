import ArgumentParser

/// `--format` of commands that report: human text or JSON for scripts.
enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

/// `--format` of `ferry inspect`, which can also draw the model.
enum InspectFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, mermaid, dot
}
