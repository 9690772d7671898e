import FerryJSON
import FerryLegacy
import Foundation

/// What every normalizer shares: how to read dates, where to report, whether to keep going
/// past a bad record, and the batch being built.
public final class ConversionContext: @unchecked Sendable {
    public let dates: LegacyDateDecoder
    public let report: ReportBuilder
    public let keepGoing: Bool
    public var batch = CanonicalBatch()
    /// Ids seen per table, to refuse duplicates with the record that had them first.
    private var seen: [String: [String: RecordLocation]] = [:]

    public init(dates: LegacyDateDecoder = LegacyDateDecoder(), report: ReportBuilder, keepGoing: Bool) {
        self.dates = dates
        self.report = report
        self.keepGoing = keepGoing
    }

    /// Runs `body` for one record: its errors are thrown, or with `keepGoing` reported as
    /// rejected while the other records go on.
    public func record(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as ConversionError {
            guard keepGoing else { throw error }
            report.rejected(error)
        }
    }

    /// Refuses an id already used in the same table by another record of this conversion.
    public func claim(_ id: String, table: String, at location: RecordLocation) throws {
        if let first = seen[table]?[id] {
            var here = location
            here.field = here.field ?? "id"
            let sameFile = first.file == location.file
            throw ConversionError(.duplicateID(id, firstRecord: sameFile ? first.record : nil), at: here)
        }
        seen[table, default: [:]][id] = location
    }

    /// Created/modified times for legacy records that have none: the input file's modification
    /// time, so that converting the same file again gives the same values.
    public func fileTime(_ path: String) -> String {
        let date = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? Date(timeIntervalSince1970: 0)
        return CanonicalTime.string(date ?? Date(timeIntervalSince1970: 0))
    }
}
