import FerryCanonical
/// Maps legacy enum raw values to canonical ones, reporting values it does not know.
struct EnumNormalizer {
    let known: Set<String>
    var aliases: [String: String] = [:]
    /// What an unknown value becomes; nil keeps it verbatim.
    var fallback: String?

    func normalize(_ raw: String, file: String, field: String, report: ReportBuilder) -> String {
        if known.contains(raw) { return raw }
        if let alias = aliases[raw] { return alias }
        let mapped = fallback ?? raw
        report.unknownEnum(file: file, field: field, value: raw, mappedTo: fallback == nil ? "kept as is" : mapped)
        return mapped
    }
}
