import FerryCanonical
import FerryJSON
import Foundation

/// Reads the date forms legacy data holds: numbers of seconds since 2001 (what `JSONEncoder`
/// writes by default), Unix seconds, Unix milliseconds, ISO 8601 with or without zone or
/// fraction, and `YYYY-MM-DD`.
///
/// A bare number is ambiguous. Numbers over 1e11 are milliseconds. A number that read as
/// seconds since 2001 lands in 1990…2044 is 2001-based (JSONEncoder's default, what the apps
/// write); else it is Unix seconds: today's Unix times (1.7e9) would land after 2050 read the
/// other way. Unix times before 2015 are the blind spot: `--epoch` decides for them.
public struct LegacyDateDecoder: Sendable {
    public enum Epoch: String, Sendable, CaseIterable {
        case automatic = "auto", referenceDate2001 = "2001", unixSeconds = "unix", unixMilliseconds = "unix-ms"
    }

    public var epoch: Epoch

    public init(epoch: Epoch = .automatic) {
        self.epoch = epoch
    }

    static let referenceOffset: Double = 978_307_200
    static let plausible: ClosedRange<Double> = 631_152_000...2_366_841_599   // 1990-01-01 … 2044-12-31

    /// Unix seconds of the value, or nil when it is no date form.
    public func unixSeconds(_ value: JSONValue) -> Double? {
        switch value {
        case .number(let number):
            guard let raw = number.double else { return nil }
            return unixSeconds(number: raw)
        case .string(let text):
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if let iso = CanonicalTime.unixSeconds(trimmed) { return iso }
            if let raw = Double(trimmed) { return unixSeconds(number: raw) }
            return nil
        default:
            return nil
        }
    }

    public func unixSeconds(number raw: Double) -> Double? {
        guard raw.isFinite else { return nil }
        switch epoch {
        case .referenceDate2001: return raw + Self.referenceOffset
        case .unixSeconds: return raw
        case .unixMilliseconds: return raw / 1000
        case .automatic:
            if abs(raw) > 1e11 { return raw / 1000 }
            if Self.plausible.contains(raw + Self.referenceOffset) { return raw + Self.referenceOffset }
            return raw
        }
    }
}
