/// One thing wrong with a bundle, named by the file it concerns.
public struct BundleProblem: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Listed in a manifest, absent from the archive.
        case missing
        /// In the archive, listed in no manifest.
        case extra
        /// Its bytes differ from its checksum.
        case corrupt
        /// An entry no unpacker should write: links, devices, absolute or `..` paths, aliases, over limits.
        case unsafe
        /// A tag file that does not say what BagIt or Ferry requires.
        case malformed
        /// The archive itself cannot be read past some point.
        case unreadable
    }

    public var kind: Kind
    /// The entry's path inside the bag (without the top-level folder), when the problem has one.
    public var path: String?
    public var detail: String

    public init(_ kind: Kind, _ path: String?, _ detail: String) {
        self.kind = kind
        self.path = path
        self.detail = detail
    }

    public var description: String {
        [kind.rawValue, path, detail].compactMap { $0 }.joined(separator: ": ")
    }
}

/// Why a bundle could not be written, verified or imported.
public struct BundleError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable {
        /// The bundle failed verification; nothing was used.
        case invalid([BundleProblem])
        /// The output or staging folder could not be written.
        case cannotWrite(String)
        /// The bundle verified but its store cannot be used.
        case unusableStore(String)
        case fileNotFound
        /// The path is not a bundle file at all (a folder): exit 65, not a read failure.
        case notABundle(String)
        /// The file could not be read (permissions, I/O).
        case unreadable(String)
    }

    public var kind: Kind
    public var path: String

    public init(_ kind: Kind, path: String) {
        self.kind = kind
        self.path = path
    }

    public var description: String {
        switch kind {
        case .invalid(let problems):
            let shown = problems.prefix(5).map(\.description).joined(separator: "; ")
            return "\(path): not a valid bundle (\(problems.count) problem\(problems.count == 1 ? "" : "s")): \(shown)"
                + (problems.count > 5 ? "; …" : "")
        case .cannotWrite(let reason): return "\(path): \(reason)"
        case .unusableStore(let reason): return "\(path): the bundle's store cannot be used: \(reason)"
        case .fileNotFound: return "\(path): no such file"
        case .notABundle(let what): return "\(path): not a bundle: \(what)"
        case .unreadable(let reason): return "\(path): cannot be read: \(reason)"
        }
    }
}
