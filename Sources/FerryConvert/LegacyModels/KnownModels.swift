import FerryCanonical
import FerryCoreData
import FerryModel
import Foundation

/// The legacy models Ferry ships for the apps it knows (`Formats/legacy/`), for reading their
/// stores when a store's own model cache is missing or unreadable.
enum KnownModels {
    /// Every version shipped for `app`, newest last; empty for apps without a Core Data model.
    static func versions(for app: SourceApp) throws -> [CandidateVersion] {
        try EmbeddedModels.files.filter { $0.app == app.rawValue }.map { file in
            let path = "Formats/legacy/\(file.bundle)" + (file.bundle.hasSuffix(".xcdatamodeld") ? "/\(file.version).xcdatamodel" : "") + "/contents"
            let model = try ModelParser().parse(data: Data(file.contents.utf8), file: path, versionName: file.version)
            return CandidateVersion(name: file.version, model: model)
        }
    }

    /// The shipped models as (app, bundle, version, contents), for tests comparing them with `Formats/legacy/`.
    static var embedded: [(app: String, bundle: String, version: String, contents: String)] { EmbeddedModels.files }
}
