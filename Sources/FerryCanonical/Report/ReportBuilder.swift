import FerryJSON
import FerryLegacy

/// Collects what the normalizers notice, merging repeats into counts.
public final class ReportBuilder: @unchecked Sendable {
    public private(set) var report: ConversionReport
    private var synthesizedCounts: [String: (ConversionReport.Synthesized)] = [:]
    private var enumCounts: [String: ConversionReport.UnknownEnum] = [:]
    private var extraCounts: [String: ConversionReport.Extra] = [:]

    /// Lists stop here, so that a million dangling links do not become a million-entry report.
    public static let listLimit = 1000

    public init(store: String, dryRun: Bool) {
        report = ConversionReport(store: store, dryRun: dryRun)
    }

    public func input(_ path: String, detected: String, records: Int) {
        report.inputs.append(.init(path: path, detected: detected, records: records))
    }

    public func skipped(_ path: String, reason: String) {
        report.skipped.append(.init(path: path, reason: reason))
    }

    public func synthesized(table: String, field: String, from: String) {
        let key = "\(table)\u{1F}\(field)\u{1F}\(from)"
        synthesizedCounts[key, default: .init(table: table, field: field, from: from, count: 0)].count += 1
    }

    public func reconstructed(log: String, from: String, fields: [String]) {
        guard report.reconstructedSnapshots.count < Self.listLimit else { return report.omitted["reconstructedSnapshots", default: 0] += 1 }
        report.reconstructedSnapshots.append(.init(log: log, from: from, fields: fields))
    }

    public func dangling(file: String, record: String, field: String, value: String, action: String) {
        guard report.danglingReferences.count < Self.listLimit else { return report.omitted["danglingReferences", default: 0] += 1 }
        report.danglingReferences.append(.init(file: file, record: record, field: field, value: value, action: action))
    }

    /// Counts `count` entries of `list` that are not listed.
    public func omitted(_ list: String, _ count: Int) {
        guard count > 0 else { return }
        report.omitted[list, default: 0] += count
    }

    public func unknownEnum(file: String, field: String, value: String, mappedTo: String) {
        let key = "\(file)\u{1F}\(field)\u{1F}\(value)"
        enumCounts[key, default: .init(file: file, field: field, value: value, mappedTo: mappedTo, count: 0)].count += 1
    }

    /// Records the extras of one row: each key once per row.
    public func extras(app: LegacyApp, entity: String, _ object: JSONObject) {
        for key in object.keys {
            let id = "\(app.rawValue)\u{1F}\(entity)\u{1F}\(key)"
            extraCounts[id, default: .init(app: app.rawValue, entity: entity, field: key, count: 0)].count += 1
        }
    }

    public func rejected(_ error: ConversionError) {
        guard report.rejected.count < Self.listLimit else { return report.omitted["rejected", default: 0] += 1 }
        report.rejected.append(.init(file: error.location.file, record: error.location.record, key: error.location.key,
                                     field: error.location.field, message: error.message))
    }

    public func warning(_ text: String) {
        report.warnings.append(text)
    }

    public func counts(_ counts: [String: Int]) {
        report.counts = counts
    }

    public func backup(_ path: String?) {
        report.backup = path
    }

    /// The report with merged counts, in a stable order.
    public func finish() -> ConversionReport {
        var result = report
        result.synthesized = synthesizedCounts.values.sorted { ($0.table, $0.field, $0.from) < ($1.table, $1.field, $1.from) }
        result.unknownEnumValues = enumCounts.values.sorted { ($0.file, $0.field, $0.value) < ($1.file, $1.field, $1.value) }
        result.extras = extraCounts.values.sorted { ($0.app, $0.entity, $0.field) < ($1.app, $1.entity, $1.field) }
        return result
    }
}
