@testable import FerryCanonical
import FerryConvert
import FerryJSON
import Foundation
import Testing

/// The value forms legacy data holds: dates of every kind seen in real stores, exact decimals,
/// stable ids.
@Suite struct ValueTests {
    /// 2025-10-20T07:45:00Z written every way the apps and real exports write it.
    @Test(arguments: [
        JSONValue.integer(782_639_100), .integer(1_760_946_300), .integer(1_760_946_300_000), .string("2025-10-20T07:45:00Z"),
        .string("2025-10-20T09:45:00+02:00"), .string("2025-10-20T07:45:00"), .string("2025-10-20T07:45:00.000Z"), .string("782639100"),
        .string("2025-10-20 07:45:00Z"),
    ])
    func everyDateFormReadsTheSameInstant(_ value: JSONValue) {
        let seconds = LegacyDateDecoder().unixSeconds(value)
        #expect(seconds.map { CanonicalTime.string(unixSeconds: $0) } == "2025-10-20T07:45:00Z")
    }

    @Test func dayOnlyDatesAndFractionsAreKept() {
        #expect(LegacyDateDecoder().unixSeconds("2025-10-20").map { CanonicalTime.string(unixSeconds: $0) } == "2025-10-20T00:00:00Z")
        #expect(CanonicalTime.string(unixSeconds: 1_760_946_300.25) == "2025-10-20T07:45:00.25Z")
        #expect(LegacyDateDecoder().unixSeconds("2025-02-30") == nil)
        #expect(LegacyDateDecoder().unixSeconds("next tuesday") == nil)
        #expect(LegacyDateDecoder().unixSeconds(.bool(true)) == nil)
    }

    /// Ferry's own form (`…Z`) is read by hand, fast; every other form through the calendar. Both
    /// must give the same instant, fractions and leap days included.
    @Test func theFastFormReadsAsTheCalendarDoes() {
        var generator = SystemRandomNumberGenerator()
        var instants: [Double] = [0, -62_135_596_800, 253_402_300_799, 951_782_400, 1_709_164_800.5, 782_639_100.380816]
        for _ in 0..<2000 { instants.append(Double(Int64.random(in: -62_135_596_800...253_402_300_799, using: &generator)) + Double(Int.random(in: 0..<1_000_000, using: &generator)) / 1e6) }
        for instant in instants {
            let text = CanonicalTime.string(unixSeconds: instant)
            #expect(text.hasSuffix("Z"))
            // What Ferry writes (gmtime: the proleptic Gregorian calendar) reads back to the microsecond.
            #expect(CanonicalTime.unixSeconds(text).map { ($0 * 1e6).rounded() } == (instant * 1e6).rounded(), "\(text)")
            // Foundation's calendar is Julian before 1582-10-15; from 1583 on both agree exactly.
            guard instant > -12_212_553_600 else { continue }
            let slow = CanonicalTime.unixSeconds(String(text.dropLast()) + "+00:00")
            #expect(CanonicalTime.unixSeconds(text) == slow, "\(text)")
        }
        for invalid in ["2025-02-29T00:00:00Z", "2024-13-01T00:00:00Z", "2024-04-31T00:00:00Z", "2024-01-01T24:00:00Z", "2024-01-01T00:00:00.Z"] {
            #expect(CanonicalTime.unixSeconds(invalid) == nil, "\(invalid)")
        }
        #expect(CanonicalTime.unixSeconds("2024-02-29T00:00:00Z") != nil)
    }

    @Test func anEpochCanBeForced() {
        // 1e9 reads as a 2032 date since 2001 by default; as Unix seconds it is 2001-09-09.
        #expect(LegacyDateDecoder().unixSeconds(.integer(1_500_000_000)).map { CanonicalTime.string(unixSeconds: $0) } == "2017-07-14T02:40:00Z")
        #expect(LegacyDateDecoder().unixSeconds(.integer(1_000_000_000)).map { CanonicalTime.string(unixSeconds: $0) } == "2032-09-09T01:46:40Z")
        #expect(LegacyDateDecoder(epoch: .unixSeconds).unixSeconds(.integer(1_000_000_000)).map { CanonicalTime.string(unixSeconds: $0) }
                == "2001-09-09T01:46:40Z")
        #expect(LegacyDateDecoder(epoch: .referenceDate2001).unixSeconds(.integer(0)).map { CanonicalTime.string(unixSeconds: $0) }
                == "2001-01-01T00:00:00Z")
    }

    @Test func decimalsStayExact() throws {
        #expect(DecimalText.from(try JSONReader().read(Array("0.1".utf8))) == "0.1")
        #expect(DecimalText.from("2.30") == "2.3")
        #expect(DecimalText.from(" 5 ") == "5")
        #expect(DecimalText.from("1e2") == "100")
        #expect(DecimalText.from("1/2") == nil)
        #expect(DecimalText.from("") == nil)
        #expect(DecimalText.from(.bool(true)) == nil)
    }

    @Test func stableIdsAreVersion5AndDeterministic() {
        let id = StableID.make("molten", "store", "ProjectStep/p1")
        #expect(id == StableID.make("molten", "store", "ProjectStep/p1"))
        #expect(id != StableID.make("molten", "store", "ProjectStep/p2"))
        #expect(id.count == 36 && id == id.uppercased())
        #expect(Array(id)[14] == "5")
        // Fixed forever: SHA-1 of Ferry's namespace and the parts joined by U+001F (Python's hashlib gives the same).
        #expect(id == "21BA6E48-544B-5015-8838-EF411AE0907C")
        #expect(StableID.make(["één"]) == "71C447AA-98D8-553E-9CC1-F477A412B677")
        #expect("89AB".contains(Array(id)[19]))
        #expect(StableID.normalized("a0a0a0a0-1111-4222-8333-444444444444") == "A0A0A0A0-1111-4222-8333-444444444444")
        #expect(StableID.normalized("not-a-uuid") == nil)
    }
}

/// ISO 8601 text is read by hand for speed; the regular expression and calendar it replaced
/// stay for what the hand reading leaves, and both give the same seconds on every form.
@Suite struct CanonicalTimeReadingTests {
    static let forms: [String] = {
        var texts = ["2024-02-29", "2023-02-29", "2024-13-01", "2024-00-10", "2024-04-31", "2024-12-31T23:59:59Z",
                     "2024-06-30T23:59:60Z", "2024-01-01T24:00", "2024-01-01 10:30", "2024-01-01T10:30:15,5+02:00",
                     "2024-01-01T10:30:15.123456789-0530", "2024-01-01T10:30:15.1234567890Z", "2024-01-01T", "2024-01-01 Z",
                     "2024-01-01  +01:00", "2024-01-01T10:30:5", "1582-10-10T00:00:00Z", "1583-01-01", "9999-12-31T23:59:59Z",
                     "0001-01-01", "2024-01-01T10:30:15Z\n", "2024-1-01", "20240101", "2024-01-01T10:30:15+1", "٢٠٢٤-01-01",
                     // Where adding the fraction before or after the offset rounds differently.
                     "2004-01-10T14:37:00.5193585+01:00", "2038-01-19T03:14:07.9999999-05:00", "1987-01-05T12:00:00.123456789+14:00"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let year = Int.random(in: 1583...9999, using: &generator), month = Int.random(in: 0...13, using: &generator)
            let day = Int.random(in: 0...32, using: &generator), hour = Int.random(in: 0...24, using: &generator)
            let minute = Int.random(in: 0...60, using: &generator), second = Int.random(in: 0...61, using: &generator)
            let separator = ["T", " "].randomElement(using: &generator)!
            let fraction = ["", ".5", ",25", ".000001", ".123456789"].randomElement(using: &generator)!
            let zone = ["", "Z", "+02:00", "-0530", " Z", "+14:00"].randomElement(using: &generator)!
            let date = String(format: "%04d-%02d-%02d", year, month, day)
            texts.append(date)
            texts.append(date + separator + String(format: "%02d:%02d", hour, minute) + zone)
            texts.append(date + separator + String(format: "%02d:%02d:%02d", hour, minute, second) + fraction + zone)
        }
        return texts
    }()

    @Test func theHandReadingGivesWhatTheExpressionGives() {
        var read = 0
        for text in Self.forms {
            guard let hand = ISO8601Text(text) else { continue }
            read += 1
            #expect(hand.seconds == CanonicalTime.matchedSeconds(text), "\(text)")
        }
        // The forms it leaves to the expression are the odd ones, not most.
        #expect(read > Self.forms.count * 9 / 10)
    }
}

/// White space trimmed by hand is what Foundation trims, scalar by scalar.
@Suite struct TrimmedTextTests {
    @Test func everyScalarIsTrimmedAsFoundationTrimsIt() {
        for value in UInt32(0)..<0x3100 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = "\(Character(scalar))x\(Character(scalar))"
            #expect(text.trimmedWhitespace == text.trimmingCharacters(in: .whitespacesAndNewlines), "U+\(String(value, radix: 16))")
        }
        #expect("\u{200B} soup \u{200B}".trimmedWhitespace == "soup")
    }
}
