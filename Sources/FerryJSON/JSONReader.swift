import FerrySystem

/// A strict JSON parser for untrusted input (RFC 8259): UTF-8 only, no trailing commas or
/// comments, duplicate keys refused, nesting bounded, numbers kept as written.
///
/// Errors name the byte offset, line and column, and the path to the value (`[3].recurrence.end`).
///
/// For example:
/// ```swift
/// let tasks = try JSONReader().read(Array(data))
/// ```
public struct JSONReader: Sendable {
    /// Deeper input is refused before the stack is at risk; real legacy files nest under 10.
    public var maximumDepth = 512
    public var allowsDuplicateKeys = false

    public init() {}

    /// Reads exactly one JSON value; whitespace may surround it, nothing else.
    /// - Throws: ``JSONReadError``.
    public func read(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONReadError) -> JSONValue {
        var scratch = ReadScratch()
        return try read(bytes, reusing: &scratch)
    }

    /// Reads as ``read(_:)-(UnsafeBufferPointer<UInt8>)`` does, with the working storage a
    /// stream of records keeps from one record to the next.
    func read(_ bytes: UnsafeBufferPointer<UInt8>, reusing scratch: inout ReadScratch) throws(JSONReadError) -> JSONValue {
        try parse(bytes, reusing: &scratch) { (parser) throws(JSONReadError) in try parser.parseDocument() }
    }

    /// The object or array at the start of `bytes` and the length it takes, whatever follows
    /// it; nil when they do not start with one, whole and valid.
    func readContainer(atStartOf bytes: UnsafeBufferPointer<UInt8>, reusing scratch: inout ReadScratch) -> (value: JSONValue, length: Int)? {
        guard let first = bytes.first, first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { return nil }
        return try? parse(bytes, reusing: &scratch) { (parser) throws(JSONReadError) in (try parser.parseValue(), parser.index) }
    }

    /// Runs `body` on a parser of `bytes` that works in `scratch`.
    private func parse<T>(_ bytes: UnsafeBufferPointer<UInt8>, reusing scratch: inout ReadScratch,
                          _ body: (inout Parser) throws(JSONReadError) -> T) throws(JSONReadError) -> T {
        var parser = Parser(bytes: bytes, maximumDepth: maximumDepth, allowsDuplicateKeys: allowsDuplicateKeys)
        swap(&parser.scratch, &scratch)
        defer {
            swap(&parser.scratch, &scratch)
            // A document that failed leaves the members of its open objects.
            scratch.stack.members.removeAll(keepingCapacity: true)
        }
        return try body(&parser)
    }

    public func read(_ bytes: [UInt8]) throws(JSONReadError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONReadError) in try read(buffer) }
        }.get()
    }
}

/// Reads one document after another, as ``JSONReader`` does, keeping its working storage from
/// one to the next: the lines of an NDJSON file repeat the same keys.
public struct JSONDocumentReader {
    public var reader: JSONReader
    private var scratch = ReadScratch()

    public init(_ reader: JSONReader = JSONReader()) {
        self.reader = reader
    }

    /// Reads exactly one JSON value; whitespace may surround it, nothing else.
    public mutating func read(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONReadError) -> JSONValue {
        try reader.read(bytes, reusing: &scratch)
    }
}

/// Why and where JSON could not be read.
public struct JSONReadError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case empty
        case unexpectedEnd
        case unexpectedCharacter(String)
        case invalidUTF8
        case invalidEscape
        case unpairedSurrogate
        case controlCharacterInString
        case invalidNumber
        case tooDeep(limit: Int)
        case duplicateKey(String)
        case trailingContent
        case utf16
    }

    public var kind: Kind
    /// Byte offset from the start of the input.
    public var offset: Int
    public var line: Int
    public var column: Int
    /// Where in the document, such as `[3].recurrence.end`; empty at the top level.
    public var path: String

    public var message: String {
        switch kind {
        case .empty: return "no JSON value (the input is empty)"
        case .unexpectedEnd: return "the JSON ends too early (truncated?)"
        case .unexpectedCharacter(let found): return "unexpected \(found)"
        case .invalidUTF8: return "text is not valid UTF-8"
        case .invalidEscape: return "invalid escape sequence in a string"
        case .unpairedSurrogate: return "unpaired UTF-16 surrogate in a \\u escape"
        case .controlCharacterInString: return "unescaped control character in a string"
        case .invalidNumber: return "malformed number"
        case .tooDeep(let limit): return "nested deeper than \(limit) levels"
        case .duplicateKey(let key): return "duplicate key \"\(key)\""
        case .trailingContent: return "content after the JSON value"
        case .utf16: return "UTF-16 text; JSON files must be UTF-8"
        }
    }

    /// The path without its leading dot: `items[2].name`, `[3].recurrence.end`.
    /// The path, its middle elided past 120 characters (a path 512 levels deep is no help whole).
    public var displayPath: String {
        let path = self.path.hasPrefix(".") ? String(self.path.dropFirst()) : self.path
        guard path.count > 120 else { return path }
        return "\(path.prefix(60))…\(path.suffix(60))"
    }

    public var description: String {
        "line \(line), column \(column)\(path.isEmpty ? "" : ", at \(displayPath)"): \(message)"
    }
}

/// What parsing reuses from one document to the next (the records of a stream).
struct ReadScratch {
    var stack = MemberStack()
    var keys = KeyCache()
}

/// Object keys made before, found again by their bytes: the records of a stream repeat the
/// same dozen keys, and making each anew cost a `String` (an allocation past 15 bytes) each time.
struct KeyCache {
    /// Made on first use: a parser's own cache, swapped out for a stream's, costs nothing.
    private var slots: [String] = []

    /// The key of these ASCII bytes: the one made before when its slot holds it, else a new one.
    mutating func key(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let count = bytes.count
        guard count > 0, count <= 48 else { return String(decoding: bytes, as: UTF8.self) }
        if slots.isEmpty { slots = [String](repeating: "", count: 64) }
        let slot = (count &* 31 &+ Int(bytes[0]) &* 7 &+ Int(bytes[count - 1]) &+ Int(bytes[count / 2])) & 63
        var cached = slots[slot]
        if cached.utf8.count == count,
           cached.withUTF8({ memcmp($0.baseAddress!, bytes.baseAddress!, count) == 0 }) {
            return cached
        }
        let key = String(decoding: bytes, as: UTF8.self)
        slots[slot] = key
        return key
    }
}

/// The members of the objects being parsed, nested objects' above their parent's. Each object's
/// are moved from here into an array of exactly their count when it closes: growing each
/// object's own array by doubling was a tenth of reading a brew log.
struct MemberStack {
    typealias Member = (key: String, value: JSONValue)
    var members: [Member] = []

    /// The members from `base` to the top, moved out into an array of their own.
    mutating func pop(from base: Int) -> [Member] {
        let count = members.count - base
        guard count > 0 else { return [] }
        let popped = [Member](unsafeUninitializedCapacity: count) { buffer, initialized in
            members.withUnsafeMutableBufferPointer { all in
                let source = all.baseAddress! + base
                buffer.baseAddress!.moveInitialize(from: source, count: count)
                // Moved-from slots get values that own nothing, so removing them releases nothing twice.
                source.initialize(repeating: (key: "", value: .null), count: count)
            }
            initialized = count
        }
        members.removeLast(count)
        return popped
    }
}

extension JSONReader {
    /// A slot from 0 to 63 for an ASCII key, the same for the same key.
    @inline(__always)
    static func keySlot(_ key: String) -> UInt64 {
        let utf8 = key.utf8
        guard let first = utf8.first, let last = utf8.last else { return 0 }
        return UInt64(truncatingIfNeeded: utf8.count &* 31 &+ Int(first) &* 7 &+ Int(last)) & 63
    }
}

private struct Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    let allowsDuplicateKeys: Bool
    var index = 0
    var depth = 0
    var scratch = ReadScratch()

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int, allowsDuplicateKeys: Bool) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
        self.allowsDuplicateKeys = allowsDuplicateKeys
    }

    mutating func parseDocument() throws(JSONReadError) -> JSONValue {
        if bytes.count >= 2, (bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF) {
            throw error(.utf16)
        }
        // A UTF-8 byte order mark is tolerated: editors on Windows write one.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        skipWhitespace()
        guard index < bytes.count else { throw error(.empty) }
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw error(.trailingContent) }
        return value
    }

    mutating func parseValue() throws(JSONReadError) -> JSONValue {
        guard index < bytes.count else { throw error(.unexpectedEnd) }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw unexpected()
        }
    }

    mutating func parseObject() throws(JSONReadError) -> JSONValue {
        try enter()
        index += 1
        let base = scratch.stack.members.count
        var seen: Set<String> = []
        var keysASCII = true
        // By ``JSONReader/keySlot(_:)``, the slots of this object's keys so far, while all are ASCII.
        var slotsSeen: UInt64 = 0
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(JSONObject())
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw error(.unexpectedEnd) }
            guard bytes[index] == UInt8(ascii: "\"") else { throw unexpected(expecting: "a key in quotes") }
            let keyStart = index
            let (key, isASCII) = try parseKey()
            if !allowsDuplicateKeys {
                // Small objects are the norm: a linear scan beats hashing until a dozen members.
                // Two ASCII keys are the same only at the same length and in the same slot; with
                // any other, Swift's `==` decides alone (a Kelvin sign equals "K"), as it does for
                // the hashed set. While every key is ASCII, a key whose slot no key before took is
                // new without a scan, up to 64 members (a dump's records have 20 or more: hashing
                // them into a set was a tenth of reading them).
                let bytesDecide = keysASCII && isASCII
                keysASCII = bytesDecide
                let length = key.utf8.count
                let count = scratch.stack.members.count - base
                let duplicate: Bool
                if count < (bytesDecide ? 64 : 12) {
                    var slotTaken = true
                    if bytesDecide {
                        let bit: UInt64 = 1 << JSONReader.keySlot(key)
                        slotTaken = slotsSeen & bit != 0
                        slotsSeen |= bit
                    }
                    duplicate = slotTaken && scratch.stack.members[base...].contains { (!bytesDecide || $0.key.utf8.count == length) && $0.key == key }
                } else {
                    if seen.isEmpty { seen = Set(scratch.stack.members[base...].map(\.key)) }
                    duplicate = !seen.insert(key).inserted
                }
                if duplicate {
                    index = keyStart
                    throw error(.duplicateKey(key))
                }
            }
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw unexpected(expecting: "':'") }
            index += 1
            skipWhitespace()
            let value: JSONValue
            do {
                value = try parseValue()
            } catch {
                throw error.prefixed(Self.pathComponent(key))
            }
            scratch.stack.members.append((key, value))
            guard try another(before: UInt8(ascii: "}")) else { break }
        }
        depth -= 1
        return .object(JSONObject(scratch.stack.pop(from: base)))
    }

    /// After a member or element: true past a comma, false past the closing bracket.
    @inline(__always)
    mutating func another(before closing: UInt8) throws(JSONReadError) -> Bool {
        skipWhitespace()
        guard index < bytes.count else { throw error(.unexpectedEnd) }
        let byte = bytes[index]
        index += 1
        if byte == UInt8(ascii: ",") { return true }
        if byte == closing { return false }
        index -= 1
        throw unexpected(expecting: "',' or '\(Character(Unicode.Scalar(closing)))'")
    }

    mutating func parseArray() throws(JSONReadError) -> JSONValue {
        try enter()
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            do {
                elements.append(try parseValue())
            } catch {
                throw error.prefixed("[\(elements.count)]")
            }
            guard try another(before: UInt8(ascii: "]")) else { break }
        }
        depth -= 1
        return .array(elements)
    }

    /// A member's key: as ``parseString()``, but plain ASCII keys come from the key cache.
    /// The key and whether it is plain ASCII (taken from the key cache).
    mutating func parseKey() throws(JSONReadError) -> (key: String, isASCII: Bool) {
        let start = index + 1
        var end = start
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") {
                index = end + 1
                return (scratch.keys.key(UnsafeBufferPointer(start: bytes.baseAddress! + start, count: end - start)), true)
            }
            // Escapes, control characters and non-ASCII take the general path.
            if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
            end += 1
        }
        return (try parseString(), false)
    }

    mutating func parseString() throws(JSONReadError) -> String {
        index += 1
        let start = index
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                // ASCII, the usual case, is valid UTF-8 as it is; `String(validating:)` is generic
                // and was a tenth of reading a record.
                if Self.isASCII(slice) { return String(decoding: slice, as: UTF8.self) }
                guard let text = String(validating: slice, as: UTF8.self) else {
                    index = start
                    throw error(.invalidUTF8)
                }
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error(.controlCharacterInString) }
            index += 1
        }
        guard index < bytes.count else { throw error(.unexpectedEnd) }
        var buffer = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let text = String(validating: buffer, as: UTF8.self) else {
                    index = start
                    throw error(.invalidUTF8)
                }
                return text
            case UInt8(ascii: "\\"):
                try parseEscape(into: &buffer)
            case 0..<0x20:
                throw error(.controlCharacterInString)
            default:
                buffer.append(byte)
                index += 1
            }
        }
        throw error(.unexpectedEnd)
    }

    /// Whether every byte is below 0x80, eight at a time.
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var index = 0
        var high: UInt64 = 0
        while index + 8 <= bytes.count {
            high |= UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            index += 8
        }
        while index < bytes.count {
            high |= UInt64(bytes[index])
            index += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }

    mutating func parseEscape(into buffer: inout [UInt8]) throws(JSONReadError) {
        index += 1
        guard index < bytes.count else { throw error(.unexpectedEnd) }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escape)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4()
            if (0xD800...0xDBFF).contains(scalar) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw error(.unpairedSurrogate)
                }
                index += 2
                let low = try parseHex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw error(.unpairedSurrogate) }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw error(.unpairedSurrogate)
            }
            buffer.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
        default:
            index -= 1
            throw error(.invalidEscape)
        }
    }

    mutating func parseHex4() throws(JSONReadError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error(.unexpectedEnd) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error(.invalidEscape)
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    mutating func parseNumber() throws(JSONReadError) -> JSONNumber {
        let start = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        guard let first = peek(), isDigit(first) else { throw error(.invalidNumber) }
        if first == UInt8(ascii: "0") {
            index += 1
            if let next = peek(), isDigit(next) { throw error(.invalidNumber) }
        } else {
            skipDigits()
        }
        if peek() == UInt8(ascii: ".") {
            index += 1
            guard let next = peek(), isDigit(next) else { throw error(.invalidNumber) }
            skipDigits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard let next = peek(), isDigit(next) else { throw error(.invalidNumber) }
            skipDigits()
        }
        return JSONNumber(validText: String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONReadError) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error(.unexpectedEnd) }
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: count)
        for offset in 0..<count where bytes[index + offset] != expected[offset] {
            throw unexpected()
        }
        index += count
    }

    mutating func enter() throws(JSONReadError) {
        depth += 1
        if depth > maximumDepth { throw error(.tooDeep(limit: maximumDepth)) }
    }

    func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }
    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    mutating func skipDigits() {
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    func unexpected(expecting: String? = nil) -> JSONReadError {
        guard index < bytes.count else { return error(.unexpectedEnd) }
        let byte = bytes[index]
        let shown = (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
        return error(.unexpectedCharacter(shown + (expecting.map { ", expected \($0)" } ?? "")))
    }

    /// The error at the current position, with its line and column counted now (errors are rare).
    func error(_ kind: JSONReadError.Kind) -> JSONReadError {
        let position = min(index, bytes.count)
        var line = 1
        var lineStart = 0
        for offset in 0..<position where bytes[offset] == 0x0A {
            line += 1
            lineStart = offset + 1
        }
        return JSONReadError(kind: kind, offset: position, line: line, column: position - lineStart + 1, path: "")
    }

    static func pathComponent(_ key: String) -> String {
        let plain = !key.isEmpty && key.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        return plain ? ".\(key)" : "[\"\(key)\"]"
    }
}

extension JSONReadError {
    /// The same error, one level further out in the document.
    func prefixed(_ component: String) -> JSONReadError {
        var copy = self
        copy.path = component + path
        return copy
    }
}
