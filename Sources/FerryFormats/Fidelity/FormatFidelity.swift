import FerryJSON

/// What one format holds of the store and what it cannot: each canonical field that went into
/// the format (and as what), each that was left out or made coarser, with the number of records
/// whose value it concerns. Written beside the formats (`fidelity.json`) and summed up in
/// `Formats/export-formats.md`.
public final class FormatFidelity: @unchecked Sendable {
    package enum Outcome: String, Sendable {
        /// The value is in the format as it is.
        case kept
        /// In the format, but less exact (minutes as free text, a time as a date).
        case coarsened
        /// Not in the format at all.
        case dropped
    }

    private struct Field: Hashable {
        var canonical: String
        var outcome: Outcome
        var target: String
        var why: String
    }

    public let format: String
    /// What the format's records are, and how many were written (`recipes`: 12).
    public private(set) var written: [String: Int] = [:]
    private var counts: [Field: Int] = [:]

    public init(format: String) {
        self.format = format
    }

    package func wrote(_ what: String, _ count: Int = 1) {
        written[what, default: 0] += count
    }

    /// `canonical` (`recipe.title`, `project.grade_earned`) became `target` in the format.
    package func kept(_ canonical: String, as target: String, _ count: Int = 1) {
        counts[Field(canonical: canonical, outcome: .kept, target: target, why: ""), default: 0] += count
    }

    package func coarsened(_ canonical: String, as target: String, why: String, _ count: Int = 1) {
        counts[Field(canonical: canonical, outcome: .coarsened, target: target, why: why), default: 0] += count
    }

    package func dropped(_ canonical: String, why: String, _ count: Int = 1) {
        guard count > 0 else { return }
        counts[Field(canonical: canonical, outcome: .dropped, target: "", why: why), default: 0] += count
    }

    /// CSV holds every column of every table: only NULL and empty text look alike.
    public static func csv(tables: Int, rows: Int) -> FormatFidelity {
        let fidelity = FormatFidelity(format: "csv")
        fidelity.kept("every column of every table", as: "a CSV column of the same name (an attachment's bytes: their size and path)", rows)
        fidelity.coarsened("empty text and NULL", as: "\"\" and an empty field", why: "most CSV readers take both as missing")
        fidelity.wrote("tables", tables)
        fidelity.wrote("rows", rows)
        return fidelity
    }

    /// The fields coarsened or dropped, by canonical name.
    public var losses: [String] {
        Array(Set(counts.keys.filter { $0.outcome != .kept }.map(\.canonical))).sorted()
    }

    /// Deterministic: fields by outcome (kept, coarsened, dropped), then canonical name.
    public var json: JSONValue {
        let order: [Outcome] = [.kept, .coarsened, .dropped]
        let fields = counts.sorted { left, right in
            let (a, b) = (order.firstIndex(of: left.key.outcome) ?? 0, order.firstIndex(of: right.key.outcome) ?? 0)
            return (a, left.key.canonical, left.key.target, left.key.why) < (b, right.key.canonical, right.key.target, right.key.why)
        }
        var written = JSONObject()
        for (what, count) in self.written.sorted(by: { $0.key < $1.key }) { written[what] = .integer(count) }
        return .object(JSONObject([
            ("format", .string(format)),
            ("written", .object(written)),
            ("fields", .array(fields.map { field, count in
                var entry = JSONObject([("canonical", .string(field.canonical)), ("outcome", .string(field.outcome.rawValue))])
                if !field.target.isEmpty { entry["as"] = .string(field.target) }
                if !field.why.isEmpty { entry["why"] = .string(field.why) }
                entry["records"] = .integer(count)
                return .object(entry)
            })),
        ]))
    }
}
