import Foundation

/// Canonical timestamps: ISO 8601 in UTC, `2025-10-20T08:30:00Z`, with a fraction only when the
/// value has one (up to microseconds). Text sorts in time order.
public enum CanonicalTime {
    public static func string(unixSeconds: Double) -> String {
        let whole = unixSeconds.rounded(.down)
        var micros = Int(((unixSeconds - whole) * 1_000_000).rounded())
        var seconds = Int64(whole)
        if micros >= 1_000_000 { seconds += 1; micros -= 1_000_000 }
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        var text = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
                          Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
        if micros > 0 {
            var fraction = String(format: "%06d", micros)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        return text + "Z"
    }

    public static func string(_ date: Date) -> String {
        string(unixSeconds: date.timeIntervalSince1970)
    }

    /// Seconds since 1970 of a canonical timestamp.
    public static func unixSeconds(_ text: String) -> Double? {
        LegacyDateDecoder.iso8601(text)
    }
}
