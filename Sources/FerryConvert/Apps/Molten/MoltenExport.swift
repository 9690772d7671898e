import FerryCanonical
import FerryJSON
import FerryCoreData
import FerryFiles
import Foundation

/// A `.molten` export: a zip of `plan.json` and `images/<uuid>.<ext>`. The archive is not
/// trusted: only regular files are read, names must be plain relative paths, and sizes and
/// counts are bounded before anything is kept.
extension MoltenNormalizer {
    static let exportLimits = (entries: 10_000, entryBytes: Int64(256 << 20), totalBytes: Int64(2 << 30))

    func convertExport(_ path: String) throws {
        let contents = try readExport(path)
        guard let planData = contents.plan else {
            throw ConversionError(.notRecognized("a .molten export without plan.json"), at: RecordLocation(file: path))
        }
        let documents = try JSONDocuments.parse(planData, path: "\(path)!plan.json")
        try convertPlanJSON(documents, images: contents.images, file: (path as NSString).lastPathComponent)
        for name in contents.ignored {
            context.report.warning("\((path as NSString).lastPathComponent): entry \"\(name)\" is neither plan.json nor an image; not converted")
        }
    }

    struct ExportContents {
        var plan: Data?
        /// Image bytes by file name (`<uuid>.jpg`).
        var images: [String: Data] = [:]
        var ignored: [String] = []
    }

    func readExport(_ path: String) throws(ConversionError) -> ExportContents {
        let location = RecordLocation(file: path)
        var contents = ExportContents()
        do {
            guard let open = context.openArchive else {
                throw ConversionError(.unreadable("this build reads no zip archives (no archive reader was given)"), at: location)
            }
            let reader = try open(path)
            var count = 0
            var total: Int64 = 0
            while let entry = try reader.nextEntry() {
                count += 1
                guard count <= Self.exportLimits.entries else {
                    throw ConversionError(.unreadable("more than \(Self.exportLimits.entries) entries"), at: location)
                }
                if entry.kind == .directory { continue }
                guard entry.kind == .regular else {
                    throw ConversionError(.unreadable("entry \"\(entry.path)\" is not a regular file"), at: location)
                }
                let parts = entry.path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
                guard !entry.path.hasPrefix("/"), !parts.contains(".."), !parts.contains(""), !parts.contains(".") else {
                    throw ConversionError(.unreadable("entry \"\(entry.path)\" is not a plain relative path"), at: location)
                }
                // Zips made by Finder add `__MACOSX/` resource forks: not data.
                if parts.first == "__MACOSX" || parts.last?.hasPrefix("._") == true { continue }
                let data = try reader.readData(limit: Self.exportLimits.entryBytes)
                total += Int64(data.count)
                guard total <= Self.exportLimits.totalBytes else {
                    throw ConversionError(.unreadable("more than \(Self.exportLimits.totalBytes) bytes uncompressed"), at: location)
                }
                let name = parts.last ?? entry.path
                if name == "plan.json" {
                    guard contents.plan == nil else { throw ConversionError(.unreadable("more than one plan.json"), at: location) }
                    contents.plan = data
                } else if parts.dropLast().last == "images" {
                    guard contents.images[name] == nil else {
                        throw ConversionError(.unreadable("image \"\(name)\" appears twice"), at: location)
                    }
                    contents.images[name] = data
                } else {
                    contents.ignored.append(entry.path)
                }
            }
        } catch let error as ConversionError {
            throw error
        } catch {
            let reason = (error as? ArchiveReadingError).map { [$0.entry.map { "entry \"\($0)\"" }, $0.reason].compactMap { $0 }.joined(separator: ": ") }
            throw ConversionError(.unreadable("not a readable zip archive: \(reason ?? "\(error)")"), at: location)
        }
        return contents
    }
}
