/// What `ferry check` found in a store: one finding per problem, each with its severity.
public struct StoreCheckReport: Sendable, Encodable {
    public enum Severity: String, Sendable, Encodable, CaseIterable {
        /// Core Data would refuse the store, or read it wrong.
        case error
        /// Core Data opens and reads it, but something is off that a person should know.
        case warning
        /// Worth knowing; nothing is wrong.
        case note
    }

    public struct Finding: Sendable, Encodable, Equatable {
        public var severity: Severity
        /// A stable name for the kind of finding (`metadata.digest`, `keys.max`), for scripts.
        public var check: String
        public var message: String
    }

    public var store: String
    /// The model the store was checked against: a file and version, the model cache, or none.
    public var model: String
    public var findings: [Finding]
    public var counts: [String: Int]

    init(store: String, model: String, findings: [Finding]) {
        self.store = store
        self.model = model
        let order = Severity.allCases
        self.findings = findings.enumerated().sorted { a, b in
            let (x, y) = (order.firstIndex(of: a.element.severity) ?? 0, order.firstIndex(of: b.element.severity) ?? 0)
            return x == y ? a.offset < b.offset : x < y
        }.map(\.element)
        counts = Dictionary(uniqueKeysWithValues: order.map { severity in (severity.rawValue, findings.filter { $0.severity == severity }.count) })
    }

    public var hasErrors: Bool { findings.contains { $0.severity == .error } }

    enum CodingKeys: String, CodingKey { case store, model, findings, counts }
}
