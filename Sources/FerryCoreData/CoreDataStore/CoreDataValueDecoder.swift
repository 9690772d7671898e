import FerryJSON
import FerryModel
import Foundation
import GRDB

/// Turns a column value into JSON by its attribute's type: Core Data dates (seconds since
/// 2001) as ISO 8601, booleans, UUID blobs as upper-case text, binary as base64 (read from
/// `_EXTERNAL_DATA` when stored outside the database), Transformables through the keyed
/// archive decoder. A value whose storage does not fit its type is kept as stored.
struct CoreDataValueDecoder {
    let externalData: ExternalDataLocator
    /// Problems met, such as unknown archived classes, with how often each occurred.
    var warnings: [String: Int] = [:]

    init(storePath: String) {
        externalData = ExternalDataLocator(storePath: storePath)
    }

    mutating func decode(_ value: DatabaseValue, as attribute: AttributeDescription, entity: String) -> JSONValue {
        switch value.storage {
        case .null: return .null
        case .int64(let number): return integer(number, as: attribute.type)
        case .double(let number): return double(number, as: attribute.type)
        case .string(let text): return attribute.type == .uuid ? .string(text.uppercased()) : .string(text)
        case .blob(let data): return blob(data, as: attribute, entity: entity)
        }
    }

    private func integer(_ number: Int64, as type: AttributeType) -> JSONValue {
        switch type {
        case .boolean: return .bool(number != 0)
        case .date: return .string(CoreDataDate.iso8601(secondsSince2001: Double(number)))
        default: return .integer(number)
        }
    }

    private func double(_ number: Double, as type: AttributeType) -> JSONValue {
        switch type {
        case .date: return .string(CoreDataDate.iso8601(secondsSince2001: number))
        case .integer16, .integer32, .integer64:
            // A whole number in range reads as an integer; anything else stays as stored, never trapped on.
            guard number == number.rounded(), abs(number) < 9e18 else { return .double(number) }
            return .integer(Int64(number))
        default: return .double(number)
        }
    }

    private mutating func blob(_ data: Data, as attribute: AttributeDescription, entity: String) -> JSONValue {
        switch attribute.type {
        case .uuid where data.count == 16:
            return .string(UUIDText.uppercase(data))
        case .transformable:
            let decoded = KeyedArchiveDecoder().decode(data)
            for name in decoded.unknownClasses {
                warnings["\(entity).\(attribute.name): keyed archive holds unknown class \(name); kept as base64", default: 0] += 1
            }
            if let failure = decoded.failure {
                warnings["\(entity).\(attribute.name): not a keyed archive (\(failure)); kept as base64", default: 0] += 1
            }
            return decoded.value
        case .uri, .string:
            if let text = String(data: data, encoding: .utf8) { return .string(text) }
            let decoded = KeyedArchiveDecoder().decode(data)
            return decoded.failure == nil && decoded.unknownClasses.isEmpty ? decoded.value : .string(data.base64EncodedString())
        case .binary:
            return binary(data, attribute: attribute, entity: entity)
        default:
            return .string(data.base64EncodedString())
        }
    }

    /// External storage writes `0x01` + the bytes, or `0x02` + a file name + NUL for a file in
    /// `.<store>_SUPPORT/_EXTERNAL_DATA/`.
    private mutating func binary(_ data: Data, attribute: AttributeDescription, entity: String) -> JSONValue {
        if let name = ExternalDataLocator.referencedName(in: data) {
            switch externalData.contents(of: name) {
            case .success(let contents):
                return .string(contents.base64EncodedString())
            case .failure(let problem):
                warnings["\(entity).\(attribute.name): external data \(name): \(problem); kept the reference", default: 0] += 1
                return ["externalData": .string(name), "missing": .string(problem.description)]
            }
        }
        if attribute.allowsExternalBinaryDataStorage, data.first == 0x01 {
            return .string(data.dropFirst().base64EncodedString())
        }
        // Without a model a Transformable column looks like any blob: decode what is recognisably an archive.
        if attribute.userInfo["ferry.inferred"] == "blob", BinaryPropertyList.isBinaryPropertyList(data) {
            let decoded = KeyedArchiveDecoder().decode(data)
            if decoded.failure == nil && decoded.unknownClasses.isEmpty { return decoded.value }
        }
        return .string(data.base64EncodedString())
    }
}

/// Finds the files Core Data keeps for large binary values next to a store.
struct ExternalDataLocator {
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    let directory: URL

    init(storePath: String) {
        let store = URL(fileURLWithPath: storePath)
        let name = store.deletingPathExtension().lastPathComponent
        directory = store.deletingLastPathComponent().appendingPathComponent(".\(name)_SUPPORT").appendingPathComponent("_EXTERNAL_DATA")
    }

    /// The file name of an external reference (`0x02` + name + NUL), when the blob is one.
    static func referencedName(in data: Data) -> String? {
        guard data.count > 2, data.first == 0x02, data.last == 0x00, data.count <= 256 else { return nil }
        guard let name = String(data: data.dropFirst().dropLast(), encoding: .utf8),
              !name.isEmpty, !name.contains("/"), name != ".", name != ".." else { return nil }
        return name
    }

    func contents(of name: String) -> Result<Data, Problem> {
        let file = directory.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: file.path) else { return .failure(Problem(description: "no file \(file.path)")) }
        guard let data = FileManager.default.contents(atPath: file.path) else { return .failure(Problem(description: "cannot read \(file.path)")) }
        return .success(data)
    }
}
