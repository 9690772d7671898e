import Foundation

/// Writes JSON as UTF-8 bytes: compact (one line, for NDJSON) or pretty, optionally with
/// sorted keys so that the same value always gives the same bytes. `/` is not escaped and
/// non-ASCII text is written as is.
///
/// For example:
/// ```swift
/// var writer = JSONWriter(sortedKeys: true)
/// writer.write(["id": "A1", "tags": ["boro"]])
/// writer.bytes   // {"id":"A1","tags":["boro"]}
/// ```
public struct JSONWriter: Sendable {
    public var sortedKeys: Bool
    public var pretty: Bool
    public private(set) var bytes: [UInt8] = []
    /// The order by key of the last object written whose members were not in it. Objects of a
    /// stream often share their keys in the same order (every snapshot's parameters): the next
    /// such object is written in that order without sorting it again.
    private var lastOrder: (keys: [String], order: [Int]) = ([], [])

    public init(sortedKeys: Bool = true, pretty: Bool = false) {
        self.sortedKeys = sortedKeys
        self.pretty = pretty
    }

    public mutating func write(_ value: JSONValue) {
        write(value, depth: 0)
    }

    /// Empties the buffer, keeping its storage for the next record.
    public mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
    }

    public mutating func appendNewline() {
        bytes.append(0x0A)
    }

    /// Appends text that is already JSON syntax, such as a separator between streamed values.
    public mutating func appendRaw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Appends one byte of JSON syntax (`{`, `,`, a newline).
    public mutating func appendByte(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends bytes that are already JSON syntax.
    public mutating func appendRaw(_ syntax: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: syntax)
    }

    /// Appends UTF-8 text as a string literal, escaped as ``write(_:)`` escapes strings. For
    /// callers that hold text as bytes (SQLite columns) and would otherwise make a `String`.
    public mutating func appendString(utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        // Runs of text that need no escape are copied whole, not byte by byte, and are found
        // eight bytes at a time.
        var index = 0
        while index < utf8.count {
            if index + 8 <= utf8.count, let base = utf8.baseAddress,
               !Self.mayNeedEscape(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) {
                index += 8
                continue
            }
            let end = min(index + 8, utf8.count)
            while index < end {
                let byte = utf8[index]
                if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[0..<index]))
                    appendEscaping(UnsafeBufferPointer(rebasing: utf8[index...]))
                    bytes.append(UInt8(ascii: "\""))
                    return
                }
                index += 1
            }
        }
        bytes.append(contentsOf: utf8)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Text from its first byte that needs an escape: escaped into a buffer on the stack, a
    /// piece at a time, and appended once per piece. Appending around each escape was most of
    /// exporting JSON text columns, where every quote is escaped.
    private mutating func appendEscaping(_ utf8: UnsafeBufferPointer<UInt8>) {
        let piece = 1024
        // Six bytes at most for each (`\u001f`).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: piece * 6) { out in
            var start = 0
            while start < utf8.count {
                let end = min(start + piece, utf8.count)
                var count = 0
                for index in start..<end {
                    let byte = utf8[index]
                    guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
                        out[count] = byte
                        count += 1
                        continue
                    }
                    out[count] = 0x5C
                    switch byte {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"): out[count + 1] = byte; count += 2
                    case 0x0A: out[count + 1] = UInt8(ascii: "n"); count += 2
                    case 0x0D: out[count + 1] = UInt8(ascii: "r"); count += 2
                    case 0x09: out[count + 1] = UInt8(ascii: "t"); count += 2
                    case 0x08: out[count + 1] = UInt8(ascii: "b"); count += 2
                    case 0x0C: out[count + 1] = UInt8(ascii: "f"); count += 2
                    default:
                        out[count + 1] = UInt8(ascii: "u")
                        out[count + 2] = 0x30
                        out[count + 3] = 0x30
                        out[count + 4] = Self.hexDigits[Int(byte >> 4)]
                        out[count + 5] = Self.hexDigits[Int(byte & 0x0F)]
                        count += 6
                    }
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: out[0..<count]))
                start = end
            }
        }
    }

    /// Whether any of eight bytes may be a control character, `"` or `\` (never a false "no";
    /// a false "yes" only sends the word to the byte-by-byte check).
    private static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highs != 0 }
        let control = (word &- ones &* 0x20) & ~word & highs != 0
        return control || hasZeroByte(word ^ (ones &* 0x22)) || hasZeroByte(word ^ (ones &* 0x5C))
    }

    /// Appends an integer in decimal, as ``JSONValue/integer(_:)`` writes it.
    public mutating func appendInteger(_ value: Int64) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var magnitude = value.magnitude
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// Appends a double as ``JSONValue/double(_:)`` writes it: the shortest number that reads
    /// back the same, or a string for a non-finite value.
    public mutating func appendDouble(_ value: Double) {
        if value == value.rounded(.towardZero), abs(value) < 1e15 {
            appendInteger(Int64(value))
        } else {
            write(.double(value))
        }
    }

    /// Appends the value, compact with sorted keys, to `bytes`: for callers that gather several
    /// values in one buffer (a row's columns) and would otherwise make a `String` of each.
    public static func append(_ value: JSONValue, to bytes: inout [UInt8]) {
        var writer = JSONWriter()
        writer.append(value, to: &bytes)
    }

    /// As ``append(_:to:)-(JSONValue,_)``, with this writer's settings, and what it learnt of the
    /// objects before (their key order) kept for the next values.
    public mutating func append(_ value: JSONValue, to bytes: inout [UInt8]) {
        swap(&self.bytes, &bytes)
        write(value)
        swap(&self.bytes, &bytes)
    }

    /// The value as a string, for tests and small documents.
    public static func string(_ value: JSONValue, sortedKeys: Bool = true, pretty: Bool = false) -> String {
        var writer = JSONWriter(sortedKeys: sortedKeys, pretty: pretty)
        writer.bytes.reserveCapacity(128)
        writer.write(value)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    private mutating func write(_ value: JSONValue, depth: Int) {
        switch value {
        case .null: append("null")
        case .bool(let flag): append(flag ? "true" : "false")
        case .number(let number):
            bytes.append(contentsOf: number.text.utf8)
        case .string(let text): writeString(text)
        case .array(let elements):
            guard !elements.isEmpty else { return append("[]") }
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                newline(depth + 1)
                write(element, depth: depth + 1)
            }
            newline(depth)
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            guard !object.isEmpty else { return append("{}") }
            bytes.append(UInt8(ascii: "{"))
            let members = object.members
            if !sortedKeys || Self.inOrder(members) {
                for index in members.indices { writeMember(members[index], first: index == 0, depth: depth) }
            } else if members.count == lastOrder.keys.count, members.indices.allSatisfy({ members[$0].key == lastOrder.keys[$0] }) {
                let order = lastOrder.order
                for (position, index) in order.enumerated() { writeMember(members[index], first: position == 0, depth: depth) }
            } else {
                // The order by key, sorted as positions in a buffer on the stack: objects are small,
                // and sorting the members themselves made a new array of them each time.
                withUnsafeTemporaryAllocation(of: Int.self, capacity: members.count) { order in
                    for index in members.indices {
                        var slot = index
                        while slot > 0, Self.precedes(members[index].key, members[order[slot - 1]].key) {
                            order[slot] = order[slot - 1]
                            slot -= 1
                        }
                        order[slot] = index
                    }
                    for (position, index) in order.enumerated() { writeMember(members[index], first: position == 0, depth: depth) }
                    lastOrder = (members.map(\.key), Array(order))
                }
            }
            newline(depth)
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private mutating func writeMember(_ member: (key: String, value: JSONValue), first: Bool, depth: Int) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        newline(depth + 1)
        writeString(member.key)
        bytes.append(UInt8(ascii: ":"))
        if pretty { bytes.append(UInt8(ascii: " ")) }
        write(member.value, depth: depth + 1)
    }

    /// Byte order of the keys' UTF-8, which is also code point order. Byte by byte: keys mostly
    /// differ in their first bytes, and lending both strings' bytes to memcmp cost more.
    private static func precedes(_ a: String, _ b: String) -> Bool {
        var left = a.utf8.makeIterator(), right = b.utf8.makeIterator()
        while true {
            guard let x = left.next() else { return right.next() != nil }
            guard let y = right.next() else { return false }
            if x != y { return x < y }
        }
    }

    private mutating func newline(_ depth: Int) {
        guard pretty else { return }
        bytes.append(0x0A)
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth * 2))
    }

    private mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func inOrder(_ members: [(key: String, value: JSONValue)]) -> Bool {
        var index = 1
        while index < members.count {
            guard precedes(members[index - 1].key, members[index].key) else { return false }
            index += 1
        }
        return true
    }

    private mutating func writeString(_ text: String) {
        // Native strings lend their bytes as they are; only others are copied first.
        if text.utf8.withContiguousStorageIfAvailable({ appendString(utf8: $0) }) == nil {
            var copy = text
            copy.withUTF8 { appendString(utf8: $0) }
        }
    }
}
