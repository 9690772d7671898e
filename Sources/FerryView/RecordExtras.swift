import FerryCanonical
import FerryJSON

/// A record's `extras`, read once: the legacy fields to show as they were, and Ferry's own mark
/// of the times it made up (``SynthesizedTimes``), shown beside those times instead.
struct RecordExtras {
    /// The legacy fields as JSON text, nil when there are none.
    private(set) var legacy: String?
    /// What stood in for `created_at` / `modified_at`, by column name.
    private(set) var madeUp: [String: String] = [:]

    init(_ json: String?) {
        guard let json, json != "{}", !json.isEmpty else { return }
        legacy = json
        guard json.contains(SynthesizedTimes.key) else { return }
        let object: JSONObject
        do {
            guard let read = try JSONReader().read(Array(json.utf8)).object else { return }
            object = read
        } catch {
            // The store's rule keeps extras valid JSON; text Ferry's reader refuses is shown whole,
            // the mark included, rather than read as no mark.
            return
        }
        for (field, from) in object[SynthesizedTimes.key]?.object ?? JSONObject() {
            if let from = from.string { madeUp[field] = from }
        }
        var rest = object
        rest[SynthesizedTimes.key] = nil
        legacy = rest.isEmpty ? nil : JSONWriter.string(.object(rest))
    }
}
