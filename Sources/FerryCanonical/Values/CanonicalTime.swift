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

    /// The form Ferry itself writes, `2024-03-01T09:00:00.25Z`, read without a regex or a
    /// calendar: a store's dates come this way, one or more per row. Nil for any other form.
    static func utcSeconds(_ text: String) -> Double? {
        text.utf8.withContiguousStorageIfAvailable { bytes -> Double? in
            guard bytes.count >= 20, bytes.count <= 30, bytes[bytes.count - 1] == UInt8(ascii: "Z"),
                  bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
                  bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":") else { return nil }
            func number(_ start: Int, _ count: Int) -> Int? {
                var value = 0
                for index in start..<(start + count) {
                    let digit = Int(bytes[index]) - 48
                    guard (0...9).contains(digit) else { return nil }
                    value = value * 10 + digit
                }
                return value
            }
            guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
                  let minute = number(14, 2), let second = number(17, 2), (1...12).contains(month), day >= 1,
                  day <= daysIn(month: month, year: year), hour < 24, minute < 60, second < 61 else { return nil }
            var fraction = 0.0
            if bytes.count > 20 {
                let digits = bytes.count - 21
                guard bytes[19] == UInt8(ascii: "."), (1...9).contains(digits), let value = number(20, digits) else { return nil }
                fraction = Double(value) / pow(10, Double(digits))
            }
            let days = daysFromCivil(year: year, month: month, day: day)
            return Double(days * 86_400 + hour * 3600 + minute * 60 + second) + fraction
        } ?? nil
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
