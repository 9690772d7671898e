import Foundation

/// Times as text in UTC, `YYYY-MM-DDTHH:MM:SS[.fraction]Z`: the one form stores and canonical
/// rows hold, read here without a regex or a calendar (one or more per row).
public enum UTCText {
    /// Seconds since 1970 of `YYYY-MM-DDTHH:MM:SS[.fraction]Z`, read without a regex or a
    /// calendar: stores and canonical rows hold dates this way, one or more per row. Nil for any
    /// other form.
    public static func unixSeconds(_ text: String) -> Double? {
        text.utf8.withContiguousStorageIfAvailable { bytes -> Double? in
            guard bytes.count >= 20, bytes.count <= 60, bytes[bytes.count - 1] == UInt8(ascii: "Z"),
                  let whole = wholeUnixSeconds(UnsafeBufferPointer(rebasing: bytes[0..<19])) else { return nil }
            var fraction = 0.0
            if bytes.count > 20 {
                // Past nanoseconds (an exact Core Data date has up to 17 digits) the digits are checked, not counted.
                let digits = bytes.count - 21
                guard bytes[19] == UInt8(ascii: "."), digits >= 1,
                      (20..<(bytes.count - 1)).allSatisfy({ (48...57).contains(bytes[$0]) }) else { return nil }
                var value = 0
                for index in 20..<(20 + min(digits, 9)) { value = value * 10 + Int(bytes[index]) - 48 }
                fraction = Double(value) / pow(10, Double(min(digits, 9)))
            }
            return Double(whole) + fraction
        } ?? nil
    }

    /// Seconds since 1970 of `YYYY-MM-DDTHH:MM:SS` (19 bytes, no zone: the caller has read it as
    /// UTC); nil for any other form.
    public static func wholeUnixSeconds(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard bytes.count == 19, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
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
        return Int64(daysFromCivil(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    public static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
