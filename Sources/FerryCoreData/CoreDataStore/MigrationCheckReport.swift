import Foundation

/// One record a migration would fail on or lose data of.
public struct MigrationProblem: Sendable, Encodable, Equatable {
    public enum Kind: String, Sendable, Encodable, CaseIterable {
        case nullInRequired = "null-in-required"
        case outOfRange = "out-of-range"
        case duplicateUnderConstraint = "duplicate-under-constraint"
        case emptyRequiredRelationship = "empty-required-relationship"
        case doesNotConvert = "does-not-convert"
        /// Losses: the migration succeeds and the value is gone.
        case valueDropped = "value-dropped"
        case recordDropped = "record-dropped"

        public var isLoss: Bool { self == .valueDropped || self == .recordDropped }
    }

    public var kind: Kind
    public var entity: String
    /// The record's id (as `dump` names it); for a duplicate, every record after the first.
    public var record: String
    public var property: String
    public var value: String
    public var detail: String
}

/// The records a migration would fail on or lose values of, counted by kind; the first hundred
/// of each listed.
public struct MigrationCheckReport: Sendable, Encodable {
    public var format = "ferry.migration-check/1"
    public var store: String
    public var oldVersion: String?
    public var newVersion: String?
    public var counts: [String: Int] = [:]
    public var problems: [MigrationProblem] = []
    public static let listLimit = 100

    /// Problems that make the migration fail.
    public var failures: Int { count { !$0.isLoss } }
    /// Values and records the migration would drop while succeeding.
    public var losses: Int { count(\.isLoss) }

    private func count(_ included: (MigrationProblem.Kind) -> Bool) -> Int {
        MigrationProblem.Kind.allCases.filter(included).reduce(0) { $0 + counts[$1.rawValue, default: 0] }
    }

    mutating func add(_ problem: MigrationProblem) {
        let count = counts[problem.kind.rawValue, default: 0]
        counts[problem.kind.rawValue] = count + 1
        if count < Self.listLimit { problems.append(problem) }
    }

    /// The report for people: one line per problem listed, then the counts.
    public var text: String {
        let from = oldVersion ?? "the store's version", to = newVersion ?? "the new version"
        guard failures + losses > 0 else { return "\(store): migrating from \(from) to \(to) meets no problem in its records\n" }
        var lines = problems.map { problem in
            let subject = problem.property.isEmpty ? "" : ": \(problem.property) = \(problem.value)"
            // A record id of the `Entity/p1` kind names its entity already.
            let record = problem.record.hasPrefix(problem.entity + "/") ? problem.record : "\(problem.entity) \(problem.record)"
            return "\(store): \(problem.kind.rawValue): \(record)\(subject): \(problem.detail)"
        }
        func listed(_ losses: Bool) -> String {
            MigrationProblem.Kind.allCases.filter { $0.isLoss == losses }
                .compactMap { kind in counts[kind.rawValue].map { "\($0) \(kind.rawValue)" } }.joined(separator: ", ")
        }
        let verdicts = [failures > 0 ? "would fail: \(listed(false))" : nil, losses > 0 ? "would lose: \(listed(true))" : nil]
        lines.append("\(store): migrating from \(from) to \(to) " + verdicts.compactMap { $0 }.joined(separator: "; and "))
        return lines.joined(separator: "\n") + "\n"
    }
}
