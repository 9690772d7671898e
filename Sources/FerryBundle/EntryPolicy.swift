import FerryArchive
import Foundation

/// Limits that bound what reading a bundle can cost, whatever the archive claims.
public struct BundleLimits: Sendable {
    public var maxEntries = 1_000_000
    public var maxTotalBytes: Int64 = 64 << 30
    /// Tag files are read into memory.
    public var maxTagFileBytes: Int64 = 256 << 20
    /// Unpacked bytes per archive byte, checked once `ratioGrace` bytes are unpacked.
    public var maxCompressionRatio: Int64 = 500
    public var ratioGrace: Int64 = 32 << 20
    public var maxPathBytes = 1024

    public init() {}
}

/// Decides what an archive entry is allowed to be: a regular file (or a folder, which is
/// ignored) under the bag's one top-level folder, named without aliases.
struct EntryPolicy {
    enum Verdict: Equatable {
        /// A file, by its path inside the bag.
        case file(String)
        case folder
        case unsafe(String)
    }

    private(set) var root: String?
    private var seen: [String: String] = [:]
    let limits: BundleLimits

    init(limits: BundleLimits) {
        self.limits = limits
    }

    mutating func judge(_ entry: ArchiveEntry) -> Verdict {
        switch entry.kind {
        case .regular, .directory: break
        case .symbolicLink: return .unsafe("a symbolic link (to \(entry.linkTarget ?? "?"))")
        case .hardLink: return .unsafe("a hard link (to \(entry.linkTarget ?? "?"))")
        case .device: return .unsafe("a device file")
        case .fifo: return .unsafe("a FIFO")
        case .socket: return .unsafe("a socket")
        case .other(let type): return .unsafe("an entry of unknown type \(type)")
        }
        let name = entry.path
        guard name.utf8.count <= limits.maxPathBytes else { return .unsafe("a name longer than \(limits.maxPathBytes) bytes") }
        if name.hasPrefix("/") || name.hasPrefix("\\") || (name.count > 1 && name.dropFirst().first == ":") {
            return .unsafe("an absolute path")
        }
        if name.contains("\\") { return .unsafe("a name with a backslash, which some systems read as a folder separator") }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return .unsafe("a name with control characters") }
        var components = name.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if entry.kind == .directory, components.last == "" { components.removeLast() }
        if components.contains("..") { return .unsafe("a path that climbs out of its folder (..)") }
        if components.contains(".") || components.contains("") { return .unsafe("an alias path (./ or //)") }
        guard let first = components.first else { return .unsafe("an empty name") }
        if root == nil { root = first }
        guard first == root else { return .unsafe("outside the bag's top-level folder \(root!)/") }
        let inner = components.dropFirst().joined(separator: "/")
        if inner.isEmpty { return entry.kind == .directory ? .folder : .unsafe("a file where the bag's top-level folder should be") }
        // Case and Unicode-normalization twins unpack onto one file on macOS and Windows.
        let key = inner.precomposedStringWithCanonicalMapping.lowercased()
        if let earlier = seen[key] {
            // Swift compares strings by canonical equivalence: compare bytes to tell a duplicate from a twin.
            return .unsafe(Array(earlier.utf8) == Array(inner.utf8) ? "a duplicate entry" : "an alias of \(earlier) (differs only in case or Unicode form)")
        }
        seen[key] = inner
        return entry.kind == .directory ? .folder : .file(inner)
    }
}
