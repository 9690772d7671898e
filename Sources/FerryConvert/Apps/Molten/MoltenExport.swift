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

    func readExport(_ path: String) throws -> ExportContents {
        let location = RecordLocation(file: path)
        var contents = ExportContents()
        let limits = ZipEntries.Limits(entries: Self.exportLimits.entries, entryBytes: Self.exportLimits.entryBytes,
                                       totalBytes: Self.exportLimits.totalBytes)
        try ZipEntries.read(path, context: context, limits: limits) { entry, data in
            let parts = entry.split(separator: "/").map(String.init)
            let name = parts.last ?? entry
            if name == "plan.json" {
                guard contents.plan == nil else { throw ConversionError(.unreadable("more than one plan.json"), at: location) }
                contents.plan = data
            } else if parts.dropLast().last == "images" {
                guard contents.images[name] == nil else {
                    throw ConversionError(.unreadable("image \"\(name)\" appears twice"), at: location)
                }
                contents.images[name] = data
            } else {
                contents.ignored.append(entry)
            }
        }
        return contents
    }
}
