/// iCalendar's content lines (RFC 5545 §3.1): `NAME;PARAM=V:value`, CRLF at the end, lines
/// longer than 75 octets folded (CRLF and a space) between characters, never inside one; TEXT
/// values escaped (§3.3.11: backslash, semicolon, comma, line breaks as `\n`).
struct ICalendarText {
    private(set) var bytes: [UInt8] = []
    /// `BEGIN:VTODO` and `BEGIN:VEVENT` lines written.
    private(set) var entries = 0

    /// The bytes so far, handed over; the text goes on from empty.
    mutating func take() -> [UInt8] {
        defer { bytes = [] }
        return bytes
    }

    /// A property whose value is TEXT, escaped.
    mutating func text(_ name: String, _ value: String) {
        line(name, Self.escaped(value))
    }

    /// A property whose value is already in its type's syntax (dates, numbers, RRULE, lists of escaped texts).
    mutating func line(_ name: String, _ value: String) {
        if name == "BEGIN", value == "VTODO" || value == "VEVENT" { entries += 1 }
        let content = Array("\(name):\(value)".utf8)
        var width = 0
        var index = 0
        while index < content.count {
            // One character's bytes: a lead byte and its continuation bytes (10xxxxxx).
            var end = index + 1
            while end < content.count, content[end] & 0xC0 == 0x80 { end += 1 }
            if width + (end - index) > 75 {
                bytes.append(contentsOf: [0x0D, 0x0A, 0x20])
                width = 1
            }
            bytes.append(contentsOf: content[index..<end])
            width += end - index
            index = end
        }
        bytes.append(contentsOf: [0x0D, 0x0A])
    }

    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            defer { previousWasCR = scalar == "\r" }
            switch scalar {
            case "\\": result += "\\\\"
            case ";": result += "\\;"
            case ",": result += "\\,"
            case "\r": result += "\\n"
            case "\n": if !previousWasCR { result += "\\n" }
            // Other control characters are not allowed in TEXT (§3.1: CONTROL); a tab is.
            case _ where scalar.value < 0x20 && scalar != "\t", "\u{7F}": result += " "
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `20251020T074500Z` from `2025-10-20T07:45:00.25Z` (UTC; iCalendar has no fractions).
    static func dateTime(_ time: String) -> String? {
        let digits = Array(time.utf8)
        guard digits.count >= 20, digits[4] == UInt8(ascii: "-"), digits[10] == UInt8(ascii: "T"), digits.last == UInt8(ascii: "Z") else { return nil }
        let picked = [0, 1, 2, 3, 5, 6, 8, 9].map { digits[$0] } + [UInt8(ascii: "T")] + [11, 12, 14, 15, 17, 18].map { digits[$0] }
        guard picked.enumerated().allSatisfy({ $0.offset == 8 || (0x30...0x39).contains($0.element) }) else { return nil }
        return String(decoding: picked, as: UTF8.self) + "Z"
    }

    /// `20251020` from a canonical time or a `YYYY-MM-DD` date.
    static func date(_ time: String) -> String? {
        let digits = Array(time.utf8)
        guard digits.count >= 10, digits[4] == UInt8(ascii: "-"), digits[7] == UInt8(ascii: "-") else { return nil }
        let picked = [0, 1, 2, 3, 5, 6, 8, 9].map { digits[$0] }
        guard picked.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return String(decoding: picked, as: UTF8.self)
    }
}
