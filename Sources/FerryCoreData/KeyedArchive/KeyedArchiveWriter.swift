import Foundation

/// Builds an `NSKeyedArchiver` archive: an object table of dictionaries with `$class`
/// references, and `$top.root`. Objects that point at each other are reserved first and filled
/// later. ``KeyedArchive`` reads what this writes.
struct KeyedArchiveWriter {
    private var objects: [PropertyListValue] = [.string("$null")]
    private var classes: [String: PropertyListValue] = [:]

    static let null = PropertyListValue.uid(0)

    /// A slot for an object that others point at before it is filled.
    mutating func reserve() -> PropertyListValue {
        objects.append(.null)
        return .uid(objects.count - 1)
    }

    /// `chain` is the class and its superclasses, as `$classes` lists them.
    mutating func fill(_ slot: PropertyListValue, _ chain: [String], _ fields: [(String, PropertyListValue)]) {
        guard case .uid(let index) = slot, index < objects.count else { return }
        objects[index] = .dictionary(fields + [("$class", classReference(chain))])
    }

    mutating func object(_ chain: [String], _ fields: [(String, PropertyListValue)]) -> PropertyListValue {
        let slot = reserve()
        fill(slot, chain, fields)
        return slot
    }

    mutating func string(_ text: String?) -> PropertyListValue {
        guard let text else { return Self.null }
        objects.append(.string(text))
        return .uid(objects.count - 1)
    }

    mutating func array(_ elements: [PropertyListValue], mutable: Bool = true) -> PropertyListValue {
        object(mutable ? ["NSMutableArray", "NSArray", "NSObject"] : ["NSArray", "NSObject"], [("NS.objects", .array(elements))])
    }

    mutating func set(_ elements: [PropertyListValue]) -> PropertyListValue {
        object(["NSSet", "NSObject"], [("NS.objects", .array(elements))])
    }

    mutating func dictionary(_ pairs: [(String, PropertyListValue)], mutable: Bool = true) -> PropertyListValue {
        let keys = pairs.map { string($0.0) }
        return object(mutable ? ["NSMutableDictionary", "NSDictionary", "NSObject"] : ["NSDictionary", "NSObject"],
                      [("NS.keys", .array(keys)), ("NS.objects", .array(pairs.map(\.1)))])
    }

    func bytes(root: PropertyListValue) -> [UInt8] {
        BinaryPropertyListWriter.write(.dictionary([
            ("$version", .integer(100_000)), ("$archiver", .string("NSKeyedArchiver")),
            ("$top", .dictionary([("root", root)])), ("$objects", .array(objects)),
        ]))
    }

    private mutating func classReference(_ chain: [String]) -> PropertyListValue {
        let name = chain.first ?? "NSObject"
        if let known = classes[name] { return known }
        objects.append(.dictionary([("$classname", .string(name)), ("$classes", .array(chain.map { .string($0) }))]))
        let reference = PropertyListValue.uid(objects.count - 1)
        classes[name] = reference
        return reference
    }
}
