import FerryJSON
import Foundation

/// Collects what the normalizers notice, merging repeats into counts. Thread-safe: a streamed
/// conversion reads on one thread while the store's thread links and writes (each list is
/// filled from one of them, so its order stays that of the input).
public final class ReportBuilder: @unchecked Sendable {
    private let lock = NSLock()
    private var state: ConversionReport
    public var report: ConversionReport { lock.withLock { state } }
    private var synthesizedCounts: [String: (ConversionReport.Synthesized)] = [:]
    private var enumCounts: [String: ConversionReport.UnknownEnum] = [:]
    private var extraCounts: [String: ConversionReport.Extra] = [:]

    /// Lists stop here, so that a million dangling links do not become a million-entry report.
    public static let listLimit = 1000

    public init(store: String, dryRun: Bool) {
        state = ConversionReport(store: store, dryRun: dryRun)
    }

    public func input(_ path: String, detected: String, records: Int) {
        lock.withLock {
            state.inputs.append(.init(path: path, detected: detected, records: records))
        }
    }

    public func skipped(_ path: String, reason: String) {
        lock.withLock {
            state.skipped.append(.init(path: path, reason: reason))
        }
    }

    public func synthesized(table: String, field: String, from: String) {
        lock.withLock {
            let key = "\(table)\u{1F}\(field)\u{1F}\(from)"
            synthesizedCounts[key, default: .init(table: table, field: field, from: from, count: 0)].count += 1
        }
    }

    public func reconstructed(log: String, from: String, fields: [String]) {
        lock.withLock {
            guard state.reconstructedSnapshots.count < Self.listLimit else { return state.omitted["reconstructedSnapshots", default: 0] += 1 }
            state.reconstructedSnapshots.append(.init(log: log, from: from, fields: fields))
        }
    }

    public func dangling(file: String, record: String, field: String, value: String, action: String) {
        lock.withLock {
            guard state.danglingReferences.count < Self.listLimit else { return state.omitted["danglingReferences", default: 0] += 1 }
            state.danglingReferences.append(.init(file: file, record: record, field: field, value: value, action: action))
        }
    }

    /// Counts `count` entries of `list` that are not listed.
    public func omitted(_ list: String, _ count: Int) {
        lock.withLock {
            guard count > 0 else { return }
            state.omitted[list, default: 0] += count
        }
    }

    public func unknownEnum(file: String, field: String, value: String, mappedTo: String) {
        lock.withLock {
            let key = "\(file)\u{1F}\(field)\u{1F}\(value)"
            enumCounts[key, default: .init(file: file, field: field, value: value, mappedTo: mappedTo, count: 0)].count += 1
        }
    }

    /// Records the extras of one row: each key once per row.
    public func extras(app: SourceApp, entity: String, _ object: JSONObject) {
        lock.withLock {
            for key in object.keys {
                let id = "\(app.rawValue)\u{1F}\(entity)\u{1F}\(key)"
                extraCounts[id, default: .init(app: app.rawValue, entity: entity, field: key, count: 0)].count += 1
            }
        }
    }

    public func rejected(_ error: ConversionError) {
        lock.withLock {
            guard state.rejected.count < Self.listLimit else { return state.omitted["rejected", default: 0] += 1 }
            state.rejected.append(.init(file: error.location.file, record: error.location.record, key: error.location.key,
                                         field: error.location.field, message: error.message))
        }
    }

    /// The store's recipes that name the same page, found once every row is in.
    public func sameSource(_ groups: [ConversionReport.SameSource]) {
        lock.withLock {
            state.sameSourceURL = Array(groups.prefix(Self.listLimit))
            if groups.count > Self.listLimit { state.omitted["sameSourceURL", default: 0] += groups.count - Self.listLimit }
        }
    }

    public func warning(_ text: String) {
        lock.withLock {
            state.warnings.append(text)
        }
    }

    public func counts(_ counts: [String: Int]) {
        lock.withLock {
            state.counts = counts
        }
    }

    public func changes(_ changes: [String: RecordChanges]) {
        lock.withLock {
            state.changes = changes.filter { $0.value != RecordChanges() }
        }
    }

    public func backup(_ path: String?) {
        lock.withLock {
            state.backup = path
        }
    }

    /// The report with merged counts, in a stable order.
    public func finish() -> ConversionReport {
        lock.lock()
        defer { lock.unlock() }
        var result = state
        result.synthesized = synthesizedCounts.values.sorted { ($0.table, $0.field, $0.from) < ($1.table, $1.field, $1.from) }
        result.unknownEnumValues = enumCounts.values.sorted { ($0.file, $0.field, $0.value) < ($1.file, $1.field, $1.value) }
        result.extras = extraCounts.values.sorted { ($0.app, $0.entity, $0.field) < ($1.app, $1.entity, $1.field) }
        return result
    }
}
