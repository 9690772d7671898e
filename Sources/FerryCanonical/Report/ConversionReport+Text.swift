import FerryJSON
import Foundation

/// The conversion report for people (a summary on stderr) and for scripts (`--report FILE`).
extension ConversionReport {
    /// The report for scripts: pretty JSON with sorted keys, as every `--format json` output.
    public func json() throws -> String {
        try JSONOutput.string(self)
    }

    /// Lines of one kind shown on stderr; the report file lists more.
    public static let shownWarnings = 20

    /// The report for people: a summary, as `ferry convert` prints it on stderr.
    public var text: String {
        let report = self
        let shownWarnings = Self.shownWarnings
        var lines: [String] = []
        let verb = report.dryRun ? "would write" : "wrote"
        for input in report.inputs {
            lines.append("ferry: \(input.path): \(input.detected), \(input.records) record\(input.records == 1 ? "" : "s")")
        }
        for skipped in report.skipped { lines.append("ferry: skipped \(skipped.path): \(skipped.reason)") }
        let main = ["recipe", "project", "log", "catalog_item"].map { "\(report.counts[$0] ?? 0) \($0)" }
        let parts = report.counts.filter { !["recipe", "project", "log", "catalog_item", "import_run"].contains($0.key) && $0.value > 0 }
            .sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
        lines.append("ferry: \(verb) \(main.joined(separator: ", ")) to \(report.store)" + (parts.isEmpty ? "" : " (with \(parts.joined(separator: ", ")))"))
        // Said only when the store held records already: into a new one every record is new.
        if report.changes.values.contains(where: { $0.changed + $0.unchanged > 0 }) {
            let said = [("new", \RecordChanges.new), ("changed", \.changed), ("unchanged, not written again", \.unchanged)].compactMap { label, path in
                let tables = ["recipe", "project", "log"].compactMap { table in
                    (report.changes[table]?[keyPath: path]).flatMap { $0 > 0 ? "\($0) \(table)" : nil }
                }
                return tables.isEmpty ? nil : "\(label): \(tables.joined(separator: ", "))"
            }
            lines.append("ferry: \(said.joined(separator: "; "))")
        }
        if let coreData = report.coreData {
            let objects = coreData.objects.values.reduce(0, +)
            let entities = coreData.objects.filter { $0.value > 0 }.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
            lines.append("ferry: \(verb) them as a Core Data store of \(coreData.model): \(objects) object\(objects == 1 ? "" : "s")"
                         + (entities.isEmpty ? "" : " (\(entities.joined(separator: ", ")))"))
            for item in coreData.notMapped.prefix(shownWarnings) {
                lines.append("ferry: not in the model: \(item.from) (\(item.count)×): \(item.reason)")
            }
            if coreData.notMapped.count > shownWarnings {
                lines.append("ferry: … \(coreData.notMapped.count - shownWarnings) more not in the model (listed by --report)")
            }
        }
        if let backup = report.backup { lines.append("ferry: backed up the store to \(backup)") }
        for item in report.synthesized {
            lines.append("ferry: synthesized \(item.table).\(item.field) for \(item.count) row\(item.count == 1 ? "" : "s") from \(item.from)")
        }
        let reconstructed = report.reconstructedSnapshots.count + (report.omitted["reconstructedSnapshots"] ?? 0)
        if reconstructed > 0 {
            lines.append("ferry: reconstructed \(reconstructed) log snapshot\(reconstructed == 1 ? "" : "s") from the records they name")
        }
        for dangling in report.danglingReferences.prefix(shownWarnings) {
            lines.append("ferry: warning: \(dangling.file): \(dangling.record): \(dangling.field) \(dangling.value) names no record; \(dangling.action)")
        }
        let moreDangling = report.danglingReferences.count + (report.omitted["danglingReferences"] ?? 0) - shownWarnings
        if moreDangling > 0 {
            lines.append("ferry: warning: \(moreDangling) more links name no record (the first \(ReportBuilder.listLimit) are listed by --report); each link was left empty, its id kept in extras.danglingReferences")
        }
        let pages = report.sameSourceURL.count + (report.omitted["sameSourceURL"] ?? 0)
        if pages > 0 {
            let shown = report.sameSourceURL.prefix(3).map { group in
                "\(group.page) (\(group.recipes.map { "\($0.app) \"\($0.title)\"" }.joined(separator: ", ")))"
            }
            lines.append("ferry: \(pages) page\(pages == 1 ? " is" : "s are") the source of more than one recipe: \(shown.joined(separator: "; "))\(pages > 3 ? "; …" : "") (sameSourceURL in --report)")
        }
        for value in report.unknownEnumValues {
            lines.append("ferry: warning: \(value.file): \(value.field) \"\(value.value)\" is not a known value (\(value.count)×); \(value.mappedTo == "kept as is" ? "kept as is" : "read as \"\(value.mappedTo)\"")")
        }
        if !report.extras.isEmpty {
            let fields = report.extras.map { "\($0.entity).\($0.field)" }
            lines.append("ferry: kept \(fields.count) legacy field\(fields.count == 1 ? "" : "s") with no canonical column in extras: \(fields.prefix(8).joined(separator: ", "))\(fields.count > 8 ? ", …" : "")")
        }
        for warning in report.warnings { lines.append("ferry: warning: \(warning)") }
        for rejected in report.rejected.prefix(shownWarnings) {
            let place = [rejected.file, rejected.record.map { "record \($0)" }, rejected.key.map { "id \($0)" }, rejected.field.map { "field \"\($0)\"" }]
                .compactMap { $0 }.joined(separator: ": ")
            lines.append("ferry: rejected: \(place): \(rejected.message)")
        }
        let rejected = report.rejected.count + (report.omitted["rejected"] ?? 0)
        if rejected > shownWarnings { lines.append("ferry: … \(rejected - shownWarnings) more rejected (the first \(ReportBuilder.listLimit) are listed by --report)") }
        if rejected > 0 { lines.append("ferry: \(rejected) record\(rejected == 1 ? "" : "s") rejected") }
        return lines.joined(separator: "\n")
    }
}
