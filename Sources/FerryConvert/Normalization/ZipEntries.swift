import FerryCanonical
import FerryFiles
import FerryJSON
import Foundation

/// The files of a zip an app exported (`.molten`, `.paprikarecipes`, a folder zipped by hand),
/// read as untrusted: only regular files, names that are plain relative paths, counts and sizes
/// bounded before anything is kept. What Finder adds (`__MACOSX/`, `._*` resource forks,
/// `.DS_Store`) is not data and is passed over.
struct ZipEntries {
    struct Limits: Sendable {
        var entries = 10_000
        var entryBytes = Int64(256 << 20)
        var totalBytes = Int64(2 << 30)
    }

    /// Calls `body` with each data file's path in the archive and its bytes, in archive order.
    static func read(_ path: String, context: ConversionContext, limits: Limits = Limits(),
                     _ body: (String, Data) throws -> Void) throws {
        let location = RecordLocation(file: path)
        do {
            guard let open = context.openArchive else {
                throw ConversionError(.unreadable("this build reads no zip archives (no archive reader was given)"), at: location)
            }
            let reader = try open(path)
            var count = 0
            var total: Int64 = 0
            while let entry = try reader.nextEntry() {
                count += 1
                guard count <= limits.entries else { throw ConversionError(.unreadable("more than \(limits.entries) entries"), at: location) }
                if entry.kind == .directory { continue }
                guard entry.kind == .regular else {
                    throw ConversionError(.unreadable("entry \"\(entry.path)\" is not a regular file"), at: location)
                }
                let parts = entry.path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
                guard !entry.path.hasPrefix("/"), !parts.contains(".."), !parts.contains(""), !parts.contains(".") else {
                    throw ConversionError(.unreadable("entry \"\(entry.path)\" is not a plain relative path"), at: location)
                }
                if isFinderJunk(parts) { continue }
                let data = try reader.readData(limit: limits.entryBytes)
                total += Int64(data.count)
                guard total <= limits.totalBytes else {
                    throw ConversionError(.unreadable("more than \(limits.totalBytes) bytes uncompressed"), at: location)
                }
                try body(entry.path, data)
            }
        } catch let error as ConversionError {
            throw error
        } catch {
            let reason = (error as? ArchiveReadingError).map { [$0.entry.map { "entry \"\($0)\"" }, $0.reason].compactMap { $0 }.joined(separator: ": ") }
            throw ConversionError(.unreadable("not a readable zip archive: \(reason ?? "\(error)")"), at: location)
        }
    }

    /// The names of an archive's data files, at most `limit` of them; nil when it cannot be read.
    static func names(_ path: String, open: ArchiveOpener?, limit: Int = 10_000) -> [String]? {
        guard let open, let reader = try? open(path) else { return nil }
        var names: [String] = []
        while names.count < limit {
            let next: (path: String, kind: ArchiveEntryKind)?
            do { next = try reader.nextEntry() } catch { return nil }
            guard let entry = next else { break }
            let parts = entry.path.split(separator: "/").map(String.init)
            if entry.kind == .regular, !isFinderJunk(parts) { names.append(entry.path) }
        }
        return names
    }

    private static func isFinderJunk(_ parts: [String]) -> Bool {
        parts.first == "__MACOSX" || parts.last?.hasPrefix("._") == true || parts.last == ".DS_Store"
    }
}
