import Foundation

/// Reads Apple's binary property lists (`bplist00`): the format of store metadata, keyed
/// archives in Transformable columns, `Z_MODELCACHE` and `VersionInfo.plist`.
///
/// The input is untrusted: every offset and count is checked against the data, nesting is
/// bounded, reference cycles are refused, and shared objects may not expand past a budget,
/// so a crafted file fails with ``PropertyListError`` instead of crashing or exhausting memory.
///
/// For example:
/// ```swift
/// let metadata = try BinaryPropertyList.read(blob)
/// metadata["NSStoreModelVersionIdentifiers"]
/// ```
public enum BinaryPropertyList {
    public static let maximumDepth = 256
    /// Objects decoded, counting a shared object at each place it appears.
    public static let maximumExpandedObjects = 4_000_000

    /// - Parameter maximumExpandedObjects: the budget that stops a small file whose objects
    ///   share children from expanding exponentially.
    /// - Throws: ``PropertyListError`` naming what is wrong.
    public static func read(_ data: Data, maximumExpandedObjects: Int = maximumExpandedObjects) throws(PropertyListError) -> PropertyListValue {
        var reader = try Reader(data, budget: maximumExpandedObjects)
        return try reader.readTop()
    }

    /// Whether the bytes start like a binary property list.
    public static func isBinaryPropertyList(_ data: Data) -> Bool {
        data.starts(with: Array("bplist0".utf8))
    }
}

/// Why a property list could not be read.
public struct PropertyListError: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

private struct Reader {
    let bytes: [UInt8]
    let offsetSize: Int
    let referenceSize: Int
    let objectCount: Int
    let topObject: Int
    let offsetTable: Int
    let budget: Int
    var expanded = 0
    var visiting: Set<Int> = []

    init(_ data: Data, budget: Int) throws(PropertyListError) {
        self.budget = budget
        bytes = [UInt8](data)
        guard bytes.count >= 8 + 32, bytes.starts(with: Array("bplist0".utf8)) else {
            throw PropertyListError("not a binary property list")
        }
        let trailer = bytes.count - 32
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            throw PropertyListError("binary property list trailer is damaged")
        }
        let count = Self.bigEndian(bytes, trailer + 8, 8)
        let top = Self.bigEndian(bytes, trailer + 16, 8)
        let table = Self.bigEndian(bytes, trailer + 24, 8)
        guard count > 0, count <= UInt64(bytes.count), top < count, table >= 8, table < UInt64(trailer),
              UInt64(offsetSize) * count <= UInt64(trailer) - table else {
            throw PropertyListError("binary property list trailer is damaged")
        }
        objectCount = Int(count)
        topObject = Int(top)
        offsetTable = Int(table)
    }

    static func bigEndian(_ bytes: [UInt8], _ start: Int, _ count: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in start..<start + count { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    mutating func readTop() throws(PropertyListError) -> PropertyListValue {
        try object(topObject, depth: 0)
    }

    func offset(of object: Int) throws(PropertyListError) -> Int {
        let value = Self.bigEndian(bytes, offsetTable + object * offsetSize, offsetSize)
        guard value >= 8, value < UInt64(offsetTable) else {
            throw PropertyListError("object \(object) lies outside the property list")
        }
        return Int(value)
    }

    mutating func object(_ reference: Int, depth: Int) throws(PropertyListError) -> PropertyListValue {
        guard reference < objectCount else { throw PropertyListError("reference to object \(reference) of \(objectCount)") }
        guard depth < BinaryPropertyList.maximumDepth else { throw PropertyListError("nested more than \(BinaryPropertyList.maximumDepth) levels") }
        expanded += 1
        guard expanded <= budget else { throw PropertyListError("expands to more than \(budget) objects") }
        let start = try offset(of: reference)
        let marker = bytes[start]
        let high = marker >> 4, low = Int(marker & 0x0F)
        switch high {
        case 0x0:
            switch marker {
            case 0x00: return .null
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            default: throw PropertyListError("unknown object marker 0x\(String(marker, radix: 16))")
            }
        case 0x1: return try integer(at: start + 1, sizeExponent: low)
        case 0x2:
            guard low == 2 || low == 3 else { throw PropertyListError("real of unsupported size") }
            let raw = try slice(start + 1, 1 << low)
            let bits = Self.bigEndian(raw, 0, raw.count)
            return .real(low == 2 ? Double(Float(bitPattern: UInt32(bits))) : Double(bitPattern: bits))
        case 0x3:
            guard marker == 0x33 else { throw PropertyListError("unknown object marker 0x\(String(marker, radix: 16))") }
            return .date(Double(bitPattern: Self.bigEndian(try slice(start + 1, 8), 0, 8)))
        case 0x4:
            let (count, body) = try length(low, at: start)
            return .data(Data(try slice(body, count)))
        case 0x5:
            let (count, body) = try length(low, at: start)
            let raw = try slice(body, count)
            return .string(String(decoding: raw, as: Unicode.ASCII.self))
        case 0x6:
            let (count, body) = try length(low, at: start)
            let (byteCount, overflow) = count.multipliedReportingOverflow(by: 2)
            guard !overflow else { throw PropertyListError("string too long") }
            let raw = try slice(body, byteCount)
            let units = stride(from: 0, to: raw.count, by: 2).map { UInt16(raw[$0]) << 8 | UInt16(raw[$0 + 1]) }
            guard let text = String(validating: units, as: UTF16.self) else { throw PropertyListError("invalid UTF-16 string") }
            return .string(text)
        case 0x7:
            let (count, body) = try length(low, at: start)
            guard let text = String(validating: try slice(body, count), as: UTF8.self) else { throw PropertyListError("invalid UTF-8 string") }
            return .string(text)
        case 0x8:
            // Clamped: a UID past Int.max (found by fuzzing) is then refused as a reference to no object.
            return .uid(Int(clamping: Self.bigEndian(try slice(start + 1, low + 1), 0, low + 1)))
        case 0xA, 0xB, 0xC:
            let (count, body) = try length(low, at: start)
            let references = try references(count: count, at: body)
            let values = try withCycleCheck(reference) { (reader: inout Reader) throws(PropertyListError) in
                var values: [PropertyListValue] = []
                values.reserveCapacity(references.count)
                for child in references { values.append(try reader.object(child, depth: depth + 1)) }
                return values
            }
            return high == 0xA ? .array(values) : .set(values)
        case 0xD:
            let (count, body) = try length(low, at: start)
            let keys = try references(count: count, at: body)
            let values = try references(count: count, at: body + count * referenceSize)
            let members = try withCycleCheck(reference) { (reader: inout Reader) throws(PropertyListError) in
                var members: [(key: String, value: PropertyListValue)] = []
                for (keyReference, valueReference) in zip(keys, values) {
                    guard case .string(let key) = try reader.object(keyReference, depth: depth + 1) else {
                        throw PropertyListError("dictionary key is not a string")
                    }
                    members.append((key, try reader.object(valueReference, depth: depth + 1)))
                }
                return members
            }
            return .dictionary(members)
        default:
            throw PropertyListError("unknown object marker 0x\(String(marker, radix: 16))")
        }
    }

    mutating func withCycleCheck<T>(_ reference: Int, _ body: (inout Reader) throws(PropertyListError) -> T) throws(PropertyListError) -> T {
        guard visiting.insert(reference).inserted else { throw PropertyListError("object \(reference) contains itself") }
        defer { visiting.remove(reference) }
        return try body(&self)
    }

    func slice(_ start: Int, _ count: Int) throws(PropertyListError) -> [UInt8] {
        guard count >= 0, start >= 0, start <= offsetTable, count <= offsetTable - start else {
            throw PropertyListError("object runs past the end of the property list")
        }
        return Array(bytes[start..<start + count])
    }

    func integer(at start: Int, sizeExponent: Int) throws(PropertyListError) -> PropertyListValue {
        guard sizeExponent <= 4 else { throw PropertyListError("integer of unsupported size") }
        let size = 1 << sizeExponent
        let raw = try slice(start, size)
        if size == 16 {
            // 128-bit integers are written for unsigned values beyond Int64: keep the low half.
            return .unsignedInteger(Self.bigEndian(raw, 8, 8))
        }
        let value = Self.bigEndian(raw, 0, size)
        return size == 8 ? .integer(Int64(bitPattern: value)) : .integer(Int64(value))
    }

    /// The element count of a container, string or data, and where its body starts.
    func length(_ low: Int, at start: Int) throws(PropertyListError) -> (Int, Int) {
        guard low == 0x0F else { return (low, start + 1) }
        guard start + 1 < offsetTable, bytes[start + 1] >> 4 == 0x1 else {
            throw PropertyListError("bad length marker")
        }
        let exponent = Int(bytes[start + 1] & 0x0F)
        guard exponent <= 3 else { throw PropertyListError("bad length marker") }
        guard case .integer(let count) = try integer(at: start + 2, sizeExponent: exponent), count >= 0, count <= bytes.count else {
            throw PropertyListError("length beyond the property list")
        }
        return (Int(count), start + 2 + (1 << exponent))
    }

    func references(count: Int, at start: Int) throws(PropertyListError) -> [Int] {
        let (byteCount, overflow) = count.multipliedReportingOverflow(by: referenceSize)
        guard !overflow else { throw PropertyListError("container too large") }
        let raw = try slice(start, byteCount)
        return (0..<count).map { Int(clamping: Self.bigEndian(raw, $0 * referenceSize, referenceSize)) }
    }
}
