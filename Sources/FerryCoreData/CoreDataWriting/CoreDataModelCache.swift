import FerryModel
import Foundation

/// The compiled model Core Data keeps in a store's `Z_MODELCACHE`: a keyed archive of the
/// `NSManagedObjectModel`, raw-DEFLATE compressed. Tools read a store without its app's model
/// through it (Ferry, Core Data Lab), and Core Data migrates from it when the app no longer
/// ships the store's model. Written with the classes, keys and flags real stores' caches have
/// (`Formats/coredata-store-writing.md`), so that ``ArchivedModel`` reads back the model the
/// store was written for: the same entities, properties, hashes and tables.
public enum CoreDataModelCache {
    /// The `Z_CONTENT` of the cache row for `model`.
    /// - Parameter file: the store, for the message of an error.
    public static func content(for model: DataModel, file: String) throws -> Data {
        var builder = Builder(model: model)
        let root = builder.build()
        do {
            return Data(try Gzip.rawDeflate(builder.writer.bytes(root: root)))
        } catch {
            throw CoreDataWriteError(kind: .cannotWrite("the model cache: \(error.reason)"), file: file)
        }
    }

    /// Core Data's private property flags: set on every property, plus optional, transient, ordered.
    static let baseFlags: Int64 = 0xF1, optionalFlag: Int64 = 0x2, transientFlag: Int64 = 0x8, orderedFlag: Int64 = 0x400

    static func valueClass(of attribute: AttributeDescription) -> String? {
        switch attribute.type {
        case .string: return "NSString"
        case .date: return "NSDate"
        case .integer16, .integer32, .integer64, .double, .float, .boolean: return "NSNumber"
        case .decimal: return "NSDecimalNumber"
        case .binary: return "NSData"
        case .uuid: return "NSUUID"
        case .uri: return "NSURL"
        case .transformable: return attribute.customClassName
        case .undefined, .objectID, .composite: return nil
        }
    }
}

private struct Builder {
    var writer = KeyedArchiveWriter()
    let model: DataModel
    private var entitySlots: [String: PropertyListValue] = [:]
    /// Entity → property name → slot: each entity lists its inherited properties as its own copies.
    private var propertySlots: [String: [String: PropertyListValue]] = [:]

    init(model: DataModel) {
        self.model = model
    }

    mutating func build() -> PropertyListValue {
        let root = writer.reserve()
        let entities = model.entities.sorted { $0.name < $1.name }
        for entity in entities {
            entitySlots[entity.name] = writer.reserve()
            for name in model.allAttributes(of: entity).map(\.name) + model.allRelationships(of: entity).map(\.name) {
                propertySlots[entity.name, default: [:]][name] = writer.reserve()
            }
        }
        for entity in entities { fill(entity, root: root) }
        let names = entities.map(\.name)
        let mapping = writer.object(["NSKnownKeysMappingStrategy1", "NSKnownKeysMappingStrategy", "NSObject"], [
            ("length", .integer(Int64(names.count))), ("keys", writer.array(names.map { writer.string($0) }, mutable: false)), ("version", .integer(1)),
        ])
        let known = writer.object(["NSKnownKeysDictionary1", "NSKnownKeysDictionary", "NSMutableDictionary", "NSDictionary", "NSObject"], [
            ("values", writer.array(names.compactMap { entitySlots[$0] }, mutable: false)), ("searchMapping", mapping),
            ("emptyToken", writer.string("__empty_slot_token_4c24_98dc_ac1e_b773__")), ("version", .integer(1)),
        ])
        writer.fill(root, ["NSManagedObjectModel", "NSObject"], [
            ("NSEntities", known), ("NSFetchRequestTemplates", KeyedArchiveWriter.null),
            ("NSVersionIdentifiers", writer.set([writer.string(model.versionIdentifier ?? "")])),
        ])
        return root
    }

    private mutating func fill(_ entity: EntityDescription, root: PropertyListValue) {
        guard let slot = entitySlots[entity.name] else { return }
        var properties: [(String, PropertyListValue)] = []
        for attribute in model.allAttributes(of: entity) {
            guard let property = propertySlots[entity.name]?[attribute.name] else { continue }
            fill(attribute, into: property, entity: slot)
            properties.append((attribute.name, property))
        }
        for relationship in model.allRelationships(of: entity) {
            guard let property = propertySlots[entity.name]?[relationship.name] else { continue }
            fill(relationship, into: property, entity: slot)
            properties.append((relationship.name, property))
        }
        let indexes = entity.fetchIndexes.map { index in fetchIndex(index, entity: slot) }
        var fields: [(String, PropertyListValue)] = [
            ("NSProperties", writer.dictionary(properties)), ("NSUserInfo", userInfo(entity.userInfo)), ("NSManagedObjectModel", root),
            ("NSClassNameForEntity", writer.string(entity.representedClassName)), ("NSVersionHashModifier", writer.string(entity.versionHashModifier)),
            ("NSFetchIndexDescriptions", writer.array(indexes)),
            ("NSCompoundIndexes", writer.array(entity.compoundIndexes.map { list in writer.array(list.map { writer.string($0) }) })),
            ("NSEntityName", writer.string(entity.name)),
            ("NSSubentities", writer.dictionary(entity.subentityNames.sorted().compactMap { name in entitySlots[name].map { (name, $0) } })),
            ("NSSuperentity", entity.parentName.flatMap { entitySlots[$0] } ?? KeyedArchiveWriter.null),
            ("NSRenamingIdentifier", writer.string(entity.renamingIdentifier ?? entity.name)),
        ]
        if entity.isAbstract { fields.append(("NSIsAbstract", .bool(true))) }
        if !entity.uniquenessConstraints.isEmpty {
            fields.append(("NSUniqueTuples", writer.array(entity.uniquenessConstraints.map { list in writer.array(list.map { writer.string($0) }) })))
        }
        writer.fill(slot, ["NSEntityDescription", "NSObject"], fields)
    }

    private mutating func fill(_ attribute: AttributeDescription, into slot: PropertyListValue, entity: PropertyListValue) {
        var flags = CoreDataModelCache.baseFlags
        if attribute.isOptional { flags |= CoreDataModelCache.optionalFlag }
        if attribute.isTransient { flags |= CoreDataModelCache.transientFlag }
        var fields: [(String, PropertyListValue)] = [
            ("_P", .integer(flags)), ("NSAttributeValueClassName", writer.string(CoreDataModelCache.valueClass(of: attribute))),
            ("NSAttributeType", .integer(Int64(attribute.type.coreDataCode))), ("NSEntity", entity),
            ("NSDefaultValue", defaultValue(of: attribute)), ("NSPropertyName", writer.string(attribute.name)),
            ("NSValueTransformerName", writer.string(attribute.valueTransformerName)),
            // 0x4: external storage; 0x10: kept in history on deletion (as ArchivedModel reads them).
            ("NSFlagsKey", .integer((attribute.allowsExternalBinaryDataStorage ? 4 : 0) | (attribute.preservesValueInHistoryOnDeletion ? 16 : 0))),
            ("NSRenamingIdentifier", writer.string(attribute.renamingIdentifier ?? attribute.name)),
        ]
        common(optional: attribute.isOptional, transient: attribute.isTransient, modifier: attribute.versionHashModifier,
               userInfo: attribute.userInfo, into: &fields)
        if attribute.isIndexed { fields.append(("NSIsIndexed", .bool(true))) }
        writer.fill(slot, ["NSAttributeDescription", "NSPropertyDescription", "NSObject"], fields)
    }

    private mutating func fill(_ relationship: RelationshipDescription, into slot: PropertyListValue, entity: PropertyListValue) {
        var flags = CoreDataModelCache.baseFlags
        if relationship.isOptional { flags |= CoreDataModelCache.optionalFlag }
        if relationship.isTransient { flags |= CoreDataModelCache.transientFlag }
        if relationship.isOrdered { flags |= CoreDataModelCache.orderedFlag }
        let destination = relationship.destinationEntity
        let inverse = destination.flatMap { name in relationship.inverseName.flatMap { propertySlots[name]?[$0] } }
        let rules: [DeletionRule: Int64] = [.noAction: 0, .nullify: 1, .cascade: 2, .deny: 3]
        var fields: [(String, PropertyListValue)] = [
            ("_P", .integer(flags)), ("NSDestinationEntity", destination.flatMap { entitySlots[$0] } ?? KeyedArchiveWriter.null),
            ("NSEntity", entity), ("NSDeleteRule", .integer(rules[relationship.deletionRule] ?? 1)),
            ("NSInverseRelationship", inverse ?? KeyedArchiveWriter.null), ("_NSInverseRelationshipName", writer.string(relationship.inverseName)),
            ("NSMaxCount", .integer(Int64(relationship.isToMany ? max(0, relationship.maxCount ?? 0) : 1))),
            ("NSMinCount", .integer(Int64(max(0, relationship.minCount ?? 0)))),
            ("NSPropertyName", writer.string(relationship.name)),
            ("NSRenamingIdentifier", writer.string(relationship.renamingIdentifier ?? relationship.name)),
            ("_NSDestinationEntityName", writer.string(destination)),
        ]
        if relationship.isOrdered { fields.append(("NSIsOrdered", .bool(true))) }
        common(optional: relationship.isOptional, transient: relationship.isTransient, modifier: relationship.versionHashModifier,
               userInfo: relationship.userInfo, into: &fields)
        writer.fill(slot, ["NSRelationshipDescription", "NSPropertyDescription", "NSObject"], fields)
    }

    private mutating func common(optional: Bool, transient: Bool, modifier: String?, userInfo info: [String: String],
                                 into fields: inout [(String, PropertyListValue)]) {
        if optional { fields.append(("NSIsOptional", .bool(true))) }
        if transient { fields.append(("NSIsTransient", .bool(true))) }
        if let modifier { fields.append(("NSVersionHashModifier", writer.string(modifier))) }
        if !info.isEmpty { fields.append(("NSUserInfo", userInfo(info))) }
    }

    private mutating func fetchIndex(_ index: FetchIndexDescription, entity: PropertyListValue) -> PropertyListValue {
        let slot = writer.reserve()
        let elements = index.elements.map { element in
            writer.object(["NSFetchIndexElementDescription", "NSObject"], [
                ("NSPropertyName", writer.string(element.property)), ("NSFetchIndexElementType", .integer(element.type == "RTree" ? 1 : 0)),
                ("NSFetchIndexDescription", slot), ("NSAscending", .bool(element.order != "descending")),
            ])
        }
        writer.fill(slot, ["NSFetchIndexDescription", "NSObject"], [
            ("NSIndexName", writer.string(index.name)), ("NSPartialIndexPredicate", KeyedArchiveWriter.null),
            ("NSIndexElements", writer.array(elements)), ("NSEntity", entity),
        ])
        return slot
    }

    private mutating func userInfo(_ info: [String: String]) -> PropertyListValue {
        writer.dictionary(info.sorted { $0.key < $1.key }.map { ($0.key, writer.string($0.value)) }, mutable: false)
    }

    /// The default as the compiled model holds it: a number, a flag or a string; other kinds
    /// (dates, data) are left out, as nothing that reads the cache needs them.
    private mutating func defaultValue(of attribute: AttributeDescription) -> PropertyListValue {
        guard let text = attribute.defaultValue else { return KeyedArchiveWriter.null }
        switch attribute.type {
        case .integer16, .integer32, .integer64: return Int64(text).map { .integer($0) } ?? KeyedArchiveWriter.null
        case .double, .float, .decimal: return Double(text).map { .real($0) } ?? KeyedArchiveWriter.null
        case .boolean: return .bool(["YES", "yes", "true", "1"].contains(text))
        case .string, .uri: return writer.string(text)
        default: return KeyedArchiveWriter.null
        }
    }
}
