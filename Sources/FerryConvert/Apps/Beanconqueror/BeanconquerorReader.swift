import FerryCanonical
import FerryJSON
import Foundation

extension SourceApp {
    public static let beanconqueror = SourceApp("beanconqueror")
}

/// Beanconqueror's backup (`Beanconqueror.json`: `BEANS`, `BREWS`, `MILL`, `PREPARATION`,
/// `WATER`, `SETTINGS`, `VERSION`; in a backup zip, its brews may be split over
/// `Beanconqueror_Brews_N.json`) and its single-brew share (`bean`, `brew`, `mill`,
/// `preparation`, `water`, `brewFlow`). Known by those keys.
struct BeanconquerorReader: SourceReader {
    let about = ReaderInfo(.beanconqueror, "Beanconqueror", reads: ["Beanconqueror backups and brew shares"])

    func recognize(_ file: CandidateFile) -> RecognizedFile? {
        if let names = file.archiveNames, names.contains(where: { ($0 as NSString).lastPathComponent.hasPrefix("Beanconqueror") && $0.hasSuffix(".json") }) {
            return RecognizedFile(app: app, kind: "backup zip") { path, context in try BeanconquerorNormalizer(context: context).convertZip(path) }
        }
        guard file.isNamedJSON, let first = file.firstObject, !first.inArray else { return nil }
        let object = first.object
        if object["BREWS"] != nil && (object["BEANS"] != nil || object["PREPARATION"] != nil) {
            return RecognizedFile(app: app, kind: "backup") { path, context in
                try BeanconquerorNormalizer(context: context).convertBackup([try JSONDocuments.read(path)], path: path)
            }
        }
        if object["brew"]?.object != nil && object["bean"] != nil && object["preparation"] != nil {
            return RecognizedFile(app: app, kind: "brew share") { path, context in
                try BeanconquerorNormalizer(context: context).convertShare(try JSONDocuments.read(path), path: path)
            }
        }
        return nil
    }
}
