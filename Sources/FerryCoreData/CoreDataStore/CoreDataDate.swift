import FerryJSON
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
        // Digits by hand: this runs for every date of every row, and String(format:) costs more than the rest.
        var text: [UInt8] = []
        text.reserveCapacity(27)
        func digits(_ value: Int, _ count: Int) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            while divisor > 0 {
                text.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                divisor /= 10
            }
        }
        // The representable range starts at year 1: no sign.
        digits(Int(parts.tm_year) + 1900, 4)
        text.append(UInt8(ascii: "-")); digits(Int(parts.tm_mon) + 1, 2)
        text.append(UInt8(ascii: "-")); digits(Int(parts.tm_mday), 2)
        text.append(UInt8(ascii: "T")); digits(Int(parts.tm_hour), 2)
        text.append(UInt8(ascii: ":")); digits(Int(parts.tm_min), 2)
        text.append(UInt8(ascii: ":")); digits(Int(parts.tm_sec), 2)
        if micros > 0 {
            var fraction = micros
            var width = 6
            while fraction % 10 == 0 { fraction /= 10; width -= 1 }
            text.append(UInt8(ascii: ".")); digits(fraction, width)
        }
        text.append(UInt8(ascii: "Z"))
        return String(decoding: text, as: UTF8.self)
    }
}

extension CoreDataDate {
    /// Seconds since 2001 of `YYYY-MM-DDTHH:MM:SS[.fraction]Z`, the form ``iso8601(secondsSince2001:)``
    /// writes (UTC); nil for any other text.
    public static func secondsSince2001(iso8601 text: String) -> Double? {
        unixSeconds(utc: text).map { $0 - referenceOffset }
    }

    /// Seconds since 1970 of `YYYY-MM-DDTHH:MM:SS[.fraction]Z`, read without a regex or a
    /// calendar: stores and canonical rows hold dates this way, one or more per row. Nil for any
    /// other form.
    public static func unixSeconds(utc text: String) -> Double? {
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

/// UUIDs as Apple writes them: upper-case, hyphenated.
public enum UUIDText {
    public static func uppercase(_ bytes: Data) -> String {
        Hex.uuid([UInt8](bytes))
    }
}
