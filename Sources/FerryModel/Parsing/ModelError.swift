import Foundation

/// Where in a model file something was found: the file, the line, the entity and the property.
///
/// Its `description` is the prefix of every model error and warning, for example
/// `Model 3.xcdatamodel/contents: line 12: entity "Course": attribute "credits"`.
public struct ModelLocation: Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var entity: String?
    /// The kind and name of the element inside the entity, such as `attribute "credits"`.
    public var element: String?

    public init(file: String, line: Int? = nil, entity: String? = nil, element: String? = nil) {
        self.file = file
        self.line = line
        self.entity = entity
        self.element = element
    }

    public var description: String {
        [file, line.map { "line \($0)" }, entity.map { "entity \"\($0)\"" }, element]
            .compactMap { $0 }
            .joined(separator: ": ")
    }
}

/// An error reading a Core Data model: it names the file, and where known the line, the entity
/// and the property, and prints as one line.
///
/// For example:
/// ```
/// Model 3.xcdatamodel/contents: line 12: entity "Course": attribute "credits": unknown attributeType "Integer 128"
/// ```
public struct ModelError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case fileNotFound
        case unreadable(reason: String)
        case tooLarge(bytes: Int, limit: Int)
        case empty
        case notXML(firstBytes: String)
        case binaryPropertyList
        case unsupportedEncoding(String)
        case declarationRefused(String)
        case malformedXML(line: Int, column: Int, reason: String)
        case truncatedXML(line: Int)
        case tooDeep(line: Int)
        case wrongRootElement(String)
        /// An Xcode 3 `elements` file, read without a decoder for it (FerryCoreData's `ModelBundle.opening` has one).
        case preXcode4Model
        /// An Xcode 3 model folder that has its `layout` file (diagram positions) but not its `elements`.
        case xcode3LayoutOnly
        /// An Xcode 3 `elements` file that does not decode as the model Xcode 3 saved.
        case badXcode3Archive(String)
        case compiledModel
        case notAModel
        /// `decompile` takes what Xcode compiled (.momd, .mom) alone.
        case notACompiledModel
        case noVersions
        case unknownVersion(String, available: [String])
        case unknownEntity(String, available: [String])
        /// Models merged into one both have this entity.
        case entityInTwoModels(String, other: String)
        case missingAttribute(String)
        case invalidValue(attribute: String, value: String, expected: String)
    }

    public var kind: Kind
    public var location: ModelLocation

    public init(_ kind: Kind, at location: ModelLocation) {
        self.kind = kind
        self.location = location
    }

    public var description: String { "\(location): \(message)" }

    /// The message without its location.
    public var message: String {
        switch kind {
        case .fileNotFound:
            return "no such file or directory"
        case .unreadable(let reason):
            return "cannot be read: \(reason)"
        case .tooLarge(let bytes, let limit):
            return "file is \(bytes) bytes; model files over \(limit) bytes are refused"
        case .empty:
            return "file is empty"
        case .notXML(let firstBytes):
            return "not an XML model file (starts with \"\(firstBytes)\")"
        case .binaryPropertyList:
            return "binary property list, not an XML model file (a compiled .mom or a pre-Xcode 4 model?)"
        case .unsupportedEncoding(let detail):
            return "unsupported text encoding: \(detail); model files are UTF-8"
        case .declarationRefused(let marker):
            return "XML with a document type or entity declaration (\(marker)) is refused: model files never have one"
        case .malformedXML(let line, let column, let reason):
            return "malformed XML at line \(line), column \(column): \(reason)"
        case .truncatedXML(let line):
            return "truncated XML: the file ends at line \(line) before the model is closed"
        case .tooDeep(let line):
            return "XML nested more than \(XMLTreeReader.maximumDepth) levels deep at line \(line); not a model file"
        case .wrongRootElement(let name):
            return "root element is <\(name)>, expected <model>: not a Core Data model file"
        case .preXcode4Model:
            return "pre-Xcode 4 model (an elements file, no contents file): open it with ModelBundle.opening (FerryCoreData), "
                + "which decodes Xcode 3's archive"
        case .badXcode3Archive(let reason):
            return "Xcode 3 model (elements file): \(reason)"
        case .xcode3LayoutOnly:
            return "pre-Xcode 4 model folder with a layout file but no elements file: the entities are in elements, "
                + "which is missing; restore it from the project's history"
        case .compiledModel:
            return "compiled model (.momd/.mom): Ferry reads the source .xcdatamodeld or .xcdatamodel"
        case .notAModel:
            return "not a Core Data model: expected an .xcdatamodeld bundle, an .xcdatamodel folder or a contents file"
        case .notACompiledModel:
            return "not a compiled model (.momd or .mom); decompile reads what Xcode compiled"
        case .noVersions:
            return "model bundle holds no .xcdatamodel version"
        case .unknownVersion(let name, let available):
            return "no version \"\(name)\"; versions: \(available.joined(separator: ", "))"
        case .unknownEntity(let name, let available):
            return "no entity \"\(name)\"; entities: \(available.joined(separator: ", "))"
        case .entityInTwoModels(let name, let other):
            return "\(other) has an entity \"\(name)\" too: models merged into one cannot both have it"
        case .missingAttribute(let attribute):
            return "missing required XML attribute \"\(attribute)\""
        case .invalidValue(let attribute, let value, let expected):
            return "\(attribute) \"\(value.truncatedForMessage)\" is not \(expected)"
        }
    }
}

/// A problem that does not stop reading the model, such as a missing current version.
public struct ModelWarning: Sendable, Hashable, CustomStringConvertible, Encodable {
    public var location: String
    public var message: String

    public init(at location: ModelLocation, _ message: String) {
        self.location = location.description
        self.message = message
    }

    public var description: String { "\(location): \(message)" }
}

extension String {
    /// Short values are quoted whole; long ones are cut so that an error stays one line.
    var truncatedForMessage: String {
        let flat = replacingOccurrences(of: "\n", with: " ")
        return flat.count <= 60 ? flat : String(flat.prefix(57)) + "…"
    }
}
