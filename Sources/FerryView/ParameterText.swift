/// A snapshot's parameters as a person reads them: `dose 15 g, grind fine`. Ferry writes them
/// in one compact form, `{"dose":{"unit":"g","value":15},"grind":{"text":"fine"}}`, read here
/// in one pass over the bytes, as a log page has a million of them. Anything else (spaces,
/// escapes, other members) is left to the caller's full JSON reading.
enum ParameterText {
    /// Writes the parameters and returns true, or returns false having written part of them:
    /// the caller cuts the page back and reads the bytes another way.
    static func render(_ json: UnsafeBufferPointer<UInt8>, into html: inout HTMLBuffer) -> Bool {
        var scanner = Scanner(bytes: json)
        guard scanner.take(UInt8(ascii: "{")) else { return false }
        if scanner.take(UInt8(ascii: "}")) { return scanner.atEnd }
        var first = true
        repeat {
            guard let name = scanner.string(), scanner.take(UInt8(ascii: ":")), scanner.take(UInt8(ascii: "{")) else { return false }
            var value: UnsafeBufferPointer<UInt8>?
            var unit: UnsafeBufferPointer<UInt8>?
            if !scanner.take(UInt8(ascii: "}")) {
                repeat {
                    guard let key = scanner.string(), scanner.take(UInt8(ascii: ":")) else { return false }
                    let found = scanner.peek == UInt8(ascii: "\"") ? scanner.string() : scanner.number()
                    guard let found else { return false }
                    if key.elementsEqual("value".utf8) || key.elementsEqual("text".utf8) {
                        value = found
                    } else if key.elementsEqual("unit".utf8) {
                        unit = found
                    } else {
                        return false
                    }
                } while scanner.take(UInt8(ascii: ","))
                guard scanner.take(UInt8(ascii: "}")) else { return false }
            }
            if !first { html.raw(", ") }
            first = false
            ViewWords.name(name, into: &html)
            for part in [value, unit] {
                guard let part else { continue }
                html.raw(" ")
                html.text(utf8: part)
            }
        } while scanner.take(UInt8(ascii: ","))
        return scanner.take(UInt8(ascii: "}")) && scanner.atEnd
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        var atEnd: Bool { position == bytes.count }
        var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

        mutating func take(_ byte: UInt8) -> Bool {
            guard peek == byte else { return false }
            position += 1
            return true
        }

        /// A string's bytes between its quotes; nil for an escape or a control character.
        mutating func string() -> UnsafeBufferPointer<UInt8>? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = position
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    position += 1
                    return UnsafeBufferPointer(rebasing: bytes[start..<position - 1])
                }
                if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
                position += 1
            }
            return nil
        }

        /// A number's bytes, as JSON writes one (digits, sign, point, exponent).
        mutating func number() -> UnsafeBufferPointer<UInt8>? {
            let start = position
            while let byte = peek, (0x30...0x39).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                position += 1
            }
            return position > start ? UnsafeBufferPointer(rebasing: bytes[start..<position]) : nil
        }
    }
}
