import FerryJSON

/// Times a record's app did not keep, made up by Ferry from what was at hand (an input file's
/// modification time, another date of the record): kept in the row's `extras` under
/// `synthesizedTimes`, `{"created_at": "modification time of recipes.json"}`, so that whoever
/// reads the record (the bundle's view) can tell them from the app's own.
public enum SynthesizedTimes {
    public static let key = "synthesizedTimes"
    /// The columns a mark names (declared with the store's tables: a test holds them equal).
    public static let createdAt = "created_at"
    public static let modifiedAt = "modified_at"

    /// `extras` with the marks added; as it is when there are none.
    public static func extras(_ extras: JSONObject, marking times: [String: String]) -> JSONObject {
        guard !times.isEmpty else { return extras }
        var result = extras
        result[key] = .object(JSONObject(times.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) }))
        return result
    }
}
