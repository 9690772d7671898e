import Foundation

/// Core Data's dates: seconds since 2001-01-01 00:00:00 UTC (`NSDate`'s reference date),
/// written as ISO 8601 in UTC with as many fraction digits as the value has, up to microseconds.
public enum CoreDataDate {
    /// 2001-01-01 minus 1970-01-01, in seconds.
    public static let referenceOffset: Double = 978_307_200

    /// The seconds of 0001-01-01 and of 9999-12-31T23:59:59 since 1970: dates outside are no
    /// real app's data (a damaged value) and come out as their raw number, marked.
    static let representable: ClosedRange<Double> = -62_135_596_800...253_402_300_799

    public static func iso8601(secondsSince2001 seconds: Double) -> String {
        let unix = seconds + referenceOffset
        guard seconds.isFinite, representable.contains(unix) else { return "out of range: \(seconds) seconds since 2001" }
        var whole = unix.rounded(.down)
        var micros = Int(((unix - whole) * 1_000_000).rounded())
        if micros == 1_000_000 { whole += 1; micros = 0 }
        var time = time_t(whole)
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
}

/// UUIDs as Apple writes them: upper-case, hyphenated.
public enum UUIDText {
    public static func uppercase(_ bytes: Data) -> String {
        let hex = bytes.map { String(format: "%02X", $0) }.joined()
        let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
        return parts.joined(separator: "-")
    }
}
