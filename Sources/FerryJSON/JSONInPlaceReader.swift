import FerrySystem

/// Reads JSON member by member straight from its bytes, making nothing, for a caller that
/// knows the shape of a record and takes its fields as they come: no ``JSONValue`` tree, no
/// strings for keys, where building and freeing trees was most of reading a stream.
///
/// It takes only plain JSON: keys of printable ASCII without escapes, strings without escapes
/// or control characters (valid UTF-8), numbers as JSON writes them, objects. On anything else
/// it gives up (``GiveUp``), and the caller reads the same bytes with ``JSONReader``, which reads
/// all of JSON and says what is wrong. So whatever it accepts, ``JSONReader`` accepts too, with
/// the same values; a caller must still refuse duplicate keys and give up on keys it does not know.
///
/// For example:
/// ```swift
/// var reader = JSONInPlaceReader(bytes)
/// try reader.beginObject()
/// while let key = try reader.nextKey() { … try reader.string() … }
/// let length = reader.position   // just past the closing brace
/// ```
public struct JSONInPlaceReader {
    /// The bytes are not plain enough to be read in place; read them with ``JSONReader``.
    public struct GiveUp: Error {
        public init() {}
    }

    public let bytes: UnsafeBufferPointer<UInt8>
    /// The index of the next byte to read.
    public private(set) var position = 0
    /// Per open object (a bit per nesting level): whether a member has been read yet.
    private var membersSeen: UInt64 = 0
    private var depth = 0

    public init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// What the next value starts with, after whitespace: `{`, `"`, a digit or `-`, …; nil at the end.
    public mutating func peekValue() -> UInt8? {
        skipWhitespace()
        return position < bytes.count ? bytes[position] : nil
    }

    /// Enters the object that is the next value.
    public mutating func beginObject() throws(GiveUp) {
        guard peekValue() == UInt8(ascii: "{"), depth < 64 else { throw GiveUp() }
        position += 1
        depth += 1
        membersSeen &= ~(1 << UInt64(depth - 1))
    }

    /// The next member's key, its `:` read; nil once the object's `}` is read.
    public mutating func nextKey() throws(GiveUp) -> UnsafeBufferPointer<UInt8>? {
        guard depth > 0 else { throw GiveUp() }
        let bit: UInt64 = 1 << UInt64(depth - 1)
        skipWhitespace()
        guard position < bytes.count else { throw GiveUp() }
        if membersSeen & bit != 0 {
            if bytes[position] == UInt8(ascii: "}") { return close() }
            guard bytes[position] == UInt8(ascii: ",") else { throw GiveUp() }
            position += 1
            skipWhitespace()
        } else if bytes[position] == UInt8(ascii: "}") {
            return close()
        }
        membersSeen |= bit
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw GiveUp() }
        let start = position + 1
        var end = start
        // Printable ASCII only: an escape or any other byte leaves the key to JSONReader.
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] >= 0x20, bytes[end] < 0x7F, bytes[end] != UInt8(ascii: "\\") {
            end += 1
        }
        guard end < bytes.count, bytes[end] == UInt8(ascii: "\"") else { throw GiveUp() }
        position = end + 1
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw GiveUp() }
        position += 1
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    private mutating func close() -> UnsafeBufferPointer<UInt8>? {
        position += 1
        depth -= 1
        return nil
    }

    /// The next value, a string without escapes: its bytes, valid UTF-8.
    public mutating func string() throws(GiveUp) -> UnsafeBufferPointer<UInt8> {
        guard peekValue() == UInt8(ascii: "\"") else { throw GiveUp() }
        let start = position + 1
        var end = start
        var high: UInt8 = 0
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") { break }
            // An escape, or a control character JSONReader refuses.
            if byte == UInt8(ascii: "\\") || byte < 0x20 { throw GiveUp() }
            high |= byte
            end += 1
        }
        guard end < bytes.count else { throw GiveUp() }
        let text = UnsafeBufferPointer(rebasing: bytes[start..<end])
        if high >= 0x80, String(validating: text, as: UTF8.self) == nil { throw GiveUp() }
        position = end + 1
        return text
    }

    /// The next value, a number as JSON's grammar has it: its bytes.
    public mutating func number() throws(GiveUp) -> UnsafeBufferPointer<UInt8> {
        _ = peekValue()
        let start = position
        if byte() == UInt8(ascii: "-") { position += 1 }
        guard let first = byte(), isDigit(first) else { throw GiveUp() }
        position += 1
        if first == UInt8(ascii: "0") {
            if let next = byte(), isDigit(next) { throw GiveUp() }
        } else {
            skipDigits()
        }
        if byte() == UInt8(ascii: ".") {
            position += 1
            guard let next = byte(), isDigit(next) else { throw GiveUp() }
            skipDigits()
        }
        if byte() == UInt8(ascii: "e") || byte() == UInt8(ascii: "E") {
            position += 1
            if byte() == UInt8(ascii: "+") || byte() == UInt8(ascii: "-") { position += 1 }
            guard let next = byte(), isDigit(next) else { throw GiveUp() }
            skipDigits()
        }
        return UnsafeBufferPointer(rebasing: bytes[start..<position])
    }

    /// Moves past the next value, an object or an array, by its brackets and strings alone:
    /// nothing in it is checked, so this is no promise that ``JSONReader`` accepts it. For a first
    /// pass that takes a record's few top-level members and reads the same bytes whole later.
    public mutating func skipContainerUnchecked() throws(GiveUp) {
        guard let first = peekValue(), first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { throw GiveUp() }
        var depth = 0
        var index = position
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                // To the closing quote, found by memchr: one after an odd run of backslashes is escaped.
                while true {
                    guard index < count, let found = memchr(bytes.baseAddress! + index, 0x22, count - index) else { throw GiveUp() }
                    let quote = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - bytes.baseAddress!
                    var backslashes = 0
                    while quote - backslashes - 1 >= index, bytes[quote - backslashes - 1] == UInt8(ascii: "\\") { backslashes += 1 }
                    index = quote + 1
                    if backslashes % 2 == 0 { break }
                }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 {
                    position = index
                    return
                }
            default:
                break
            }
        }
        throw GiveUp()
    }

    private func byte() -> UInt8? { position < bytes.count ? bytes[position] : nil }
    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func skipDigits() {
        while position < bytes.count, isDigit(bytes[position]) { position += 1 }
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }
}
