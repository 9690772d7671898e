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
    /// Follows from another problem of the same bundle (an entry not read past damage, the seal
    /// of bytes already found changed): reported after the causes, counted apart.
    public var isConsequence = false

    public init(_ kind: Kind, _ path: String?, _ detail: String) {
        self.kind = kind
        self.path = path
        self.detail = detail
    }

    public var description: String {
        [kind.rawValue, path, detail].compactMap { $0 }.joined(separator: ": ")
    }
}

extension BundleProblem {
    /// `1 problem`, or `1 problem and 25 consequences of it`.
    public static func tally(_ problems: [BundleProblem]) -> String {
        let causes = problems.filter { !$0.isConsequence }.count, consequences = problems.count - causes
        return "\(causes) problem\(causes == 1 ? "" : "s")"
            + (consequences == 0 ? "" : " and \(consequences) consequence\(consequences == 1 ? "" : "s") of \(causes == 1 ? "it" : "them")")
    }

    /// Marks what follows from other problems and puts the causes first. Reading that stopped
    /// early leaves later entries unread: a listed file not found (missing) may lie past the
    /// stop, an entry is unlisted (extra) only because its manifest was not read, and the
    /// Payload-Oxum counts what was read. A seal that *differs* follows from bytes that changed
    /// (found by a checksum, or where reading stopped); an absent seal is always a problem of its own.
    /// - Parameter manifestsRead: the tag files the scan read (`manifest-sha256.txt`, …).
    static func causesFirst(_ problems: [BundleProblem], readingStopped: Bool, manifestsRead: Set<String>) -> [BundleProblem] {
        let changedBytes = problems.contains { $0.kind == .corrupt && $0.path != nil }
        let marked = problems.map { problem -> BundleProblem in
            var problem = problem
            let sealDiffers = problem.kind == .corrupt && problem.path == nil && problem.detail.hasPrefix(Self.sealMismatch)
            let listing = (problem.path ?? "").hasPrefix("data/") ? BundleLayout.manifestFile : BundleLayout.tagManifestFile
            let unread = problem.kind == .missing
                || (problem.kind == .extra && !manifestsRead.contains(listing))
                || (problem.kind == .malformed && problem.path == BundleLayout.bagInfoFile)
            problem.isConsequence = (readingStopped && (unread || sealDiffers)) || (changedBytes && sealDiffers)
            return problem
        }
        return marked.filter { !$0.isConsequence } + marked.filter(\.isConsequence)
    }

    static let sealMismatch = "the archive's bytes differ from its seal"
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
            let causes = problems.filter { !$0.isConsequence }
            let shown = causes.prefix(5).map(\.description).joined(separator: "; ")
            return "\(path): not a valid bundle (\(BundleProblem.tally(problems))): \(shown)" + (causes.count > 5 ? "; …" : "")
        case .cannotWrite(let reason): return "\(path): \(reason)"
        case .unusableStore(let reason): return "\(path): the bundle's store cannot be used: \(reason)"
        case .fileNotFound: return "\(path): no such file"
        case .notABundle(let what): return "\(path): not a bundle: \(what)"
        case .unreadable(let reason): return "\(path): cannot be read: \(reason)"
        }
    }
}
