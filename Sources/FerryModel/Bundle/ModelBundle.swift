import Foundation

/// One version of a model: an `.xcdatamodel` folder, or a lone `contents` file.
public struct ModelVersion: Sendable, Hashable, Encodable {
    /// The version's name without extension, such as `Model 2`.
    public var name: String
    /// The `contents` file on disk.
    public var contentsPath: String
    /// The `contents` file as messages name it: under the path the user gave.
    public var displayPath: String
    /// What `contentsPath` holds.
    public var format: Format = .xml

    public enum Format: String, Sendable, Hashable, Encodable {
        /// Xcode 4 and later: the `contents` XML.
        case xml
        /// Xcode 3: the `elements` file, a keyed archive of Xcode's own classes, read by FerryCoreData's
        /// `Xcode3ModelArchive` (``ModelBundle/init(at:xcode3Reader:)``).
        case xcode3Archive
    }

    enum CodingKeys: String, CodingKey { case name, displayPath = "path", format }
}

/// A Core Data model as the user points at it: an `.xcdatamodeld` bundle with its versions,
/// one `.xcdatamodel` folder, or a `contents` file; with the current version resolved.
///
/// The current version comes from `.xccurrentversion`. When that file is missing, empty,
/// unreadable or names a version that is not in the bundle, the newest version by natural
/// name order is used and a warning says so.
///
/// For example:
/// ```swift
/// let bundle = try ModelBundle(at: "Model.xcdatamodeld")
/// bundle.warnings.forEach { print("warning:", $0) }
/// let model = try bundle.currentModel()
/// ```
public struct ModelBundle: Sendable {
    public enum Layout: String, Sendable, Encodable {
        case bundle, versionFolder, contentsFile
        /// A compiled `.momd` or `.mom`, decoded by FerryCoreData (``init(compiled:versions:current:)``).
        case compiled
    }

    /// How the current version was chosen.
    public enum CurrentVersionSource: String, Sendable, Encodable {
        /// `.xccurrentversion` named it.
        case declared
        /// A folder or file holding one version.
        case onlyVersion
        /// `.xccurrentversion` did not give a usable name: newest by name order.
        case newestByName
    }

    public let path: String
    public let layout: Layout
    /// In natural name order, oldest first.
    public let versions: [ModelVersion]
    public let currentVersion: ModelVersion
    public let currentVersionSource: CurrentVersionSource
    /// The name `.xccurrentversion` gives, even when it names no version here.
    public let declaredCurrentVersionName: String?
    public let warnings: [ModelWarning]
    /// The versions of a compiled model, decoded already, by name.
    private let decoded: [String: DataModel]
    private let xcode3Reader: Xcode3Reader?

    /// Decodes an Xcode 3 `elements` file (path on disk, path for messages, version name).
    public typealias Xcode3Reader = @Sendable (_ path: String, _ displayPath: String, _ versionName: String?) throws(ModelError) -> DataModel

    /// - Parameter xcode3Reader: decodes the versions Xcode 3 saved (`elements` files); without
    ///   one, loading such a version throws ``ModelError/Kind/preXcode4Model``.
    /// - Throws: ``ModelError`` when nothing at `path` is a model, when the folder is a
    ///   compiled `.momd`, or when a bundle holds no version.
    public init(at path: String, xcode3Reader: Xcode3Reader? = nil) throws(ModelError) {
        let finder = ModelLocator(path: path)
        let found = try finder.locate()
        self.path = path
        layout = found.layout
        versions = found.versions.sorted { NaturalOrder.areInIncreasingOrder($0.name, $1.name) }
        guard let newest = versions.last else { throw ModelError(.noVersions, at: ModelLocation(file: path)) }
        declaredCurrentVersionName = found.declaredCurrentVersion
        var warnings: [ModelWarning] = []
        if layout != .bundle {
            currentVersion = newest
            currentVersionSource = .onlyVersion
        } else if let declared = found.declaredCurrentVersion,
                  let match = versions.first(where: { $0.name == Self.versionName(declared) }) {
            currentVersion = match
            currentVersionSource = .declared
        } else {
            currentVersion = newest
            currentVersionSource = .newestByName
            let reason = found.declaredCurrentVersion.map { "names \"\($0)\", which is not in the bundle" }
                ?? found.currentVersionProblem ?? "names no current version"
            warnings.append(ModelWarning(at: ModelLocation(file: found.currentVersionFile),
                                         "\(reason); using the newest version by name, \"\(newest.name)\""))
        }
        self.warnings = warnings
        decoded = [:]
        self.xcode3Reader = xcode3Reader
    }

    /// A compiled model's versions, already decoded (a `.momd` holds one `.mom` per version, and
    /// names the current one in `VersionInfo.plist`).
    public init(compiled path: String, versions models: [(name: String, file: String, model: DataModel)], current: String?) throws(ModelError) {
        self.path = path
        layout = .compiled
        versions = models.map { ModelVersion(name: $0.name, contentsPath: $0.file, displayPath: $0.file) }
            .sorted { NaturalOrder.areInIncreasingOrder($0.name, $1.name) }
        guard let newest = versions.last else { throw ModelError(.noVersions, at: ModelLocation(file: path)) }
        declaredCurrentVersionName = current
        if let current, let match = versions.first(where: { $0.name == current }) {
            currentVersion = match
            currentVersionSource = versions.count == 1 ? .onlyVersion : .declared
            warnings = []
        } else {
            currentVersion = newest
            currentVersionSource = versions.count == 1 ? .onlyVersion : .newestByName
            warnings = versions.count == 1 ? [] : [ModelWarning(at: ModelLocation(file: path),
                "VersionInfo.plist names no current version; using the newest version by name, \"\(newest.name)\"")]
        }
        decoded = Dictionary(models.map { ($0.name, $0.model) }, uniquingKeysWith: { first, _ in first })
        xcode3Reader = nil
    }

    /// The version named `name` (with or without `.xcdatamodel`), or the current one when nil.
    /// - Throws: ``ModelError/Kind/unknownVersion(_:available:)``.
    public func version(named name: String?) throws(ModelError) -> ModelVersion {
        guard let name else { return currentVersion }
        guard let match = versions.first(where: { $0.name == Self.versionName(name) }) else {
            throw ModelError(.unknownVersion(name, available: versions.map(\.name)), at: ModelLocation(file: path))
        }
        return match
    }

    /// Parses the version named `name`, or the current version.
    /// - Throws: ``ModelError`` from finding or parsing the version.
    public func model(version name: String? = nil) throws(ModelError) -> DataModel {
        try load(version(named: name))
    }

    public func currentModel() throws(ModelError) -> DataModel {
        try load(currentVersion)
    }

    public func load(_ version: ModelVersion) throws(ModelError) -> DataModel {
        if let model = decoded[version.name] { return model }
        let name = layout == .contentsFile ? nil : version.name
        if version.format == .xcode3Archive {
            guard let xcode3Reader else { throw ModelError(.preXcode4Model, at: ModelLocation(file: version.displayPath)) }
            return try xcode3Reader(version.contentsPath, version.displayPath, name)
        }
        return try ModelParser().parse(contentsOf: version.contentsPath, displayPath: version.displayPath, versionName: name)
    }

    /// `Model 2.xcdatamodel` and `Model 2` both name version `Model 2`.
    static func versionName(_ name: String) -> String {
        name.hasSuffix(".xcdatamodel") ? String(name.dropLast(".xcdatamodel".count)) : name
    }
}
