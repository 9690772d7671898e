import FerryJSON
import Foundation

/// Turns a keyed archive of Foundation values into JSON: what Transformable attributes hold.
///
/// `NSString`, `NSNumber`, `NSData`, `NSDate` (ISO 8601), `NSArray`, `NSSet`, `NSOrderedSet`,
/// `NSDictionary`, `NSUUID`, `NSURL` and `NSNull` map to their JSON counterparts. `NSData` that is
/// itself JSON (the glass-art app archives `JSONEncoder` output this way) is parsed; other data
/// becomes base64. An archive holding any other class is kept whole as base64, with a warning
/// naming the class, so that nothing is lost.
///
/// For example:
/// ```swift
/// let decoded = KeyedArchiveDecoder().decode(blob)
/// decoded.value          // [{"naturalKey": "be-0100-0", …}]
/// decoded.unknownClasses // []
/// ```
public struct KeyedArchiveDecoder: Sendable {
    public struct Result: Sendable {
        public var value: JSONValue
        /// Classes the decoder does not know; when not empty, `value` is the base64 of the input.
        public var unknownClasses: [String]
        /// Set when the bytes were not a keyed archive at all; `value` is then their base64.
        public var failure: String?
    }

    public init() {}

    public func decode(_ data: Data) -> Result {
        let archive: KeyedArchive
        do {
            archive = try KeyedArchive(data: data)
        } catch {
            return Result(value: .string(data.base64EncodedString()), unknownClasses: [], failure: error.reason)
        }
        var walker = Walker(archive: archive)
        let value = walker.value(archive.root, depth: 0)
        if !walker.unknownClasses.isEmpty {
            return Result(value: .string(data.base64EncodedString()), unknownClasses: walker.unknownClasses.sorted(), failure: nil)
        }
        if let problem = walker.problem {
            return Result(value: .string(data.base64EncodedString()), unknownClasses: [], failure: problem)
        }
        return Result(value: value, unknownClasses: [], failure: nil)
    }

    /// JSON when the bytes are a JSON document, else base64: how archived `NSData` is shown.
    public static func jsonOrBase64(_ data: Data) -> JSONValue {
        let first = data.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
        if let first, first == UInt8(ascii: "[") || first == UInt8(ascii: "{") || first == UInt8(ascii: "\""),
           let parsed = try? JSONReader().read([UInt8](data)) {
            return parsed
        }
        return .string(data.base64EncodedString())
    }
}

private struct Walker {
    let archive: KeyedArchive
    var unknownClasses: Set<String> = []
    var problem: String?
    var visiting: Set<Int> = []

    init(archive: KeyedArchive) {
        self.archive = archive
    }

    mutating func value(_ reference: PropertyListValue, depth: Int) -> JSONValue {
        guard depth < 128 else { problem = "keyed archive nested too deeply"; return .null }
        if case .uid(let index) = reference {
            guard visiting.insert(index).inserted else { problem = "keyed archive object \(index) contains itself"; return .null }
            defer { visiting.remove(index) }
            return plain(archive.resolve(reference), depth: depth)
        }
        return plain(reference, depth: depth)
    }

    mutating func plain(_ object: PropertyListValue, depth: Int) -> JSONValue {
        switch object {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .integer(let number): return .integer(number)
        case .unsignedInteger(let number): return .integer(number)
        case .real(let number): return .double(number)
        case .date(let seconds): return .string(CoreDataDate.iso8601(secondsSince2001: seconds))
        case .string(let text): return text == "$null" ? .null : .string(text)
        case .data(let bytes): return KeyedArchiveDecoder.jsonOrBase64(bytes)
        case .uid: return value(object, depth: depth + 1)
        case .array(let elements), .set(let elements): return .array(elements.map { value($0, depth: depth + 1) })
        case .dictionary: return encoded(object, depth: depth)
        }
    }

    mutating func encoded(_ object: PropertyListValue, depth: Int) -> JSONValue {
        guard let className = archive.className(of: object) else {
            problem = "keyed archive object without a class"
            return .null
        }
        switch className {
        case "NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSOrderedSet", "NSMutableOrderedSet":
            return .array((archive.collectionElements(object) ?? []).map { value($0, depth: depth + 1) })
        case "NSDictionary", "NSMutableDictionary":
            var members: [(key: String, value: JSONValue)] = []
            for pair in archive.dictionaryPairs(object) ?? [] {
                let key = value(pair.key, depth: depth + 1)
                members.append((key.string ?? JSONWriter.string(key), value(pair.value, depth: depth + 1)))
            }
            return .object(JSONObject(members))
        case "NSString", "NSMutableString":
            if let text = archive.field("NS.string", of: object)?.string { return .string(text) }
            if let bytes = archive.field("NS.bytes", of: object)?.data { return .string(String(decoding: bytes, as: UTF8.self)) }
            return .string("")
        case "NSData", "NSMutableData":
            return KeyedArchiveDecoder.jsonOrBase64(archive.field("NS.data", of: object)?.data ?? Data())
        case "NSDate":
            guard case .real(let seconds)? = archive.field("NS.time", of: object) else { return .null }
            return .string(CoreDataDate.iso8601(secondsSince2001: seconds))
        case "NSUUID":
            guard let bytes = archive.field("NS.uuidbytes", of: object)?.data, bytes.count == 16 else { return .null }
            return .string(UUIDText.uppercase(bytes))
        case "NSURL":
            let relative = archive.field("NS.relative", of: object)?.string ?? ""
            let base = archive.field("NS.base", of: object).flatMap { plain($0, depth: depth + 1).string }
            if let base, let url = URL(string: relative, relativeTo: URL(string: base)) { return .string(url.absoluteString) }
            return .string(relative)
        case "NSNull":
            return .null
        case "NSNumber":
            if let number = archive.field("NS.intval", of: object)?.integer { return .integer(number) }
            if case .real(let number)? = archive.field("NS.dblval", of: object) { return .double(number) }
            return .null
        default:
            unknownClasses.insert(className)
            return .null
        }
    }
}
