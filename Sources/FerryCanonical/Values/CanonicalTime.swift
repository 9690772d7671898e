import FerryJSON
import Foundation

/// Canonical timestamps: ISO 8601 in UTC, `2025-10-20T08:30:00Z`, with a fraction only when the
/// value has one (up to microseconds). Text sorts in time order.
public enum CanonicalTime {
    /// The last second of year 9999: later times are no times a canonical record can hold.
    public static let latestSeconds: Int64 = 253_402_300_799

    public static func string(unixSeconds: Double) -> String {
        let whole = unixSeconds.rounded(.down)
        var micros = Int(((unixSeconds - whole) * 1_000_000).rounded())
        var seconds = Int64(whole)
        if micros >= 1_000_000 { seconds += 1; micros -= 1_000_000 }
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        // Written straight into the string's storage: one allocation, not an array's and a copy.
        return String(unsafeUninitializedCapacity: 28) { bytes in
            var count = 0
            func digits(_ value: Int, _ width: Int) {
                var rest = value
                for place in stride(from: width - 1, through: 0, by: -1) {
                    bytes[count + place] = UInt8(0x30 + rest % 10)
                    rest /= 10
                }
                count += width
            }
            func mark(_ byte: UInt8) {
                bytes[count] = byte
                count += 1
            }
            digits(Int(parts.tm_year) + 1900, 4); mark(0x2D)
            digits(Int(parts.tm_mon) + 1, 2); mark(0x2D)
            digits(Int(parts.tm_mday), 2); mark(0x54)
            digits(Int(parts.tm_hour), 2); mark(0x3A)
            digits(Int(parts.tm_min), 2); mark(0x3A)
            digits(Int(parts.tm_sec), 2)
            if micros > 0 {
                mark(0x2E)
                var width = 6
                while micros % 10 == 0 { micros /= 10; width -= 1 }
                digits(micros, width)
            }
            mark(0x5A)
            return count
        }
    }

    public static func string(_ date: Date) -> String {
        string(unixSeconds: date.timeIntervalSince1970)
    }

    /// Seconds since 1970 of a canonical timestamp.
    public static func unixSeconds(_ text: String) -> Double? {
        if let seconds = utcSeconds(text) { return seconds }
        let pattern = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/
        guard let match = text.wholeMatch(of: pattern) else { return nil }
        guard let year = Int(match.1), let month = Int(match.2), let day = Int(match.3),
              (1...12).contains(month), (1...31).contains(day) else { return nil }
        let hour = match.4.flatMap { Int($0) } ?? 0, minute = match.5.flatMap { Int($0) } ?? 0
        let second = match.6.flatMap { Int($0) } ?? 0
        guard hour < 24, minute < 60, second < 61 else { return nil }
        var parts = DateComponents()
        (parts.year, parts.month, parts.day, parts.hour, parts.minute, parts.second) = (year, month, day, hour, minute, second)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let date = calendar.date(from: parts), calendar.component(.day, from: date) == day else { return nil }
        var seconds = date.timeIntervalSince1970
        if let fraction = match.7 { seconds += Double("0." + fraction) ?? 0 }
        if let zone = match.8, zone != "Z" {
            let digits = zone.dropFirst().replacingOccurrences(of: ":", with: "")
            let offset = (Int(digits.prefix(2)) ?? 0) * 3600 + (Int(digits.suffix(2)) ?? 0) * 60
            seconds -= Double(zone.hasPrefix("-") ? -offset : offset)
        }
        return seconds
    }

    /// The form Ferry itself writes, `2024-03-01T09:00:00.25Z`, read fast (a store's dates come
    /// this way, one or more per row). Nil for any other form.
    static func utcSeconds(_ text: String) -> Double? {
        UTCText.unixSeconds(text)
    }
}
