@testable import FerryCoreData
import Foundation

/// Builds an `elements` file in the shape Xcode 3 saved (learnt from the two real ones in the
/// corpus): a keyed archive of `XDPMModel` → root package → `XDPMEntity` by name → `XDPMAttribute`
/// and `XDPMRelationship` by name, every setting a stereotype property with its value in `_default`.
struct Xcode3ArchiveBuilder {
    private var objects: [PropertyListValue] = [.string("$null")]
    private var classes: [String: PropertyListValue] = [:]

    /// A slot to fill later, for objects that point at each other (a relationship and its inverse).
    mutating func reserve() -> PropertyListValue {
        objects.append(.null)
        return .uid(objects.count - 1)
    }

    mutating func fill(_ slot: PropertyListValue, _ className: String, _ fields: [(String, PropertyListValue)]) {
        guard case .uid(let index) = slot else { return }
        objects[index] = .dictionary(fields + [("$class", classReference(className))])
    }

    mutating func object(_ className: String, _ fields: [(String, PropertyListValue)]) -> PropertyListValue {
        let slot = reserve()
        fill(slot, className, fields)
        return slot
    }

    mutating func string(_ text: String) -> PropertyListValue {
        objects.append(.string(text))
        return .uid(objects.count - 1)
    }

    mutating func dictionary(_ pairs: [(String, PropertyListValue)]) -> PropertyListValue {
        let keys = pairs.map { string($0.0) }
        return object("NSMutableDictionary", [("NS.keys", .array(keys)), ("NS.objects", .array(pairs.map(\.1)))])
    }

    mutating func array(_ elements: [PropertyListValue]) -> PropertyListValue {
        object("NSMutableArray", [("NS.objects", .array(elements))])
    }

    /// One stereotype holding `settings` as UML properties, the way Xcode 3 keeps every setting.
    mutating func stereotypes(_ groups: [(String, [(String, PropertyListValue)])]) -> PropertyListValue {
        dictionary(groups.map { group in
            let properties = group.1.map { setting in
                (setting.0, object("XDUMLPropertyImp", [("_name", string(setting.0)), ("_default", setting.1), ("_isStatic", .bool(false))]))
            }
            return (group.0, object("XDUMLStereotypeImp", [("_name", string(group.0)), ("XDBucketForOwnedAttributesstorage", dictionary(properties))]))
        })
    }

    mutating func fillEntity(_ slot: PropertyListValue, name: String, settings: [(String, PropertyListValue)],
                             properties: [(String, PropertyListValue)], generalizations: [PropertyListValue] = []) {
        let fields: [(String, PropertyListValue)] = [
            ("_name", string(name)), ("_isAbstract", .bool(false)),
            ("XDBucketForStereotypesstorage", stereotypes([("XD_PStereotype", settings)])),
            ("XDBucketForOwnedAttributesstorage", dictionary(properties)),
            ("XDBucketForGeneralizationsstorage", array(generalizations)),
        ]
        fill(slot, "XDPMEntity", fields)
    }

    mutating func attribute(_ name: String, type: Int64, optional: Bool, more: [(String, PropertyListValue)] = []) -> PropertyListValue {
        object("XDPMAttribute", [
            ("_name", string(name)),
            ("XDBucketForStereotypesstorage", stereotypes([
                ("XD_PPropStereotype", [("XD_PPSK_isOptional", .bool(optional)), ("XD_PPSK_isTransient", .bool(false)),
                                        ("XD_PPSK_isIndexed", .bool(false)), ("XD_PPSK_versionHashModifier", .uid(0))]),
                ("XD_PAtt_Stereotype", [("XD_PAttK_attributeType", .integer(type))] + more),
            ])),
        ])
    }

    mutating func fillRelationship(_ slot: PropertyListValue, _ name: String, destination: PropertyListValue?, inverse: PropertyListValue?,
                                   toMany: Bool, deleteRule: Int64) {
        var settings: [(String, PropertyListValue)] = [
            ("XD_PRK_isToMany", .bool(toMany)), ("XD_PRK_minCount", .integer(toMany ? 0 : 1)), ("XD_PRK_maxCount", .integer(toMany ? 0 : 1)),
            ("XD_PRK_deleteRule", .integer(deleteRule)), ("XD_PRK_inverseRelationship", inverse ?? .uid(0)),
            ("XD_PRK_ordered", .bool(toMany)),
        ]
        if let destination { settings.append(("XD_PRK_destination", destination)) }
        fill(slot, "XDPMRelationship", [
            ("_name", string(name)),
            ("XDBucketForStereotypesstorage", stereotypes([
                ("XD_PPropStereotype", [("XD_PPSK_isOptional", .bool(true)), ("XD_PPSK_isTransient", .bool(false))]),
                ("XD_PR_Stereotype", settings),
            ])),
        ])
    }

    mutating func model(entities: [(String, PropertyListValue)], versionIdentifier: String? = nil) -> PropertyListValue {
        let package = object("XDModelPackage", [("XDBucketForClassesstorage", dictionary(entities)), ("_name", string(""))])
        return object("XDPMModel", [("_xd_rootPackage", package), ("_xd_modelName", string("Shelf.xcdatamodel")),
                                    ("_modelVersionIdentifier", versionIdentifier.map { string($0) } ?? .uid(0)),
                                    ("_configurationsByName", dictionary([]))])
    }

    func archive(root: PropertyListValue) -> Data {
        Data(BinaryPropertyListWriter.write(.dictionary([
            ("$version", .integer(100_000)), ("$archiver", .string("NSKeyedArchiver")),
            ("$top", .dictionary([("root", root)])), ("$objects", .array(objects)),
        ])))
    }

    private mutating func classReference(_ name: String) -> PropertyListValue {
        if let known = classes[name] { return known }
        objects.append(.dictionary([("$classname", .string(name)), ("$classes", .array([.string(name), .string("NSObject")]))]))
        let reference = PropertyListValue.uid(objects.count - 1)
        classes[name] = reference
        return reference
    }
}
