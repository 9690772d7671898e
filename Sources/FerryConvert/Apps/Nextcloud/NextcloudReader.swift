import FerryCanonical
import FerryJSON
import Foundation

extension SourceApp {
    public static let nextcloud = SourceApp("nextcloud")
}

/// Nextcloud Cookbook: a folder (or a zip of it) of recipe folders, each a `recipe.json`
/// (schema.org JSON-LD, as the app stores it) and its `full.jpg`.
struct NextcloudReader: SourceReader {
    let about = ReaderInfo(.nextcloud, "Nextcloud Cookbook", reads: ["Nextcloud Cookbook recipe folders (recipe.json) and their zips"])

    func recognize(_ file: CandidateFile) -> RecognizedFile? {
        if file.name == "recipe.json", case .record(let first, false) = file.firstRecord, !JSONLDBlocks.recipes(in: first).isEmpty {
            return RecognizedFile(app: app, kind: "recipe.json") { path, context in
                let folder = (path as NSString).deletingLastPathComponent
                let image = (folder as NSString).appendingPathComponent("full.jpg")
                // A folder without the picture has none; one that cannot be read is named, not passed over.
                var images: [(name: String, data: Data)] = []
                if FileManager.default.fileExists(atPath: image) {
                    do {
                        images = [("full.jpg", try Data(contentsOf: URL(fileURLWithPath: image)))]
                    } catch {
                        throw ConversionError(.unreadable((error as NSError).localizedDescription), at: RecordLocation(file: image))
                    }
                }
                try SchemaOrgFiles(context: context, app: .nextcloud).json(path, images: images,
                                                                           file: (folder as NSString).lastPathComponent + "/recipe.json")
            }
        }
        guard let names = file.archiveNames, names.contains(where: { ($0 as NSString).lastPathComponent == "recipe.json" }) else { return nil }
        return RecognizedFile(app: app, kind: "Cookbook zip") { path, context in try Self.convertZip(path, context: context) }
    }

    /// Each folder's `recipe.json` with its `full.jpg`, however deep the folders sit.
    static func convertZip(_ path: String, context: ConversionContext) throws {
        var recipes: [(folder: String, data: Data)] = []
        var images: [String: Data] = [:]
        try ZipEntries.read(path, context: context) { name, data in
            let folder = (name as NSString).deletingLastPathComponent
            switch (name as NSString).lastPathComponent {
            case "recipe.json": recipes.append((folder, data))
            case "full.jpg": images[folder] = data
            default: break
            }
        }
        let file = (path as NSString).lastPathComponent
        for (folder, data) in recipes {
            try SchemaOrgFiles(context: context, app: .nextcloud).json(data, path: "\(path)!\(folder)/recipe.json", file: "\(file)!\(folder)/recipe.json",
                                                                  images: images[folder].map { [(name: "full.jpg", data: $0)] } ?? [])
        }
    }
}
