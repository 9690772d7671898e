import FerryFiles
import Foundation

/// Writes a model as Xcode's `contents` XML, so that a model known only compiled (decoded from
/// a `.momd`) becomes an editable `.xcdatamodeld`. Flags are written only when not default, as
/// Xcode writes them; what the model does not hold (Xcode's layout, a compiled model's lost
/// source details) is left out. Reading the written file back gives the same model.
public struct ModelXMLWriter: Sendable {
    public init() {}

    public func contents(_ model: DataModel) -> String {
        var lines = [#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#]
        var root = model.attributes
        root["type"] = root["type"] ?? "com.apple.IDECoreDataModeler.DataModel"
        root["documentVersion"] = root["documentVersion"] ?? "1.0"
        lines.append("<model\(Self.attributes(root.sorted { $0.key < $1.key }))>")
        for entity in model.entities { lines += self.entity(entity) }
        for request in model.fetchRequests { lines.append("    <fetchRequest\(Self.attributes(request))/>") }
        for configuration in model.configurations {
            var pairs = [("name", configuration.name)]
            if configuration.usedWithCloudKit { pairs.append(("usedWithCloudKit", "YES")) }
            lines.append("    <configuration\(Self.attributes(pairs + configuration.otherAttributes.sorted { $0.key < $1.key }))>")
            for member in configuration.memberEntities { lines.append("        <memberEntity\(Self.attributes([("name", member)]))/>") }
            lines.append("    </configuration>")
        }
        for composite in model.composites {
            lines.append("    <composite\(Self.attributes([("name", composite.name)]))>")
            for attribute in composite.attributes { lines += self.attribute(attribute, indent: "        ") }
            lines.append("    </composite>")
        }
        lines.append("</model>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes every version into a new `.xcdatamodeld` folder, naming the current one in
    /// `.xccurrentversion`: staged beside it, flushed, then renamed into place; an existing
    /// folder is refused.
    /// - Throws: `OutputError` naming the folder.
    public func writeBundle(_ versions: [(name: String, model: DataModel)], current: String?, to path: String) throws {
        guard !FileManager.default.fileExists(atPath: path) else {
            throw OutputError(path: path, reason: "it exists; remove it or choose another name")
        }
        let folder = (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent
        guard FileManager.default.isWritableFile(atPath: folder) else {
            throw OutputError(path: path, reason: "the folder \(folder) does not exist or is not writable")
        }
        let staging = FileSync.temporaryPath(beside: path)
        do {
            var files: [(path: String, text: String)] = versions.map { version in
                ((staging as NSString).appendingPathComponent("\(version.name).xcdatamodel/contents"), contents(version.model))
            }
            if let current {
                files.append(((staging as NSString).appendingPathComponent(".xccurrentversion"), """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
                    <plist version="1.0">
                    <dict>
                    \t<key>_XCCurrentVersionName</key>
                    \t<string>\(Self.escaped(current)).xcdatamodel</string>
                    </dict>
                    </plist>

                    """))
            }
            for file in files {
                try FileManager.default.createDirectory(atPath: (file.path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try Data(file.text.utf8).write(to: URL(fileURLWithPath: file.path))
                try FileSync.flush(file.path)
            }
            try FileSync.publish(staging, as: path)
        } catch {
            ScratchFiles.remove(staging)
            let reason = (error as? FileError)?.reason ?? (error as NSError).localizedDescription
            throw OutputError(path: path, reason: "cannot be written: \(reason)")
        }
    }

    private func entity(_ entity: EntityDescription) -> [String] {
        var pairs: [(String, String?)] = [("name", entity.name), ("representedClassName", entity.representedClassName),
                                          ("parentEntity", entity.parentName), ("isAbstract", Self.yes(entity.isAbstract)),
                                          ("elementID", entity.renamingIdentifier), ("versionHashModifier", entity.versionHashModifier),
                                          ("codeGenerationType", entity.codeGenerationType), ("syncable", entity.isSyncable.map(Self.yesNo))]
        pairs += entity.otherAttributes.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        var lines = ["    <entity\(Self.attributes(pairs))>"]
        for attribute in entity.attributes { lines += self.attribute(attribute, indent: "        ") }
        for relationship in entity.relationships { lines += self.relationship(relationship) }
        for property in entity.fetchedProperties {
            var attributes: [(String, String?)] = [("name", property.name), ("optional", Self.yes(property.isOptional)),
                                                   ("elementID", property.renamingIdentifier),
                                                   ("versionHashModifier", property.versionHashModifier),
                                                   ("syncable", property.isSyncable.map(Self.yesNo))]
            attributes += property.otherAttributes.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
            lines.append("        <fetchedProperty\(Self.attributes(attributes))>")
            if let request = property.fetchRequest { lines.append("            <fetchRequest\(Self.attributes(request))/>") }
            lines += userInfo(property.userInfo, indent: "            ")
            lines.append("        </fetchedProperty>")
        }
        for index in entity.fetchIndexes {
            lines.append("        <fetchIndex\(Self.attributes([("name", index.name)]))>")
            for element in index.elements {
                let pairs: [(String, String?)] = [("property", element.property), ("expression", element.expression),
                                                  ("type", element.type), ("order", element.order)]
                lines.append("            <fetchIndexElement\(Self.attributes(pairs + element.otherAttributes.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))/>")
            }
            lines.append("        </fetchIndex>")
        }
        lines += lists(entity.compoundIndexes, group: "compoundIndexes", item: "compoundIndex", member: "index")
        lines += lists(entity.uniquenessConstraints, group: "uniquenessConstraints", item: "uniquenessConstraint", member: "constraint")
        lines += userInfo(entity.userInfo, indent: "        ")
        lines.append("    </entity>")
        return lines
    }

    private func attribute(_ attribute: AttributeDescription, indent: String) -> [String] {
        var pairs: [(String, String?)] = [
            ("name", attribute.name), ("optional", Self.yes(attribute.isOptional)), ("transient", Self.yes(attribute.isTransient)),
            ("attributeType", attribute.type == .undefined ? nil : attribute.type.rawValue),
            ("derived", Self.yes(attribute.isDerived)), ("derivationExpression", attribute.derivationExpression),
            ("indexed", Self.yes(attribute.isIndexed)), ("spotlightIndexingEnabled", Self.yes(attribute.isIndexedBySpotlight)),
            ("storedInTruthFile", Self.yes(attribute.isStoredInExternalRecord)),
            ("minValueString", attribute.minValue), ("maxValueString", attribute.maxValue),
            ("minDateTimeInterval", attribute.minDateTimeInterval), ("maxDateTimeInterval", attribute.maxDateTimeInterval),
            ("regularExpressionString", attribute.regularExpression),
            ("defaultValueString", attribute.defaultValue), ("defaultDateTimeInterval", attribute.defaultDateTimeInterval),
            ("valueTransformerName", attribute.valueTransformerName), ("customClassName", attribute.customClassName),
            ("allowsExternalBinaryDataStorage", Self.yes(attribute.allowsExternalBinaryDataStorage)),
            ("allowsCloudEncryption", Self.yes(attribute.allowsCloudEncryption)),
            ("preserveAfterDeletion", Self.yes(attribute.preservesValueInHistoryOnDeletion)),
            ("usesScalarValueType", attribute.usesScalarValueType.map(Self.yesNo)), ("composite", attribute.compositeName),
            ("elementID", attribute.renamingIdentifier), ("versionHashModifier", attribute.versionHashModifier),
            ("syncable", attribute.isSyncable.map(Self.yesNo)),
        ]
        pairs += attribute.otherAttributes.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        let info = userInfo(attribute.userInfo, indent: indent + "    ")
        guard !info.isEmpty else { return ["\(indent)<attribute\(Self.attributes(pairs))/>"] }
        return ["\(indent)<attribute\(Self.attributes(pairs))>"] + info + ["\(indent)</attribute>"]
    }

    private func relationship(_ relationship: RelationshipDescription) -> [String] {
        var pairs: [(String, String?)] = [
            ("name", relationship.name), ("optional", Self.yes(relationship.isOptional)), ("transient", Self.yes(relationship.isTransient)),
            ("toMany", Self.yes(relationship.isToMany)), ("ordered", Self.yes(relationship.isOrdered)),
            ("minCount", relationship.minCount.map(String.init)), ("maxCount", relationship.maxCount.map(String.init)),
            ("deletionRule", relationship.deletionRule.rawValue), ("destinationEntity", relationship.destinationEntity),
            ("inverseName", relationship.inverseName), ("inverseEntity", relationship.inverseEntity),
            ("indexed", Self.yes(relationship.isIndexed)), ("spotlightIndexingEnabled", Self.yes(relationship.isIndexedBySpotlight)),
            ("storedInTruthFile", Self.yes(relationship.isStoredInExternalRecord)),
            ("elementID", relationship.renamingIdentifier), ("versionHashModifier", relationship.versionHashModifier),
            ("syncable", relationship.isSyncable.map(Self.yesNo)),
        ]
        pairs += relationship.otherAttributes.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        let info = userInfo(relationship.userInfo, indent: "            ")
        guard !info.isEmpty else { return ["        <relationship\(Self.attributes(pairs))/>"] }
        return ["        <relationship\(Self.attributes(pairs))>"] + info + ["        </relationship>"]
    }

    private func lists(_ lists: [[String]], group: String, item: String, member: String) -> [String] {
        guard !lists.isEmpty else { return [] }
        var lines = ["        <\(group)>"]
        for list in lists {
            lines.append("            <\(item)>")
            for name in list { lines.append("                <\(member)\(Self.attributes([("value", name)]))/>") }
            lines.append("            </\(item)>")
        }
        lines.append("        </\(group)>")
        return lines
    }

    private func userInfo(_ info: [String: String], indent: String) -> [String] {
        guard !info.isEmpty else { return [] }
        return ["\(indent)<userInfo>"]
            + info.sorted { $0.key < $1.key }.map { "\(indent)    <entry\(Self.attributes([("key", $0.key), ("value", $0.value)]))/>" }
            + ["\(indent)</userInfo>"]
    }

    private static func attributes(_ request: FetchRequestDescription) -> String {
        attributes([("name", request.name), ("entity", request.entity), ("predicateString", request.predicate)]
            + request.settings.sorted { $0.key < $1.key }.map { ($0.key, Optional($0.value)) })
    }

    private static func yes(_ flag: Bool) -> String? { flag ? "YES" : nil }
    private static func yesNo(_ flag: Bool) -> String { flag ? "YES" : "NO" }

    private static func attributes(_ pairs: [(String, String?)]) -> String {
        pairs.compactMap { key, value in value.map { " \(key)=\"\(escaped($0))\"" } }.joined()
    }

    private static func attributes(_ pairs: [(key: String, value: String)]) -> String {
        attributes(pairs.map { ($0.key, Optional($0.value)) })
    }

    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "\n": result += "&#10;"
            case "\t": result += "&#9;"
            default: result.append(character)
            }
        }
        return result
    }
}
