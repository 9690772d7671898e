import FerrySystem
import Foundation

/// Reads a large JSON file record by record in bounded memory: the elements of a top-level
/// array, or each top-level value of an NDJSON (or concatenated JSON) file, or (asked for by
/// name) the elements of an array member of a top-level object, as JSON-LD's `@graph`. Only one
/// record's bytes and a read buffer are held at a time; each record is parsed by ``JSONReader``.
///
/// For example:
/// ```swift
/// let stream = try JSONRecordStream(path: "logs.ndjson")
/// while let record = try stream.next() { print(record.number, record.value) }
/// ```
public final class JSONRecordStream {
    public struct Record {
        /// 1-based: the element's position in the array, or the value's position in the file.
        public var number: Int
        /// The line the record starts on.
        public var line: Int
        public var value: JSONValue
    }

    /// A record's bytes could not be read as JSON, or the file's structure is broken.
    public struct Failure: Error, Sendable {
        public var error: JSONReadError
        /// The record it happened in, when known.
        public var record: Int?
        /// Only that record was bad: ``next()`` goes on with the records after it. Otherwise the
        /// file's structure is broken there and nothing after it can be read.
        public var recoverable = false
    }

    public let path: String
    /// Whether the file is one top-level array, or an object whose array member is read (else a
    /// sequence of values).
    public private(set) var isArray = false
    /// With `elementsOf`: the top-level object's other members, those before the array once the
    /// stream is open, all of them once it has ended. Empty when the file is not such an object.
    public private(set) var enclosingMembers = JSONObject()
    /// The records are the elements of a member of a top-level object (`elementsOf`).
    public private(set) var isEnclosed = false
    /// The member whose elements are the records, once opened.
    private var enclosingMember: String?
    public private(set) var bytesRead = 0
    /// Nothing more can be read: the end was reached, or the file's structure broke.
    public var isFinished: Bool { finished }

    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var position = 0
    private var atEnd = false
    private var line = 1
    private var count = 0
    private var finished = false
    private let chunkSize: Int
    private let reader: JSONReader
    /// Kept from one record to the next: objects' members need no array grown anew, and keys
    /// seen before are not made again.
    private var scratch = ReadScratch()

    /// - Parameter elementsOf: a member name (`@graph`): when the file is one object whose members
    ///   up to that one fit in the first chunk and it holds an array, the array's elements are the
    ///   records, so a JSON-LD graph of a hundred thousand nodes is not held whole. Otherwise the
    ///   file is read as without it (the object one record).
    public init(path: String, chunkSize: Int = 1 << 20, reader: JSONReader = JSONReader(), elementsOf member: String? = nil) throws {
        self.path = path
        self.chunkSize = chunkSize
        self.reader = reader
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path]) }
        try fill()
        if buffer.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        try skipWhitespace()
        if try peek() == UInt8(ascii: "[") {
            isArray = true
            position += 1
        } else if let member, position < buffer.count, buffer[position] == UInt8(ascii: "{"), let before = openMember(member) {
            (isArray, isEnclosed, enclosingMembers, enclosingMember) = (true, true, before, member)
        }
    }

    deinit {
        close(descriptor)
    }

    /// The next record, or nil after the last.
    public func next() throws(Failure) -> Record? {
        switch try advance(inPlace: false, { _ in nil }) {
        case .record(let record)?: return record
        case .readInPlace?, nil: return nil
        }
    }

    /// What ``next(readingInPlace:)`` gives: the record's number and line when the caller read it
    /// in place, or the record as ``next()`` reads it.
    public enum InPlace {
        case readInPlace(number: Int, line: Int)
        case record(Record)
    }

    /// The next record, or nil after the last. A record that starts with `{` is first handed to
    /// `read` where it lies, as the bytes from its `{` to the end of what is read so far; `read`
    /// keeps what it makes of them and returns the record's length (just past its `}`), or nil to
    /// have it read as ``next()`` reads it (always correct; errors and their places are ``next()``'s).
    /// Not generic on purpose: across modules a generic method is not specialized, and looking up
    /// its types at run time cost a sixth of reading a brew log.
    public func next(readingInPlace read: (UnsafeBufferPointer<UInt8>) -> Int?) throws(Failure) -> InPlace? {
        try advance(inPlace: true, read)
    }

    private func advance(inPlace: Bool, _ read: (UnsafeBufferPointer<UInt8>) -> Int?) throws(Failure) -> InPlace? {
        guard !finished else { return nil }
        do {
            try skipWhitespace()
            if isArray {
                if count > 0 {
                    // Between elements: a comma, or the closing bracket.
                    switch try peek() {
                    case UInt8(ascii: ","): position += 1; try skipWhitespace()
                    case UInt8(ascii: "]"): position += 1; return try endOfArray()
                    case nil: throw failure(.unexpectedEnd)
                    case let byte?: throw failure(.unexpectedCharacter(Self.describe(byte)))
                    }
                } else if try peek() == UInt8(ascii: "]") {
                    position += 1
                    return try endOfArray()
                }
            }
            guard try peek() != nil else {
                if isArray { throw failure(.unexpectedEnd) }
                finished = true
                if count == 0 { throw failure(.empty) }
                return nil
            }
            let startLine = line
            if inPlace, buffer[position] == UInt8(ascii: "{"), readInPlace(read) {
                count += 1
                return .readInPlace(number: count, line: startLine)
            }
            if let value = wholeContainer() {
                count += 1
                return .record(Record(number: count, line: startLine, value: value))
            }
            let (length, newlines) = try valueLength()
            count += 1
            let value: Result<JSONValue, JSONReadError> = buffer.withUnsafeBufferPointer { all in
                Result { () throws(JSONReadError) in
                    try reader.read(UnsafeBufferPointer(rebasing: all[position..<(position + length)]), reusing: &scratch)
                }
            }
            line += newlines
            position += length
            switch value {
            case .success(let value):
                return .record(Record(number: count, line: startLine, value: value))
            case .failure(var located):
                // The record's bounds are known, so the records after it can still be read, unless
                // it ran to the end of the file (truncated): then nothing follows.
                located.line += startLine - 1
                throw Failure(error: located, record: count, recoverable: !(atEnd && position >= buffer.count))
            }
        } catch let failure as Failure {
            if !failure.recoverable { finished = true }
            throw failure
        } catch {
            finished = true
            throw Failure(error: JSONReadError(kind: .unexpectedEnd, offset: bytesRead, line: line, column: 1, path: ""), record: nil)
        }
    }

    /// After the array's closing bracket: the enclosing object's members after it, then the end.
    private func endOfArray() throws -> InPlace? {
        guard isEnclosed else { return try end() }
        while true {
            try skipWhitespace()
            switch try peek() {
            case UInt8(ascii: "}"):
                position += 1
                return try end()
            case UInt8(ascii: ","):
                position += 1
                try skipWhitespace()
                guard let quote = try peek() else { throw failure(.unexpectedEnd) }
                guard quote == 0x22 else { throw failure(.unexpectedCharacter(Self.describe(quote))) }
                let name = try memberValue()
                try skipWhitespace()
                guard let colon = try peek() else { throw failure(.unexpectedEnd) }
                guard colon == UInt8(ascii: ":") else { throw failure(.unexpectedCharacter(Self.describe(colon))) }
                position += 1
                try skipWhitespace()
                guard try peek() != nil, let key = name.string else { throw failure(.unexpectedEnd) }
                // A key twice is refused, as reading the document whole refuses it.
                guard key != enclosingMember, enclosingMembers[key] == nil else { throw failure(.duplicateKey(key)) }
                enclosingMembers[key] = try memberValue()
            case nil: throw failure(.unexpectedEnd)
            case let byte?: throw failure(.unexpectedCharacter(Self.describe(byte)))
            }
        }
    }

    /// A member's name or value after the array, read whole (bounded as a record is).
    private func memberValue() throws -> JSONValue {
        let (length, newlines) = try valueLength()
        let read = buffer.withUnsafeBufferPointer { all in
            Result { () throws(JSONReadError) in
                try reader.read(UnsafeBufferPointer(rebasing: all[position..<(position + length)]), reusing: &scratch)
            }
        }
        let value: JSONValue
        switch read {
        case .success(let read): value = read
        case .failure(var located):
            located.line += line - 1
            throw Failure(error: located, record: nil)
        }
        line += newlines
        position += length
        return value
    }

    /// At a top-level object: steps into its member `name` when every member before it reads
    /// whole from the buffer and `name` holds an array, returning the members before it; else
    /// leaves the position where it was and returns nil (the object is read as one record).
    private func openMember(_ name: String) -> JSONObject? {
        let (start, startLine) = (position, line)
        var members = JSONObject()
        position += 1
        while let key = inBufferValue()?.string, inBufferByte(UInt8(ascii: ":")) {
            skipBufferedWhitespace()
            if key == name {
                guard position < buffer.count, buffer[position] == UInt8(ascii: "[") else { break }
                position += 1
                return members
            }
            guard members[key] == nil, let value = inBufferValue() else { break }
            members[key] = value
            guard inBufferByte(UInt8(ascii: ",")) else { break }
        }
        (position, line) = (start, startLine)
        return nil
    }

    /// The value at the position (after whitespace) when it reads whole from the buffer.
    private func inBufferValue() -> JSONValue? {
        skipBufferedWhitespace()
        guard position < buffer.count else { return nil }
        if let value = wholeContainer() { return value }
        var scan = ValueScan(isContainer: false)
        // A text, number, true, false or null ends in the buffer, not at its end (where it may be cut).
        guard buffer[position] != UInt8(ascii: "{"), buffer[position] != UInt8(ascii: "["),
              let end = buffer.withUnsafeBufferPointer({ scan.end(in: $0, from: position) }), end < buffer.count,
              let value = buffer.withUnsafeBufferPointer({ all in try? reader.read(UnsafeBufferPointer(rebasing: all[position..<end])) })
        else { return nil }
        position = end
        return value
    }

    /// Whether `byte` comes next (after whitespace) in the buffer; passes it if so.
    private func inBufferByte(_ byte: UInt8) -> Bool {
        skipBufferedWhitespace()
        guard position < buffer.count, buffer[position] == byte else { return false }
        position += 1
        return true
    }

    /// White space in what is read so far, the file not read further (the first chunk's probe).
    private func skipBufferedWhitespace() {
        while position < buffer.count {
            switch buffer[position] {
            case 0x0A: line += 1; position += 1
            case 0x20, 0x09, 0x0D: position += 1
            default: return
            }
        }
    }

    /// After the closing bracket only whitespace may follow.
    private func end() throws -> InPlace? {
        finished = true
        try skipWhitespace()
        if let byte = try peek() { throw failure(.unexpectedCharacter(Self.describe(byte)), kind: .trailingContent, byte: byte) }
        return nil
    }

    /// The usual record, an object (or array) whole in the buffer, read straight from it: the
    /// reader finds its end, where the scan below would (a container ends at its closing
    /// bracket), and the scan's pass over its bytes is saved (a thirteenth of reading a brew
    /// log). Nil when it does not read whole there (cut by the buffer's end, or bad): the scan
    /// then finds the bounds, and the reader the error, as for any other record.
    private func wholeContainer() -> JSONValue? {
        buffer.withUnsafeBufferPointer { all -> JSONValue? in
            guard let (value, length) = reader.readContainer(atStartOf: UnsafeBufferPointer(rebasing: all[position...]), reusing: &scratch)
            else { return nil }
            passRecord(of: length, in: all)
            return value
        }
    }

    /// Whether `read` took the record where it lies.
    private func readInPlace(_ read: (UnsafeBufferPointer<UInt8>) -> Int?) -> Bool {
        buffer.withUnsafeBufferPointer { all -> Bool in
            let rest = UnsafeBufferPointer(rebasing: all[position...])
            guard let length = read(rest), length > 0, length <= rest.count else { return false }
            passRecord(of: length, in: all)
            return true
        }
    }

    /// Moves past a record read in place, counting the line breaks in it.
    private func passRecord(of length: Int, in all: UnsafeBufferPointer<UInt8>) {
        var rest = UnsafeRawPointer(all.baseAddress! + position)
        let end = rest + length
        while rest < end, let found = memchr(rest, 0x0A, end - rest) {
            line += 1
            rest = UnsafeRawPointer(found) + 1
        }
        position += length
    }

    /// The byte length of the value starting at `position`, and the line breaks in it, reading
    /// more of the file as needed.
    private func valueLength() throws -> (length: Int, newlines: Int) {
        let first = buffer[position]
        var scan = ValueScan(isContainer: first == UInt8(ascii: "{") || first == UInt8(ascii: "["))
        var scanned = position
        while true {
            // Over the buffer in place: indexing the array property byte by byte was a tenth of
            // reading a brew log.
            let end = buffer.withUnsafeBufferPointer { scan.end(in: $0, from: scanned) }
            if let end { return (end - position, scan.newlines) }
            let offset = buffer.count - position
            try fill()
            scanned = position + offset
            // The file ends inside the value: let the reader say where.
            if scanned >= buffer.count { return (buffer.count - position, scan.newlines) }
        }
    }

    /// Where the search for a value's end stands; kept while more of the file is read.
    private struct ValueScan {
        let isContainer: Bool
        var depth = 0
        var inString = false
        var escaped = false
        var newlines = 0

        /// The index just past the value's end, or nil when `bytes` end first.
        mutating func end(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
            // The state in locals while scanning, stored back when the bytes run out.
            var depth = depth, inString = inString, escaped = escaped, newlines = newlines
            defer { (self.depth, self.inString, self.escaped, self.newlines) = (depth, inString, escaped, newlines) }
            var index = start
            let count = bytes.count
            while index < count {
                if inString && !escaped {
                    // Most of a record is text: run to the next quote, backslash or line break.
                    while index < count, bytes[index] != 0x22, bytes[index] != 0x5C, bytes[index] != 0x0A { index += 1 }
                    guard index < count else { break }
                }
                let byte = bytes[index]
                index += 1
                if inString {
                    if escaped { escaped = false; continue }
                    if byte == 0x5C { escaped = true; continue }
                    if byte == 0x22 {
                        inString = false
                        if !isContainer && depth == 0 { return index }
                    } else if byte == 0x0A {
                        newlines += 1
                    }
                    continue
                }
                switch byte {
                case 0x22: inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if depth == 0 { return index - 1 }   // a scalar ended by the array's bracket
                    depth -= 1
                    if depth == 0 { return index }
                case UInt8(ascii: ","):
                    if depth == 0 { return index - 1 }
                case 0x0A:
                    if depth == 0 && !isContainer { return index - 1 }
                    newlines += 1
                case 0x20, 0x09, 0x0D:
                    if depth == 0 && !isContainer { return index - 1 }
                default: break
                }
            }
            return nil
        }
    }

    private func skipWhitespace() throws {
        while true {
            skipBufferedWhitespace()
            guard position >= buffer.count else { return }
            try fill()
            guard position < buffer.count else { return }
        }
    }

    private func peek() throws -> UInt8? {
        if position >= buffer.count { try fill() }
        return position < buffer.count ? buffer[position] : nil
    }

    /// Drops consumed bytes and reads the next chunk.
    private func fill() throws {
        guard !atEnd else { return }
        if position > 0 {
            buffer.removeSubrange(0..<position)
            position = 0
        }
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: chunkSize))
        var got = 0
        while got < chunkSize {
            let result = buffer.withUnsafeMutableBytes { SystemCall.read(descriptor, into: $0.baseAddress! + start + got, count: chunkSize - got) }
            guard result >= 0 else {
                buffer.removeSubrange((start + got)...)
                throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: path])
            }
            if result == 0 { atEnd = true; break }
            got += result
        }
        buffer.removeSubrange((start + got)...)
        bytesRead += got
    }

    private func failure(_ kind: JSONReadError.Kind, kind override: JSONReadError.Kind? = nil, byte: UInt8? = nil) -> Failure {
        Failure(error: JSONReadError(kind: override ?? kind, offset: bytesRead, line: line, column: 1, path: ""), record: count + 1)
    }

    private static func describe(_ byte: UInt8) -> String {
        (32..<127).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : String(format: "byte 0x%02X", byte)
    }
}
