import FerryJSON
import FerryModel
import Foundation

/// Reads a model as Xcode 3 saved it: an `.xcdatamodel` folder holding `elements` (and `layout`,
/// the diagram's positions) instead of `contents`.
///
/// `elements` is an `NSKeyedArchiver` archive of Xcode's design classes: an `XDPMModel` whose
/// root package holds the `XDPMEntity` objects by name, each holding its `XDPMAttribute` and
/// `XDPMRelationship` objects by name. Every setting is a UML "stereotype" property: a name
/// (`XD_PPSK_isOptional`, `XD_PAttK_attributeType`, `XD_PRK_destination`) and its value in
/// `_default`. Learnt from the two real models in `corpus/pre-xcode4-models`; a setting this
/// reader does not map is kept in `otherAttributes` (prefixed `xcode3:`), and an element it
/// does not know (a fetched property, a fetch request) in `unknownElements`, so nothing the file
/// says is dropped unseen.
///
/// For example:
/// ```swift
/// let bundle = try ModelBundle(at: "Books.xcdatamodel", xcode3Reader: Xcode3ModelArchive.read)
/// ```
public enum Xcode3ModelArchive {
    /// Reads and decodes one `elements` file; the signature of ``ModelBundle/Xcode3Reader``.
    /// - Throws: ``ModelError`` naming the file, and the entity and property where known.
    @Sendable public static func read(_ path: String, displayPath: String, versionName: String?) throws(ModelError) -> DataModel {
        try decode(ModelParser().read(path, displayPath: displayPath), file: displayPath, versionName: versionName)
    }

    public static func decode(_ data: Data, file: String, versionName: String?) throws(ModelError) -> DataModel {
        let archive: KeyedArchive
        do {
            archive = try KeyedArchive(data: data)
        } catch {
            throw ModelError(.badXcode3Archive("not a keyed archive: \(error.reason)"), at: ModelLocation(file: file))
        }
        let rootClass = archive.className(of: archive.root) ?? "no object"
        guard rootClass == "XDPMModel" else {
            throw ModelError(.badXcode3Archive("the archive holds \(rootClass), not Xcode 3's XDPMModel"), at: ModelLocation(file: file))
        }
        return try Xcode3ModelReader(archive: archive, file: file).model(versionName: versionName)
    }
}

private struct Xcode3ModelReader {
    let archive: KeyedArchive
    let file: String

    /// A design object's stereotype settings, by name, with values resolved.
    typealias Settings = [String: PropertyListValue]

    func model(versionName: String?) throws(ModelError) -> DataModel {
        let root = archive.root
        guard let package = archive.field("_xd_rootPackage", of: root),
              let classes = archive.field("XDBucketForClassesstorage", of: package).flatMap(archive.dictionaryPairs) else {
            throw ModelError(.badXcode3Archive("no entities: the model has no root package of classes"), at: ModelLocation(file: file))
        }
        var entities: [EntityDescription] = []
        var others: [RawXMLElement] = []
        var fetchRequests: [FetchRequestDescription] = []
        for pair in classes {
            let className = archive.className(of: pair.value) ?? "no class"
            guard className == "XDPMEntity" else {
                others.append(RawXMLElement(name: "xcode3Class", attributes: ["name": text(pair.key) ?? "", "class": className]))
                continue
            }
            let (entity, requests) = try self.entity(pair.value)
            entities.append(entity)
            fetchRequests += requests
        }
        entities.sort { $0.name < $1.name }
        var attributes: [String: String] = [:]
        if let identifier = archive.field("_modelVersionIdentifier", of: root).flatMap(text), !identifier.isEmpty {
            attributes["userDefinedModelVersionIdentifier"] = identifier
        }
        var model = DataModel(file: file, versionName: versionName, entities: entities, attributes: attributes)
        model.fetchRequests = fetchRequests
        model.configurations = configurations(archive.field("_configurationsByName", of: root))
        model.unknownElements = others
        return model
    }

    func entity(_ reference: PropertyListValue) throws(ModelError) -> (EntityDescription, [FetchRequestDescription]) {
        guard let name = archive.field("_name", of: reference).flatMap(text), !name.isEmpty else {
            throw ModelError(.badXcode3Archive("an entity without a name"), at: ModelLocation(file: file))
        }
        let location = ModelLocation(file: file, entity: name)
        var settings = self.settings(of: reference)
        var entity = EntityDescription(name: name, parentName: try parent(of: reference, at: location))
        entity.isAbstract = take("XD_PSK_isAbstract", from: &settings)?.bool ?? archive.field("_isAbstract", of: reference)?.bool ?? false
        entity.representedClassName = take("XD_PSK_entityClassName", from: &settings).flatMap(text)
        entity.versionHashModifier = take("XD_PSK_versionHashModifier", from: &settings).flatMap(text)
        entity.renamingIdentifier = take("XD_PSK_elementID", from: &settings).flatMap(text)
        entity.userInfo = userInfo(take("XD_PSK_userInfo", from: &settings))
        entity.compoundIndexes = nameLists(take("XDPMCompoundIndexes", from: &settings))
        // The class mapping is the design-time twin of the class name above.
        _ = take("XD_PSK_classMapping", from: &settings)
        let requests = (take("XD_PSK_fetchRequestsArray", from: &settings).flatMap(archive.collectionElements) ?? [])
            .map { fetchRequest($0, entity: name) }
        entity.otherAttributes = leftovers(settings)
        for pair in archive.field("XDBucketForOwnedAttributesstorage", of: reference).flatMap(archive.dictionaryPairs) ?? [] {
            let propertyName = text(pair.key) ?? ""
            switch archive.className(of: pair.value) {
            case "XDPMAttribute": entity.attributes.append(try attribute(pair.value, name: propertyName, at: location))
            case "XDPMRelationship": entity.relationships.append(try relationship(pair.value, name: propertyName, at: location))
            case let other:
                entity.unknownElements.append(RawXMLElement(name: "xcode3Property", attributes: ["name": propertyName, "class": other ?? "no class"]))
            }
        }
        entity.attributes.sort { $0.name < $1.name }
        entity.relationships.sort { $0.name < $1.name }
        return (entity, requests)
    }

    /// The parent entity: Xcode 3 keeps it as a UML generalization. Neither real model has one,
    /// so both plausible shapes are read: the entity itself, or an object pointing at it.
    func parent(of reference: PropertyListValue, at location: ModelLocation) throws(ModelError) -> String? {
        let generalizations = archive.field("XDBucketForGeneralizationsstorage", of: reference).flatMap(archive.collectionElements) ?? []
        guard let first = generalizations.first else { return nil }
        if archive.className(of: first) == "XDPMEntity" { return archive.field("_name", of: first).flatMap(text) }
        let selfName = archive.field("_name", of: reference).flatMap(text)
        for member in archive.resolve(first).members ?? [] where member.key != "$class" {
            if archive.className(of: member.value) == "XDPMEntity",
               let name = archive.field("_name", of: member.value).flatMap(text), name != selfName {
                return name
            }
        }
        throw ModelError(.badXcode3Archive("its generalization (\(archive.className(of: first) ?? "no class")) names no parent entity"),
                         at: location)
    }

    func attribute(_ reference: PropertyListValue, name: String, at entity: ModelLocation) throws(ModelError) -> AttributeDescription {
        var location = entity
        location.element = "attribute \"\(name)\""
        var settings = self.settings(of: reference)
        let code = take("XD_PAttK_attributeType", from: &settings)?.integer ?? 0
        guard let type = ArchivedModel.attributeTypes[code] else {
            throw ModelError(.invalidValue(attribute: "XD_PAttK_attributeType", value: String(code), expected: "a known attribute type"),
                             at: location)
        }
        var attribute = AttributeDescription(name: name, type: type)
        readPropertySettings(&settings, into: &attribute.isOptional, &attribute.isTransient, &attribute.isIndexed,
                             &attribute.isIndexedBySpotlight, &attribute.isStoredInExternalRecord,
                             &attribute.versionHashModifier, &attribute.renamingIdentifier, &attribute.userInfo)
        attribute.defaultValue = take("XD_PAttK_defaultValueAsString", from: &settings).flatMap(text)
        attribute.minValue = take("XD_PAttK_minValueString", from: &settings).flatMap(text)
        attribute.maxValue = take("XD_PAttK_maxValueString", from: &settings).flatMap(text)
        attribute.regularExpression = take("XD_PAttK_regularExpressionString", from: &settings).flatMap(text)
        attribute.valueTransformerName = take("XD_PAttK_valueTransformerName", from: &settings).flatMap(text)
        attribute.allowsExternalBinaryDataStorage = take("XD_PAttK_allowsExternalBinaryDataStorage", from: &settings)?.bool ?? false
        attribute.otherAttributes = leftovers(settings)
        return attribute
    }

    func relationship(_ reference: PropertyListValue, name: String, at entity: ModelLocation) throws(ModelError) -> RelationshipDescription {
        var location = entity
        location.element = "relationship \"\(name)\""
        var settings = self.settings(of: reference)
        guard let destination = take("XD_PRK_destination", from: &settings).flatMap({ archive.field("_name", of: $0) }).flatMap(text) else {
            throw ModelError(.badXcode3Archive("no destination entity"), at: location)
        }
        var relationship = RelationshipDescription(name: name, destination: destination)
        readPropertySettings(&settings, into: &relationship.isOptional, &relationship.isTransient, &relationship.isIndexed,
                             &relationship.isIndexedBySpotlight, &relationship.isStoredInExternalRecord,
                             &relationship.versionHashModifier, &relationship.renamingIdentifier, &relationship.userInfo)
        relationship.inverseName = take("XD_PRK_inverseRelationship", from: &settings).flatMap { archive.field("_name", of: $0) }.flatMap(text)
        relationship.inverseEntity = relationship.inverseName == nil ? nil : destination
        relationship.isToMany = take("XD_PRK_isToMany", from: &settings)?.bool ?? false
        // RestKit's model says `XD_PRK_ordered`; the other spelling is kept in case a later Xcode 3 used it.
        let ordered = take("XD_PRK_ordered", from: &settings)?.bool
        relationship.isOrdered = ordered ?? take("XD_PRK_isOrdered", from: &settings)?.bool ?? false
        let minCount = Int(take("XD_PRK_minCount", from: &settings)?.integer ?? 0)
        let maxCount = Int(take("XD_PRK_maxCount", from: &settings)?.integer ?? 0)
        relationship.minCount = minCount > 0 ? minCount : nil
        relationship.maxCount = maxCount > 0 ? maxCount : nil
        let rule = take("XD_PRK_deleteRule", from: &settings)?.integer ?? 1
        guard let deletionRule = ArchivedModel.deleteRules[rule] else {
            throw ModelError(.invalidValue(attribute: "XD_PRK_deleteRule", value: String(rule), expected: "0, 1, 2 or 3"), at: location)
        }
        relationship.deletionRule = deletionRule
        relationship.otherAttributes = leftovers(settings)
        return relationship
    }

    /// The settings every property has (`XD_PPSK_…`).
    func readPropertySettings(_ settings: inout Settings, into optional: inout Bool, _ transient: inout Bool, _ indexed: inout Bool,
                              _ spotlight: inout Bool, _ truthFile: inout Bool, _ hashModifier: inout String?,
                              _ renamingIdentifier: inout String?, _ info: inout [String: String]) {
        optional = take("XD_PPSK_isOptional", from: &settings)?.bool ?? false
        transient = take("XD_PPSK_isTransient", from: &settings)?.bool ?? false
        indexed = take("XD_PPSK_isIndexed", from: &settings)?.bool ?? false
        spotlight = take("XD_PPSK_isSpotlightIndexed", from: &settings)?.bool ?? false
        truthFile = take("XD_PPSK_isStoredInTruthFile", from: &settings)?.bool ?? false
        hashModifier = take("XD_PPSK_versionHashModifier", from: &settings).flatMap(text)
        renamingIdentifier = take("XD_PPSK_elementID", from: &settings).flatMap(text)
        info = userInfo(take("XD_PPSK_userInfo", from: &settings))
    }

    /// Every stereotype's properties of a design object: name → `_default`, resolved; `$null` left out.
    func settings(of reference: PropertyListValue) -> Settings {
        var settings: Settings = [:]
        for stereotype in archive.field("XDBucketForStereotypesstorage", of: reference).flatMap(archive.dictionaryPairs) ?? [] {
            for property in archive.field("XDBucketForOwnedAttributesstorage", of: stereotype.value).flatMap(archive.dictionaryPairs) ?? [] {
                guard let name = text(property.key), let value = archive.field("_default", of: property.value) else { continue }
                if value.string == "$null" || value == .null { continue }
                settings[name] = value
            }
        }
        return settings
    }

    func take(_ key: String, from settings: inout Settings) -> PropertyListValue? {
        settings.removeValue(forKey: key)
    }

    /// Settings no field takes, as text, so that a model with one this reader does not know
    /// still says it (`ferry inspect --format json` shows them).
    func leftovers(_ settings: Settings) -> [String: String] {
        var result: [String: String] = [:]
        for (key, value) in settings { result["xcode3:" + key] = text(value) ?? JSONWriter.string(json(value, depth: 0)) }
        return result
    }

    /// userInfo as Xcode 3 kept it: Sync Services' keys among the user's, some with dictionary
    /// values, which are kept as JSON text.
    func userInfo(_ value: PropertyListValue?) -> [String: String] {
        var info: [String: String] = [:]
        for pair in value.flatMap(archive.dictionaryPairs) ?? [] {
            guard let key = text(pair.key) else { continue }
            let resolved = archive.resolve(pair.value)
            info[key] = text(resolved) ?? JSONWriter.string(json(resolved, depth: 0))
        }
        return info
    }

    func fetchRequest(_ reference: PropertyListValue, entity: String) -> FetchRequestDescription {
        // No real Xcode 3 model with a fetch request was at hand: its name is read where the
        // other design objects keep theirs, and its settings as text.
        var settings = self.settings(of: reference)
        let name = archive.field("_name", of: reference).flatMap(text) ?? ""
        // Taken as the predicate only when it is text; an archived NSPredicate stays in the settings, as JSON.
        let predicate = settings.first { $0.key.lowercased().contains("predicate") && text($0.value) != nil }
        if let predicate { settings.removeValue(forKey: predicate.key) }
        var remaining = leftovers(settings)
        remaining["xcode3:class"] = archive.className(of: reference) ?? "no class"
        return FetchRequestDescription(name: name, entity: entity, predicate: predicate.flatMap { text($0.value) }, settings: remaining)
    }

    func configurations(_ value: PropertyListValue?) -> [ConfigurationDescription] {
        (value.flatMap(archive.dictionaryPairs) ?? []).compactMap { pair in
            guard let name = text(pair.key) else { return nil }
            // A set or array of entities; a dictionary of them by name gives its keys.
            let elements = archive.collectionElements(pair.value) ?? archive.dictionaryPairs(pair.value)?.map(\.key) ?? []
            let members = elements.compactMap { member in
                text(member) ?? archive.field("_name", of: member).flatMap(text)
            }
            return ConfigurationDescription(name: name, memberEntities: members.sorted())
        }.sorted { $0.name < $1.name }
    }

    /// Arrays of arrays of property names or design properties.
    func nameLists(_ value: PropertyListValue?) -> [[String]] {
        (value.flatMap(archive.collectionElements) ?? []).map { list in
            (archive.collectionElements(list) ?? []).compactMap { member in
                text(member) ?? archive.field("_name", of: member).flatMap(text)
            }
        }
    }

    /// A string (inline or `NSString`), a number or a flag as text; nil for anything else.
    func text(_ value: PropertyListValue) -> String? {
        let resolved = archive.resolve(value)
        switch resolved {
        case .string(let text): return text == "$null" ? nil : text
        case .bool(let flag): return flag ? "YES" : "NO"
        case .integer(let number): return String(number)
        case .unsignedInteger(let number): return String(number)
        case .real(let number): return String(number)
        default: return archive.field("NS.string", of: resolved)?.string
        }
    }

    func json(_ value: PropertyListValue, depth: Int) -> JSONValue {
        let resolved = archive.resolve(value)
        if let text = text(resolved) { return .string(text) }
        guard depth < 32 else { return .null }
        if let pairs = archive.dictionaryPairs(resolved) {
            return .object(JSONObject(pairs.map { (text($0.key) ?? "", json($0.value, depth: depth + 1)) }))
        }
        if let elements = archive.collectionElements(resolved) { return .array(elements.map { json($0, depth: depth + 1) }) }
        return .string(archive.className(of: resolved) ?? "")
    }
}
