import FerryModel
import Foundation

/// Reads a compiled `NSManagedObjectModel`: a `.mom` file, or the raw-deflate-compressed copy
/// Core Data keeps in a store's `Z_MODELCACHE` table (SwiftData stores too, which have no XML
/// model). The result is a ``DataModel`` like one parsed from XML, with what the compiled
/// form keeps: entities, inheritance, attributes with types and defaults, relationships,
/// uniqueness constraints and indexes.
///
/// For example:
/// ```swift
/// let model = try ArchivedModel.decodeModelCache(blob, file: "Store.sqlite: Z_MODELCACHE")
/// ```
public enum ArchivedModel {
    /// Decodes a `.mom` keyed archive.
    /// - Throws: ``CoreDataReadError`` with kind `.badModel`.
    public static func decode(_ data: Data, file: String, versionName: String? = nil) throws(CoreDataReadError) -> DataModel {
        let archive: KeyedArchive
        do {
            archive = try KeyedArchive(data: data)
        } catch {
            throw CoreDataReadError(.badModel(error.reason), file: file)
        }
        guard archive.className(of: archive.root) == "NSManagedObjectModel" else {
            throw CoreDataReadError(.badModel("the archive holds \(archive.className(of: archive.root) ?? "no object"), not NSManagedObjectModel"), file: file)
        }
        return Reader(archive: archive, file: file).model(versionName: versionName)
    }

    /// Inflates and decodes the content of a `Z_MODELCACHE` row.
    public static func decodeModelCache(_ compressed: Data, file: String) throws(CoreDataReadError) -> DataModel {
        let data: Data
        do {
            data = try RawInflate.decompress(compressed)
        } catch {
            throw CoreDataReadError(.badModel("model cache does not decompress: \(error.reason)"), file: file)
        }
        return try decode(data, file: file)
    }

    /// Core Data's `NSAttributeType` raw values.
    static let attributeTypes: [Int64: AttributeType] = [
        0: .undefined, 100: .integer16, 200: .integer32, 300: .integer64, 400: .decimal, 500: .double, 600: .float,
        700: .string, 800: .boolean, 900: .date, 1000: .binary, 1100: .uuid, 1200: .uri, 1800: .transformable,
        2000: .objectID, 2100: .composite,
    ]

    static let deleteRules: [Int64: DeletionRule] = [0: .noAction, 1: .nullify, 2: .cascade, 3: .deny]
}

private struct Reader {
    let archive: KeyedArchive
    let file: String

    func string(_ key: String, of object: PropertyListValue) -> String? {
        archive.field(key, of: object).flatMap { text($0) }
    }

    /// A string stored inline or as an `NSString`/`NSMutableString` object.
    func text(_ value: PropertyListValue) -> String? {
        let resolved = archive.resolve(value)
        if case .string(let text) = resolved { return text == "$null" ? nil : text }
        return archive.field("NS.string", of: resolved)?.string
    }

    func flag(_ key: String, of object: PropertyListValue) -> Bool {
        archive.field(key, of: object)?.bool ?? false
    }

    func model(versionName: String?) -> DataModel {
        let root = archive.root
        var entities: [EntityDescription] = []
        for pair in archive.field("NSEntities", of: root).flatMap(archive.dictionaryPairs) ?? [] {
            if let entity = entity(pair.value) { entities.append(entity) }
        }
        entities.sort { $0.name < $1.name }
        entities = Self.ownPropertiesOnly(entities)
        var attributes: [String: String] = [:]
        let identifiers = archive.field("NSVersionIdentifiers", of: root).flatMap(archive.collectionElements)?.compactMap(text) ?? []
        if let identifier = identifiers.sorted().first { attributes["userDefinedModelVersionIdentifier"] = identifier }
        return DataModel(file: file, versionName: versionName, entities: entities, attributes: attributes)
    }

    /// The model cache lists every property on each entity, inherited ones too (a `.mom` lists
    /// own ones only): keep on each entity what its ancestors do not declare.
    static func ownPropertiesOnly(_ entities: [EntityDescription]) -> [EntityDescription] {
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        return entities.map { entity in
            var inherited: Set<String> = []
            var seen: Set<String> = [entity.name]
            var parent = entity.parentName
            while let name = parent, seen.insert(name).inserted, let ancestor = byName[name] {
                inherited.formUnion(ancestor.attributes.map(\.name) + ancestor.relationships.map(\.name))
                parent = ancestor.parentName
            }
            var own = entity
            own.attributes.removeAll { inherited.contains($0.name) }
            own.relationships.removeAll { inherited.contains($0.name) }
            return own
        }
    }

    func entity(_ reference: PropertyListValue) -> EntityDescription? {
        guard let name = string("NSEntityName", of: reference) else { return nil }
        let parent = archive.field("NSSuperentity", of: reference).flatMap { string("NSEntityName", of: $0) }
        var entity = EntityDescription(name: name, parentName: parent)
        entity.representedClassName = string("NSClassNameForEntity", of: reference)
        entity.renamingIdentifier = string("NSRenamingIdentifier", of: reference).flatMap { $0 == name ? nil : $0 }
        entity.versionHashModifier = string("NSVersionHashModifier", of: reference)
        entity.isAbstract = flag("NSIsAbstract", of: reference)
        for pair in archive.field("NSProperties", of: reference).flatMap(archive.dictionaryPairs) ?? [] {
            switch archive.className(of: pair.value) {
            // A derived attribute is stored like any other (Photos Asset.derivedCameraCaptureDevice).
            case "NSAttributeDescription", "NSDerivedAttributeDescription": entity.attributes.append(attribute(pair.value))
            case "NSRelationshipDescription": entity.relationships.append(relationship(pair.value))
            default: break
            }
        }
        entity.attributes.sort { $0.name < $1.name }
        entity.relationships.sort { $0.name < $1.name }
        entity.uniquenessConstraints = nameLists(archive.field("NSUniqueTuples", of: reference))
        entity.compoundIndexes = nameLists(archive.field("NSCompoundIndexes", of: reference))
        // A compiled model also lists each indexed attribute and compound index as a fetch index
        // of its own name (Wire's Conversation.normalizedUserDefinedName): those are not the model's.
        let implied = Set(entity.attributes.filter(\.isIndexed).map { [$0.name] } + entity.compoundIndexes)
        var seen: Set<String> = []
        entity.fetchIndexes = (archive.field("NSFetchIndexDescriptions", of: reference).flatMap(archive.collectionElements) ?? []).map(fetchIndex)
            .filter { index in
                let properties = index.elements.compactMap(\.property)
                let isImplied = implied.contains(properties) && index.name == properties.joined(separator: "_")
                return !isImplied && seen.insert(index.name).inserted
            }
        return entity
    }

    func attribute(_ reference: PropertyListValue) -> AttributeDescription {
        let code = archive.field("NSAttributeType", of: reference)?.integer ?? 0
        var attribute = AttributeDescription(name: string("NSPropertyName", of: reference) ?? "",
                                             type: ArchivedModel.attributeTypes[code] ?? .undefined)
        attribute.isOptional = flag("NSIsOptional", of: reference)
        attribute.isTransient = flag("NSIsTransient", of: reference)
        attribute.isIndexed = flag("NSIsIndexed", of: reference)
        attribute.valueTransformerName = string("NSValueTransformerName", of: reference)
        attribute.customClassName = string("NSAttributeValueClassName", of: reference)
        attribute.renamingIdentifier = string("NSRenamingIdentifier", of: reference).flatMap { $0 == attribute.name ? nil : $0 }
        attribute.versionHashModifier = string("NSVersionHashModifier", of: reference)
        // Bit 0x10 of NSFlagsKey is set on the one attribute of the corpus marked
        // preserveAfterDeletion (CoreDataPlus' Person.id), and on no other. Bit 0x4 is external
        // storage in model caches (Wire's User.imageMediumData, allowsExternalBinaryDataStorage in
        // the XML), which a .mom says with a key of its own.
        let flags = archive.field("NSFlagsKey", of: reference)?.integer ?? 0
        attribute.allowsExternalBinaryDataStorage = flag("NSAllowsExternalBinaryDataStorage", of: reference) || flags & 0x4 != 0
        attribute.preservesValueInHistoryOnDeletion = flags & 0x10 != 0
        attribute.isDerived = archive.field("NSDerivationExpression", of: reference) != nil
        if let value = archive.field("NSDefaultValue", of: reference) {
            switch value {
            case .string(let text): attribute.defaultValue = text
            case .integer(let number): attribute.defaultValue = attribute.type == .boolean ? (number != 0 ? "YES" : "NO") : String(number)
            case .real(let number): attribute.defaultValue = String(number)
            case .bool(let flag): attribute.defaultValue = flag ? "YES" : "NO"
            default: attribute.defaultValue = text(value)
            }
        }
        if attribute.type == .undefined && code != 0 { attribute.otherAttributes["NSAttributeType"] = String(code) }
        return attribute
    }

    func relationship(_ reference: PropertyListValue) -> RelationshipDescription {
        let destination = archive.field("NSDestinationEntity", of: reference).flatMap { string("NSEntityName", of: $0) }
            ?? string("_NSDestinationEntityName", of: reference)
        var relationship = RelationshipDescription(name: string("NSPropertyName", of: reference) ?? "", destination: destination)
        relationship.inverseName = archive.field("NSInverseRelationship", of: reference).flatMap { string("NSPropertyName", of: $0) }
            ?? string("_NSInverseRelationshipName", of: reference)
        relationship.inverseEntity = relationship.inverseName == nil ? nil : destination
        relationship.isOptional = flag("NSIsOptional", of: reference)
        relationship.isTransient = flag("NSIsTransient", of: reference)
        relationship.isOrdered = flag("NSIsOrdered", of: reference)
        let maxCount = Int(archive.field("NSMaxCount", of: reference)?.integer ?? 0)
        let minCount = Int(archive.field("NSMinCount", of: reference)?.integer ?? 0)
        relationship.isToMany = maxCount != 1
        relationship.maxCount = maxCount == 0 ? nil : maxCount
        relationship.minCount = minCount == 0 ? nil : minCount
        relationship.deletionRule = ArchivedModel.deleteRules[archive.field("NSDeleteRule", of: reference)?.integer ?? 1] ?? .nullify
        relationship.renamingIdentifier = string("NSRenamingIdentifier", of: reference).flatMap { $0 == relationship.name ? nil : $0 }
        relationship.versionHashModifier = string("NSVersionHashModifier", of: reference)
        return relationship
    }

    func fetchIndex(_ reference: PropertyListValue) -> FetchIndexDescription {
        let elements = (archive.field("NSIndexElements", of: reference).flatMap(archive.collectionElements) ?? []).map { element in
            FetchIndexDescription.Element(
                property: string("NSPropertyName", of: element),
                expression: nil,
                type: archive.field("NSFetchIndexElementType", of: element)?.integer == 1 ? "RTree" : "Binary",
                order: archive.field("NSAscending", of: element)?.bool == false ? "descending" : "ascending",
                otherAttributes: [:])
        }
        return FetchIndexDescription(name: string("NSIndexName", of: reference) ?? "", elements: elements, line: 0,
                                     partialIndexPredicate: archive.field("NSPartialIndexPredicate", of: reference).flatMap(indexPredicate))
    }

    /// An `NSPredicate` of a partial index: an `NSComparisonPredicate` of a key path and a
    /// constant, or an `NSCompoundPredicate` (AND, OR) of such; nil for any other.
    func indexPredicate(_ reference: PropertyListValue) -> IndexPredicate? {
        switch archive.className(of: reference) {
        case "NSCompoundPredicate":
            let parts = (archive.field("NSSubpredicates", of: reference).flatMap(archive.collectionElements) ?? []).map(indexPredicate)
            guard !parts.isEmpty, parts.allSatisfy({ $0 != nil }) else { return nil }
            switch archive.field("NSCompoundPredicateType", of: reference)?.integer {
            case 1: return .and(parts.compactMap { $0 })
            case 2: return .or(parts.compactMap { $0 })
            default: return nil   // NOT: no store shows its SQL
            }
        case "NSComparisonPredicate":
            guard let left = archive.field("NSLeftExpression", of: reference), archive.field("NSExpressionType", of: left)?.integer == 3,
                  let argument = archive.field("NSArguments", of: left).flatMap(archive.collectionElements)?.first,
                  // An NSKeyPathSpecifierExpression: the key path is its NSKeyPath.
                  let property = archive.field("NSKeyPath", of: argument).flatMap(text) ?? text(archive.resolve(argument)),
                  let right = archive.field("NSRightExpression", of: reference), archive.field("NSExpressionType", of: right)?.integer == 0,
                  let value = constant(right),
                  let operation = archive.field("NSPredicateOperator", of: reference),
                  let comparison = archive.field("NSOperatorType", of: operation)?.integer.flatMap({ IndexPredicate.Comparison(rawValue: Int($0)) }),
                  (archive.field("NSModifier", of: operation)?.integer ?? 0) == 0 else { return nil }
            return .compare(property: property, comparison, value)
        default:
            return nil
        }
    }

    /// The value of an `NSConstantValueExpression` (none is nil).
    private func constant(_ expression: PropertyListValue) -> IndexPredicate.Constant? {
        guard let value = archive.field("NSConstantValue", of: expression) else { return .null }
        switch value {
        case .null: return .null
        case .bool(let flag): return .integer(flag ? 1 : 0)
        case .integer(let integer): return .integer(integer)
        case .real(let real): return .real(real)
        default: return text(value).map(IndexPredicate.Constant.text)
        }
    }

    /// Arrays of arrays whose members are property names or property descriptions.
    func nameLists(_ value: PropertyListValue?) -> [[String]] {
        (value.flatMap(archive.collectionElements) ?? []).map { list in
            (archive.collectionElements(list) ?? []).compactMap { member in
                text(member) ?? string("NSPropertyName", of: member)
            }
        }
    }
}
