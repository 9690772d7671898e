import FerryJSON
import Foundation

/// Core Data's dates: seconds since 2001-01-01 00:00:00 UTC (`NSDate`'s reference date), a double,
/// written as ISO 8601 in UTC with the fraction digits that read back as the same double: up to
/// microseconds when those do (nearly every date an app stores), else every digit of the double's
/// shortest decimal form (`490189828.80500007` is `2016-07-14T11:50:28.80500007Z`).
public enum CoreDataDate {
    /// 2001-01-01 minus 1970-01-01, in seconds.
    public static let referenceOffset: Double = 978_307_200

    /// The seconds of 0000-01-01 and of 9999-12-31T23:59:59 since 1970: dates outside are no
    /// real app's data (a damaged value) and come out as their raw number, marked. Year 0 is in:
    /// `Date.distantPast` (0000-12-30), a common "never" value, must go back as it came.
    static let representable: ClosedRange<Double> = -62_167_219_200...253_402_300_799

    public static func iso8601(secondsSince2001 seconds: Double) -> String {
        let unix = seconds + referenceOffset
        guard seconds.isFinite, representable.contains(unix) else { return "out of range: \(seconds) seconds since 2001" }
        var whole = unix.rounded(.down)
        var micros = Int(((unix - whole) * 1_000_000).rounded())
        if micros == 1_000_000 { whole += 1; micros = 0 }
        var fraction: [UInt8] = []
        if micros > 0 {
            var value = micros
            var width = 6
            while value % 10 == 0 { value /= 10; width -= 1 }
            fraction = digitText(value, width)
        }
        let short = text(unixSeconds: Int64(whole), fraction: fraction)
        // A date with more than microseconds to it (a server's timestamp, a computed time) gets
        // every digit it has, so that a dump loads back bit for bit.
        // (`unix` itself may have lost what a tiny value has, so whole seconds are checked on `seconds`.)
        guard micros == 0 && whole - referenceOffset == seconds || secondsSince2001(iso8601: short) == seconds else {
            return exactText(seconds) ?? short
        }
        return short
    }

    /// What `UTCText.unixSeconds` reads from ``iso8601(secondsSince2001:)``'s text, worked out
    /// without the text for the short form of the dates apps store (whole seconds or up to
    /// microseconds, 1716 to 2286), through the text for the rest. A store's dates are read this
    /// way a million at a time: formatting, checking and reading the text again was a fifteenth
    /// of converting a SwiftData store's logs.
    public static func unixSeconds(secondsSince2001 seconds: Double) -> Double? {
        if let unix = shortFormUnixSeconds(seconds) { return unix }
        return UTCText.unixSeconds(iso8601(secondsSince2001: seconds))
    }

    /// ``unixSeconds(secondsSince2001:)`` by arithmetic alone, nil where that is not sure to give
    /// the text's double to the bit (the caller then reads the text).
    private static func shortFormUnixSeconds(_ seconds: Double) -> Double? {
        let unix = seconds + referenceOffset
        guard seconds.isFinite, representable.contains(unix) else { return nil }
        var whole = unix.rounded(.down)
        var micros = Int(((unix - whole) * 1_000_000).rounded())
        if micros == 1_000_000 { whole += 1; micros = 0 }
        // A carry into year 10000 is text the reading refuses.
        guard whole <= representable.upperBound else { return nil }
        guard micros > 0 else { return whole - referenceOffset == seconds ? whole : nil }
        var value = micros
        var width = 6
        while value % 10 == 0 { value /= 10; width -= 1 }
        // The short text's own check (it reads back as `seconds`), as ``secondsSince2001(iso8601:)`` reads it.
        let (scaled, overflow) = (Int64(whole) - Int64(referenceOffset)).multipliedReportingOverflow(by: powersOfTen[width])
        guard !overflow, (scaled + Int64(value)).magnitude <= 1 << 53,
              Double(scaled + Int64(value)) / Double(powersOfTen[width]) == seconds else { return nil }
        // `UTCText.unixSeconds`'s own arithmetic, so that the result is its double to the bit.
        return Double(Int64(whole)) + Double(value) / pow(10, Double(width))
    }

    /// The shortest decimal digits of `seconds`, split at the unix second below it.
    private static func exactText(_ seconds: Double) -> String? {
        let (negative, integer, fraction) = decimalDigits(seconds)
        guard !fraction.isEmpty, var whole = Int64(integer) else { return nil }
        var digits = fraction
        // -0.25 s is 0.75 s after the second before it.
        if negative { whole = -whole - 1; digits = tensComplement(fraction) }
        return text(unixSeconds: whole + Int64(referenceOffset), fraction: digits)
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fraction]Z` of whole seconds since 1970 and the fraction's digits.
    private static func text(unixSeconds: Int64, fraction: [UInt8]) -> String {
        var time = time_t(unixSeconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        // Digits by hand: this runs for every date of every row, and String(format:) costs more than the rest.
        var text: [UInt8] = []
        text.reserveCapacity(28 + fraction.count)
        // The representable range starts at year 0: no sign.
        text += digitText(Int(parts.tm_year) + 1900, 4)
        text.append(UInt8(ascii: "-")); text += digitText(Int(parts.tm_mon) + 1, 2)
        text.append(UInt8(ascii: "-")); text += digitText(Int(parts.tm_mday), 2)
        text.append(UInt8(ascii: "T")); text += digitText(Int(parts.tm_hour), 2)
        text.append(UInt8(ascii: ":")); text += digitText(Int(parts.tm_min), 2)
        text.append(UInt8(ascii: ":")); text += digitText(Int(parts.tm_sec), 2)
        if !fraction.isEmpty { text.append(UInt8(ascii: ".")); text += fraction }
        text.append(UInt8(ascii: "Z"))
        return String(decoding: text, as: UTF8.self)
    }

    private static func digitText(_ value: Int, _ count: Int) -> [UInt8] {
        var digits = [UInt8](repeating: UInt8(ascii: "0"), count: count)
        var rest = value
        for index in stride(from: count - 1, through: 0, by: -1) {
            digits[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        return digits
    }

    /// The sign, and the integer and fraction digits of the magnitude's shortest round-trip form,
    /// the exponent (`1e-05`, `5e-324`) written out; the fraction without trailing zeros.
    static func decimalDigits(_ value: Double) -> (negative: Bool, integer: String, fraction: [UInt8]) {
        let text = Array(value.magnitude.description.utf8)
        let exponentAt = text.firstIndex { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
        let mantissa = text[..<(exponentAt ?? text.count)]
        let exponent = exponentAt.flatMap { Int(String(decoding: text[($0 + 1)...], as: UTF8.self)) } ?? 0
        let point = mantissa.firstIndex(of: UInt8(ascii: ".")) ?? mantissa.endIndex
        let digits = Array(mantissa.filter { $0 != UInt8(ascii: ".") })
        let pointAt = point + exponent
        var integer: [UInt8], fraction: [UInt8]
        if pointAt <= 0 {
            integer = [UInt8(ascii: "0")]
            fraction = [UInt8](repeating: UInt8(ascii: "0"), count: -pointAt) + digits
        } else if pointAt >= digits.count {
            integer = digits + [UInt8](repeating: UInt8(ascii: "0"), count: pointAt - digits.count)
            fraction = []
        } else {
            integer = Array(digits[..<pointAt])
            fraction = Array(digits[pointAt...])
        }
        while fraction.last == UInt8(ascii: "0") { fraction.removeLast() }
        if integer.isEmpty { integer = [UInt8(ascii: "0")] }
        return (value.sign == .minus, String(decoding: integer, as: UTF8.self), fraction)
    }

    /// 10^k minus a k-digit fraction that is not all zeros: `25` → `75`, `005` → `995`.
    static func tensComplement(_ digits: [UInt8]) -> [UInt8] {
        var result = digits
        var seenNonZero = false
        for index in stride(from: digits.count - 1, through: 0, by: -1) {
            let digit = digits[index] - UInt8(ascii: "0")
            if seenNonZero {
                result[index] = UInt8(ascii: "0") + 9 - digit
            } else if digit != 0 {
                result[index] = UInt8(ascii: "0") + 10 - digit
                seenNonZero = true
            }
        }
        return result
    }
}

extension CoreDataDate {
    /// Seconds since 2001 of `YYYY-MM-DDTHH:MM:SS[.fraction]Z`, the form ``iso8601(secondsSince2001:)``
    /// writes (UTC), correctly rounded however many fraction digits it has; nil for any other text.
    public static func secondsSince2001(iso8601 text: String) -> Double? {
        var utf8 = text
        return utf8.withUTF8 { secondsSince2001(iso8601: $0) }
    }

    /// As ``secondsSince2001(iso8601:)-(String)``, over the text's UTF-8 bytes (SQL functions read them so).
    public static func secondsSince2001(iso8601 bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        guard bytes.count >= 20, bytes[bytes.count - 1] == UInt8(ascii: "Z"),
              let unix = UTCText.wholeUnixSeconds(UnsafeBufferPointer(rebasing: bytes[0..<19])) else { return nil }
        let whole = unix - Int64(referenceOffset)
        if bytes.count == 20 { return Double(whole) }
        guard bytes.count > 21, bytes[19] == UInt8(ascii: ".") else { return nil }
        let fraction = UnsafeBufferPointer(rebasing: bytes[20..<(bytes.count - 1)])
        guard fraction.count <= 400, fraction.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        // Whole seconds and fraction as one integer over a power of ten: both exact in a double
        // when the integer is below 2^53, so one division is the correctly rounded value (nearly
        // every date); past that, strtod reads the decimal, correctly rounded too.
        if fraction.count <= 15 {
            var digits: Int64 = 0
            for digit in fraction { digits = digits * 10 + Int64(digit - UInt8(ascii: "0")) }
            let (scaled, overflow) = whole.multipliedReportingOverflow(by: powersOfTen[fraction.count])
            let (numerator, overflowAgain) = scaled.addingReportingOverflow(digits)
            if !overflow, !overflowAgain, numerator.magnitude <= 1 << 53 {
                return Double(numerator) / Double(powersOfTen[fraction.count])
            }
        }
        guard fraction.contains(where: { $0 != UInt8(ascii: "0") }) else { return Double(whole) }
        let decimal = whole >= 0 ? "\(whole)." + String(decoding: fraction, as: UTF8.self)
            : "-\(-whole - 1)." + String(decoding: tensComplement(Array(fraction)), as: UTF8.self)
        return Double(decimal)
    }

    private static let powersOfTen: [Int64] = (0...18).reduce(into: []) { list, index in list.append(index == 0 ? 1 : list[index - 1] * 10) }
}
