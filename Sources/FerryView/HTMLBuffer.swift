/// HTML written as bytes. Everything that comes from the data goes through ``text(_:)``, which
/// escapes the five characters that could end a text run or an attribute value, so no value can
/// open an element, close a quoted attribute or start a character reference.
struct HTMLBuffer {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// Markup of Ferry's own, never data.
    mutating func raw(_ markup: StaticString) {
        markup.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Markup Ferry built from its own values (page names, counts, hex ids checked as such).
    mutating func trusted(_ markup: String) {
        bytes.append(contentsOf: markup.utf8)
    }

    mutating func number<Integer: BinaryInteger>(_ value: Integer) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// Data, escaped: safe in element content and in double-quoted attribute values.
    mutating func text(_ value: String) {
        var value = value
        value.withUTF8 { text(utf8: $0) }
    }

    /// Data, escaped, between two pieces of Ferry's markup; nothing at all for nil.
    mutating func text(_ value: String?, after before: StaticString, before after: StaticString = "") {
        guard let value else { return }
        raw(before)
        text(value)
        raw(after)
    }

    /// Data given as its UTF-8 bytes, escaped; nothing for nil.
    mutating func text(utf8 value: UnsafeBufferPointer<UInt8>?) {
        if let value { text(utf8: value) }
    }

    /// Data given as its UTF-8 bytes, escaped.
    mutating func text(utf8 value: UnsafeBufferPointer<UInt8>) {
        var start = 0
        for index in 0..<value.count {
            let replacement: StaticString
            switch value[index] {
            case UInt8(ascii: "&"): replacement = "&amp;"
            case UInt8(ascii: "<"): replacement = "&lt;"
            case UInt8(ascii: ">"): replacement = "&gt;"
            case UInt8(ascii: "\""): replacement = "&quot;"
            case UInt8(ascii: "'"): replacement = "&#39;"
            // NUL is not allowed in HTML text: shown as the replacement character.
            case 0: replacement = "\u{FFFD}"
            default: continue
            }
            if start < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: value[start..<index])) }
            replacement.withUTF8Buffer { bytes.append(contentsOf: $0) }
            start = index + 1
        }
        if start < value.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: value[start...])) }
    }

    /// At most `limit` characters of a value, with an ellipsis when cut: for pages whose size
    /// must stay bounded whatever the data holds.
    mutating func text(_ value: String, limit: Int) {
        guard value.count > limit else { return text(value) }
        text(String(value.prefix(limit)) + "…")
    }

    mutating func appendBytes(_ slice: ArraySlice<UInt8>) {
        bytes.append(contentsOf: slice)
    }

    var count: Int { bytes.count }

    mutating func truncate(to count: Int) {
        bytes.removeSubrange(count...)
    }

    /// A record's anchor written from its id's bytes: as ``RecordPlaces/anchor(_:)`` writes it.
    mutating func anchor(utf8 id: UnsafeBufferPointer<UInt8>) {
        for byte in id {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
                bytes.append(byte)
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            }
        }
    }
}

