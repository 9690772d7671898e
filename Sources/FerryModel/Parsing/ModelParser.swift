import Foundation

/// Parses one `contents` file of a Core Data model into a ``DataModel``.
///
/// The XML is treated as untrusted: no DTD, entities or network access (see ``XMLTreeReader``),
/// a size limit, and a nesting limit.
///
/// For example:
/// ```swift
/// let model = try ModelParser().parse(contentsOf: "Model.xcdatamodel/contents")
/// ```
public struct ModelParser: Sendable {
    /// The largest model seen in the wild is under 1 MB; 64 MB leaves room and bounds memory.
    public var maximumFileSize = 64 << 20

    public init() {}

    /// - Parameters:
    ///   - path: the `contents` file.
    ///   - displayPath: how messages name the file; defaults to `path`.
    ///   - versionName: the version's name when the file is part of a bundle.
    /// - Throws: ``ModelError`` when the file is missing, unreadable, not XML, refused, or not a model.
    public func parse(contentsOf path: String, displayPath: String? = nil, versionName: String? = nil) throws(ModelError) -> DataModel {
        let shown = displayPath ?? path
        return try parse(data: read(path, displayPath: shown), file: shown, versionName: versionName)
    }

    /// The bytes of a model file, refused when over ``maximumFileSize``.
    /// - Throws: ``ModelError`` when the file is missing, unreadable or too large.
    public func read(_ path: String, displayPath shown: String) throws(ModelError) -> Data {
        let location = ModelLocation(file: shown)
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            throw ModelError(FileManager.default.fileExists(atPath: path) ? .unreadable(reason: "\(error.localizedDescription)") : .fileNotFound, at: location)
        }
        if let size = (attributes[.size] as? NSNumber)?.intValue, size > maximumFileSize {
            throw ModelError(.tooLarge(bytes: size, limit: maximumFileSize), at: location)
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ModelError(.unreadable(reason: Self.reason(error)), at: location)
        }
        return data
    }

    /// Parses bytes already read; `file` names them in messages.
    /// - Throws: ``ModelError``.
    public func parse(data: Data, file: String, versionName: String? = nil) throws(ModelError) -> DataModel {
        let location = ModelLocation(file: file)
        guard data.count <= maximumFileSize else {
            throw ModelError(.tooLarge(bytes: data.count, limit: maximumFileSize), at: location)
        }
        let root: XMLNode
        do {
            root = try XMLTreeReader().read(data)
        } catch {
            throw ModelError(Self.kind(of: error), at: location)
        }
        return try DataModel(xml: root, file: file, versionName: versionName)
    }

    private static func kind(of failure: XMLTreeReader.Failure) -> ModelError.Kind {
        switch failure {
        case .empty: return .empty
        case .notXML(let firstBytes): return .notXML(firstBytes: firstBytes)
        case .binaryPropertyList: return .binaryPropertyList
        case .unsupportedEncoding(let detail): return .unsupportedEncoding(detail)
        case .declarationRefused(let marker): return .declarationRefused(marker)
        case .malformed(let line, let column, let reason): return .malformedXML(line: line, column: column, reason: reason)
        case .truncated(let line): return .truncatedXML(line: line)
        case .tooDeep(let line): return .tooDeep(line: line)
        }
    }

    static func reason(_ error: any Error) -> String {
        if let posix = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(posix.code)))
        }
        return (error as NSError).localizedDescription
    }
}
