import Foundation

/// Writes a binary property list (`bplist00`) the way CoreFoundation writes small ones: objects
/// depth first (a dictionary's keys, then its values), every equal string, number or data once,
/// references and offsets in the fewest bytes, integers in their smallest width, ASCII strings as
/// ASCII and others as UTF-16. Dictionaries keep the order they are given; Core Data's order is
/// ``CFHashOrder``'s. `Formats/coredata-store-writing.md` says what this reproduces byte for byte.
public enum BinaryPropertyListWriter {
    public static func write(_ value: PropertyListValue) -> [UInt8] {
        var objects = Objects()
        let top = objects.number(of: value)
        let referenceSize = byteCount(for: objects.list.count)
        var out: [UInt8] = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects.list {
            offsets.append(out.count)
            encode(object, referenceSize: referenceSize, into: &out)
        }
        let tableOffset = out.count
        let offsetSize = byteCount(for: tableOffset)
        for offset in offsets { append(UInt64(offset), width: offsetSize, to: &out) }
        out += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
        append(UInt64(objects.list.count), width: 8, to: &out)
        append(UInt64(top), width: 8, to: &out)
        append(UInt64(tableOffset), width: 8, to: &out)
        return out
    }

    /// An object as written: a scalar, or a container with its children's object numbers.
    private enum Object {
        case scalar(PropertyListValue)
        case array([Int], isSet: Bool)
        case dictionary(keys: [Int], values: [Int])
    }

    /// The objects in file order: a container before its children, a dictionary's keys before
    /// its values; equal scalars share one object, containers never do.
    private struct Objects {
        var list: [Object] = []
        var scalars: [ScalarKey: Int] = [:]

        /// Scalars are one object when their bytes would be: strings by their UTF-16 units (not
        /// Swift's canonical equivalence), numbers by their bits (0.0 and -0.0 are two).
        enum ScalarKey: Hashable {
            case string([UInt16])
            case real(UInt64)
            case date(UInt64)
            case other(PropertyListValue)

            init(_ value: PropertyListValue) {
                switch value {
                case .string(let text): self = .string(Array(text.utf16))
                case .real(let number): self = .real(number.bitPattern)
                case .date(let seconds): self = .date(seconds.bitPattern)
                default: self = .other(value)
                }
            }
        }

        mutating func number(of value: PropertyListValue) -> Int {
            let index = list.count
            switch value {
            case .array(let elements), .set(let elements):
                list.append(.array([], isSet: false))
                let children = elements.map { number(of: $0) }
                if case .set = value { list[index] = .array(children, isSet: true) } else { list[index] = .array(children, isSet: false) }
            case .dictionary(let members):
                list.append(.dictionary(keys: [], values: []))
                let keys = members.map { number(of: .string($0.key)) }
                let values = members.map { number(of: $0.value) }
                list[index] = .dictionary(keys: keys, values: values)
            default:
                let key = ScalarKey(value)
                if let known = scalars[key] { return known }
                scalars[key] = index
                list.append(.scalar(value))
            }
            return index
        }
    }

    private static func encode(_ object: Object, referenceSize: Int, into out: inout [UInt8]) {
        switch object {
        case .array(let children, let isSet):
            marker(isSet ? 0xC0 : 0xA0, children.count, into: &out)
            for child in children { append(UInt64(child), width: referenceSize, to: &out) }
        case .dictionary(let keys, let values):
            marker(0xD0, keys.count, into: &out)
            for child in keys + values { append(UInt64(child), width: referenceSize, to: &out) }
        case .scalar(let value):
            encode(scalar: value, into: &out)
        }
    }

    private static func encode(scalar value: PropertyListValue, into out: inout [UInt8]) {
        switch value {
        case .null: out.append(0x00)
        case .bool(let flag): out.append(flag ? 0x09 : 0x08)
        case .integer(let number): integer(number, into: &out)
        case .unsignedInteger(let number):
            // The reader makes this case only for values past Int64.max, written in 16 bytes.
            out.append(0x14)
            append(0, width: 8, to: &out)
            append(number, width: 8, to: &out)
        case .real(let number): out.append(0x23); append(number.bitPattern, width: 8, to: &out)
        case .date(let seconds): out.append(0x33); append(seconds.bitPattern, width: 8, to: &out)
        case .data(let bytes): marker(0x40, bytes.count, into: &out); out += bytes
        case .string(let text):
            if text.utf8.allSatisfy({ $0 < 0x80 }) {
                marker(0x50, text.utf8.count, into: &out)
                out += text.utf8
            } else {
                let units = Array(text.utf16)
                marker(0x60, units.count, into: &out)
                for unit in units { out += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
            }
        case .uid(let number):
            let width = byteCount(for: max(0, number))
            out.append(0x80 | UInt8(width - 1))
            append(UInt64(truncatingIfNeeded: max(0, number)), width: width, to: &out)
        case .array, .set, .dictionary:
            break
        }
    }

    private static func integer(_ number: Int64, into out: inout [UInt8]) {
        switch number {
        case 0..<0x100: out.append(0x10); append(UInt64(number), width: 1, to: &out)
        case 0x100..<0x1_0000: out.append(0x11); append(UInt64(number), width: 2, to: &out)
        case 0x1_0000..<0x1_0000_0000: out.append(0x12); append(UInt64(number), width: 4, to: &out)
        default: out.append(0x13); append(UInt64(bitPattern: number), width: 8, to: &out)
        }
    }

    /// A type's marker with its count; from 15 on the count follows as an integer object.
    private static func marker(_ type: UInt8, _ count: Int, into out: inout [UInt8]) {
        if count < 15 {
            out.append(type | UInt8(count))
        } else {
            out.append(type | 0x0F)
            integer(Int64(count), into: &out)
        }
    }

    static func byteCount(for value: Int) -> Int {
        value < 0x100 ? 1 : value < 0x1_0000 ? 2 : value < 0x1_0000_0000 ? 4 : 8
    }

    private static func append(_ value: UInt64, width: Int, to out: inout [UInt8]) {
        for shift in stride(from: (width - 1) * 8, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }
}
