import FerryModel
import Foundation

/// A compiled model: an `.momd` folder (`VersionInfo.plist` plus one `.mom` per version) or a
/// lone `.mom`. Its version hashes are the exact values Core Data writes into stores.
///
/// For example:
/// ```swift
/// let compiled = try CompiledModel(at: "SampleModel.momd")
/// compiled.versionHashes["SampleModel2"]?["Car"]
/// ```
public struct CompiledModel: Sendable {
    public var path: String
    /// Version names, oldest first by natural order.
    public var versionNames: [String]
    public var currentVersionName: String?
    /// Version name → entity name → 32-byte hash, from `VersionInfo.plist`.
    public var versionHashes: [String: [String: Data]]
    private var momPaths: [String: String]

    /// - Throws: ``CoreDataReadError`` when the folder holds no readable `VersionInfo.plist` or `.mom`.
    public init(at path: String) throws(CoreDataReadError) {
        self.path = path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CoreDataReadError(.fileNotFound, file: path)
        }
        guard isDirectory.boolValue else {
            let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            versionNames = [name]
            currentVersionName = name
            versionHashes = [:]
            momPaths = [name: path]
            return
        }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        momPaths = Dictionary(uniqueKeysWithValues: entries.filter { $0.hasSuffix(".mom") }.map {
            (String($0.dropLast(4)), URL(fileURLWithPath: path).appendingPathComponent($0).path)
        })
        guard !momPaths.isEmpty else { throw CoreDataReadError(.badModel("no .mom file"), file: path) }
        versionNames = momPaths.keys.sorted()
        versionHashes = [:]
        let infoPath = URL(fileURLWithPath: path).appendingPathComponent("VersionInfo.plist").path
        if let data = FileManager.default.contents(atPath: infoPath) {
            let info: PropertyListValue
            do {
                info = try BinaryPropertyList.isBinaryPropertyList(data) ? BinaryPropertyList.read(data) : Self.xmlPlist(data)
            } catch {
                throw CoreDataReadError(.badModel("VersionInfo.plist: \(error.reason)"), file: path)
            }
            currentVersionName = info["NSManagedObjectModel_CurrentVersionName"]?.string
            for version in info["NSManagedObjectModel_VersionHashes"]?.members ?? [] {
                var hashes: [String: Data] = [:]
                for entity in version.value.members ?? [] { if let hash = entity.value.data { hashes[entity.key] = hash } }
                versionHashes[version.key] = hashes
            }
        }
    }

    /// The `.mom` file of a version.
    public func momPath(of name: String) -> String? { momPaths[name] }

    /// Decodes one version's `.mom`.
    public func model(version name: String) throws(CoreDataReadError) -> DataModel {
        guard let momPath = momPaths[name] else {
            throw CoreDataReadError(.badModel("no version \(name); versions: \(versionNames.joined(separator: ", "))"), file: path)
        }
        guard let data = FileManager.default.contents(atPath: momPath) else { throw CoreDataReadError(.unreadable("cannot read"), file: momPath) }
        return try ArchivedModel.decode(data, file: momPath, versionName: name)
    }

    public func candidates() throws(CoreDataReadError) -> [CandidateVersion] {
        var result: [CandidateVersion] = []
        for name in versionNames {
            result.append(CandidateVersion(name: name, model: try model(version: name), versionHashes: versionHashes[name]))
        }
        return result
    }

    /// An XML `VersionInfo.plist`, read with Foundation (it holds no UIDs).
    private static func xmlPlist(_ data: Data) throws(PropertyListError) -> PropertyListValue {
        guard let object = try? PropertyListSerialization.propertyList(from: data, format: nil) else {
            throw PropertyListError("not a property list")
        }
        return convert(object)
    }

    private static func convert(_ object: Any) -> PropertyListValue {
        switch object {
        case let text as String: return .string(text)
        case let data as Data: return .data(data)
        case let dictionary as [String: Any]: return .dictionary(dictionary.sorted { $0.key < $1.key }.map { ($0.key, convert($0.value)) })
        case let array as [Any]: return .array(array.map(convert))
        case let number as NSNumber: return .integer(number.int64Value)
        default: return .null
        }
    }
}
