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
        case .number(let number): append(number.text)
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
            let members = sortedKeys && !Self.inOrder(object.members)
                ? object.members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) } : object.members
            for (index, member) in members.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                newline(depth + 1)
                writeString(member.key)
                bytes.append(UInt8(ascii: ":"))
                if pretty { bytes.append(UInt8(ascii: " ")) }
                write(member.value, depth: depth + 1)
            }
            newline(depth)
            bytes.append(UInt8(ascii: "}"))
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
        zip(members, members.dropFirst()).allSatisfy { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    }

    private mutating func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        // Runs of text that need no escape are copied whole, not byte by byte.
        text.withUTF8 { utf8 in
            var start = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                appendEscaped(byte)
                start = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendEscaped(_ byte: UInt8) {
        bytes.append(0x5C)
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        default:
            bytes.append(UInt8(ascii: "u"))
            bytes.append(0x30)
            bytes.append(0x30)
            bytes.append(Self.hexDigits[Int(byte >> 4)])
            bytes.append(Self.hexDigits[Int(byte & 0x0F)])
        }
    }
}
