import Foundation

/// An `NSKeyedArchiver` archive opened as its object table: `$objects` indexed by UID, with
/// each object's class name resolved. Nothing is instantiated; readers walk the table.
///
/// For example:
/// ```swift
/// let archive = try KeyedArchive(data: blob)
/// archive.className(of: archive.root)   // "NSArray"
/// ```
public struct KeyedArchive: Sendable {
    public let objects: [PropertyListValue]
    /// The `$top` entries, `root` among them.
    public let top: [(key: String, value: PropertyListValue)]

    /// - Throws: ``PropertyListError`` when the bytes are not a binary plist or not a keyed archive.
    public init(data: Data) throws(PropertyListError) {
        try self.init(BinaryPropertyList.read(data))
    }

    public init(_ plist: PropertyListValue) throws(PropertyListError) {
        guard plist["$archiver"]?.string == "NSKeyedArchiver" else {
            throw PropertyListError("not a keyed archive (no $archiver NSKeyedArchiver)")
        }
        guard let objects = plist["$objects"]?.elements, !objects.isEmpty else {
            throw PropertyListError("keyed archive without $objects")
        }
        guard let top = plist["$top"]?.members else { throw PropertyListError("keyed archive without $top") }
        self.objects = objects
        self.top = top
    }

    /// The root object's reference (`$top.root`).
    public var root: PropertyListValue {
        top.first { $0.key == "root" }?.value ?? top.first?.value ?? .null
    }

    /// Follows a UID to its object; other values are returned as they are. UID 0 is `$null`.
    public func resolve(_ value: PropertyListValue) -> PropertyListValue {
        guard case .uid(let index) = value else { return value }
        guard index > 0, index < objects.count else { return .null }
        return objects[index]
    }

    /// The `$classname` of an encoded object (a dictionary with `$class`), else nil.
    public func className(of value: PropertyListValue) -> String? {
        let object = resolve(value)
        guard let classReference = object["$class"] else { return nil }
        return resolve(classReference)["$classname"]?.string
    }

    /// A field of an encoded object, resolved.
    public func field(_ key: String, of value: PropertyListValue) -> PropertyListValue? {
        resolve(value)[key].map(resolve)
    }

    /// The members of an `NSArray`, `NSSet`, `NSOrderedSet` (or mutable kin), unresolved.
    public func collectionElements(_ value: PropertyListValue) -> [PropertyListValue]? {
        let object = resolve(value)
        if let elements = object["NS.objects"]?.elements { return elements }
        // swift-corelibs-foundation writes NSOrderedSet as NS.object.0, NS.object.1, …
        var elements: [PropertyListValue] = []
        while let element = object["NS.object.\(elements.count)"] { elements.append(element) }
        return elements.isEmpty && object["$class"] == nil ? nil : elements
    }

    /// The key/value references of an `NSDictionary`, unresolved, or of Core Data's
    /// `NSKnownKeysDictionary1` (keys in `searchMapping`, values in `values`).
    public func dictionaryPairs(_ value: PropertyListValue) -> [(key: PropertyListValue, value: PropertyListValue)]? {
        let object = resolve(value)
        if let keys = object["NS.keys"]?.elements, let values = object["NS.objects"]?.elements, keys.count == values.count {
            return Array(zip(keys, values))
        }
        if let values = field("values", of: object), let mapping = field("searchMapping", of: object),
           let keys = field("keys", of: mapping).flatMap(collectionElements), let valueList = collectionElements(values),
           keys.count <= valueList.count {
            return Array(zip(keys, valueList))
        }
        return nil
    }
}
