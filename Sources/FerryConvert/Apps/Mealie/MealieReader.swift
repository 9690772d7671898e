import FerryCanonical
import FerryJSON
import Foundation

extension SourceApp {
    public static let mealie = SourceApp("mealie")
}

/// Mealie's exports: the v1 backup (a zip holding `database.json`, the database's tables at an
/// alembic revision: recipes with their ingredients, instructions, tags and categories, meal
/// plans, shopping lists) and the v0.5 export (a zip of `recipes/<slug>/<slug>.json` with their
/// images). Known by content: `database.json` with `alembic_version`, or those recipe folders.
struct MealieReader: SourceReader {
    let about = ReaderInfo(.mealie, "Mealie", reads: ["Mealie backups (database.json) and v0.5 exports"])

    func recognize(_ file: CandidateFile) -> RecognizedFile? {
        if let names = file.archiveNames {
            if names.contains(where: { ($0 as NSString).lastPathComponent == "database.json" }) { return backup }
            if names.contains(where: MealieExport.isRecipeFile) {
                return RecognizedFile(app: app, kind: "v0.5 export") { path, context in try MealieExport(context: context).convertZip(path) }
            }
            return nil
        }
        guard file.isNamedJSON, let first = file.firstObject, !first.inArray else { return nil }
        if first.object["alembic_version"] != nil && first.object["recipes"] != nil { return backup }
        if first.object["recipe_ingredient"] != nil && first.object["slug"] != nil {
            return RecognizedFile(app: app, kind: "v0.5 recipe") { path, context in try MealieExport(context: context).convertFile(path) }
        }
        return nil
    }

    private var backup: RecognizedFile {
        RecognizedFile(app: app, kind: "backup") { path, context in try MealieBackup(context: context).convert(path) }
    }
}
