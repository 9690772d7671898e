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

    /// Seconds since 1970 of `YYYY-MM-DDTHH:MM:SS[.fraction]Z` (``UTCText``); nil for any other form.
    public static func unixSeconds(utc text: String) -> Double? {
        UTCText.unixSeconds(text)
    }
}

/// UUIDs as Apple writes them: upper-case, hyphenated.
public enum UUIDText {
    public static func uppercase(_ bytes: Data) -> String {
        Hex.uuid([UInt8](bytes))
    }
}
