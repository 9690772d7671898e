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
        if let parsed = ISO8601Text(text) { return parsed.seconds }
        // What the ASCII reading does not take (other digits, other spaces, years before the
        // Gregorian calendar's start) is read as it always was.
        return matchedSeconds(text)
    }

    static func matchedSeconds(_ text: String) -> Double? {
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

/// `YYYY-MM-DD[(T| )hh:mm[:ss[(.|,)fraction]]][spaces][Z|±hh[:]mm]` in ASCII, read without a
/// regular expression or a calendar: building the expression and the calendar for every value
/// was a fifth of reading a schema.org recipe. Nil for anything else, for the expression to judge.
struct ISO8601Text {
    let seconds: Double?

    init?(_ text: String) {
        var text = text
        guard let read = text.withUTF8({ ISO8601Text(bytes: $0) }) else { return nil }
        self = read
    }

    private init?(bytes: UnsafeBufferPointer<UInt8>) {
        var index = 0
        func number(_ width: Int) -> Int? {
            guard index + width <= bytes.count else { return nil }
            var value = 0
            for offset in 0..<width {
                let byte = bytes[index + offset]
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += width
            return value
        }
        func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        guard let year = number(4), take(0x2D), let month = number(2), take(0x2D), let day = number(2) else { return nil }
        var hour = 0, minute = 0, second = 0, fraction: Double = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: "T") || bytes[index] == 0x20,
           index + 1 < bytes.count, (0x30...0x39).contains(bytes[index + 1]) {
            index += 1
            guard let h = number(2), take(0x3A), let m = number(2) else { return nil }
            (hour, minute) = (h, m)
            if take(0x3A) {
                guard let s = number(2) else { return nil }
                second = s
                if index < bytes.count, bytes[index] == 0x2E || bytes[index] == 0x2C {
                    index += 1
                    let start = index
                    while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
                    guard (1...9).contains(index - start) else { return nil }
                    fraction = Double("0." + String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)) ?? 0
                }
            }
        }
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D].contains(bytes[index]) { index += 1 }
        var offset = 0
        if take(UInt8(ascii: "Z")) {
        } else if index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D {
            let sign = bytes[index] == 0x2D ? -1 : 1
            index += 1
            guard let h = number(2) else { return nil }
            _ = take(0x3A)
            guard let m = number(2) else { return nil }
            offset = sign * (h * 3600 + m * 60)
        }
        // Anything left over, or a year the calendar before 1583 counts otherwise: the expression's.
        // A leap second the calendar may carry into the next day: the expression's too.
        guard index == bytes.count, year >= 1583, second < 60 else { return nil }
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else {
            seconds = nil
            return
        }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard day <= lengths[month - 1] else {
            seconds = nil
            return
        }
        // Days from 1970-01-01 to the date, in the proleptic Gregorian calendar (Hinnant's days_from_civil).
        let shifted = month <= 2 ? year - 1 : year
        let era = shifted / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        // In the expression's order (the fraction, then the offset), so the rounding is the same.
        var value = Double(days * 86_400 + hour * 3600 + minute * 60 + second)
        value += fraction
        value -= Double(offset)
        seconds = value
    }
}
