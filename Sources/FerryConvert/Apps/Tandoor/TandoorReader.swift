import FerryCanonical
import FerryFiles
import FerryJSON
import Foundation

extension SourceApp {
    public static let tandoor = SourceApp("tandoor")
}

/// Tandoor's `export.zip`: one zip per recipe (`1.zip`, `2.zip` …), each a `recipe.json` and
/// its `image.*`. Known by content: a zip of zips.
struct TandoorReader: SourceReader {
    let about = ReaderInfo(.tandoor, "Tandoor", reads: ["Tandoor export.zip"])

    func recognize(_ file: CandidateFile) -> RecognizedFile? {
        // Its inner zips are named by the recipes' numbers (`1.zip`): a zip of other zips is not Tandoor's.
        guard let names = file.archiveNames, !names.isEmpty, names.allSatisfy({ $0.lowercased().hasSuffix(".zip") }),
              names.contains(where: { ($0 as NSString).deletingPathExtension.allSatisfy(\.isNumber) }) else { return nil }
        return RecognizedFile(app: app, kind: "export.zip") { path, context in try TandoorNormalizer(context: context).convertExport(path) }
    }
}

/// Each recipe zip of a Tandoor export into a canonical recipe. Format notes: `Formats/apps/tandoor.md`.
struct TandoorNormalizer {
    let context: ConversionContext

    func convertExport(_ path: String) throws {
        let file = (path as NSString).lastPathComponent
        try ZipEntries.read(path, context: context) { name, data in
            guard name.lowercased().hasSuffix(".zip") else {
                context.report.warning("\(file): entry \"\(name)\" is not a recipe zip; not converted")
                return
            }
            // The inner zip goes through the same bounded reader, from a scratch file of this run.
            let scratch = ScratchFiles.temporaryPath(purpose: "tandoor-recipe")
            defer { ScratchFiles.remove(scratch) }
            do {
                try data.write(to: URL(fileURLWithPath: scratch))
            } catch {
                throw ConversionError(.unreadable("cannot unpack \(name): \((error as NSError).localizedDescription)"), at: RecordLocation(file: path))
            }
            var recipe: Data?
            var image: (name: String, data: Data)?
            try ZipEntries.read(scratch, context: context) { inner, bytes in
                let base = (inner as NSString).lastPathComponent
                if base == "recipe.json" { recipe = bytes } else if base.hasPrefix("image.") { image = (base, bytes) }
            }
            let location = RecordLocation(file: "\(path)!\(name)")
            guard let recipe else { throw ConversionError(.notRecognized("a recipe zip without recipe.json"), at: location) }
            let documents = try JSONDocuments.parse(recipe, path: location.file)
            guard let object = documents.document?.object else {
                throw ConversionError(.wrongType(expected: "a recipe object", found: documents.document?.shortDescription ?? "nothing"), at: location)
            }
            try context.record { try self.recipe(object, zip: name, file: file, image: image, location: location) }
            try context.flushIfNeeded()
        }
    }

    private func recipe(_ object: JSONObject, zip: String, file: String, image: (name: String, data: Data)?, location: RecordLocation) throws {
        var fields = FieldReader(object, at: location, dates: context.dates)
        let title = try fields.string("name") ?? ""
        // An export carries no id of Tandoor's: the recipe is known by its name and its zip.
        let id = StableID.make("tandoor", title, zip)
        var here = location
        here.key = title
        try context.claim(id, table: "recipe", at: here)
        let time = try context.fileTime(location.file)
        var recipe = Recipe(id: id, source: SourceRef(app: .tandoor, entity: "Recipe", key: nil, file: file), kind: "meal",
                            createdAt: time, modifiedAt: time)
        context.synthesized([SynthesizedTimes.createdAt, SynthesizedTimes.modifiedAt], table: "recipe", from: "modification time of \(file)",
                            marking: &recipe.synthesizedTimes)
        recipe.title = title
        recipe.summary = (try fields.string("description")).flatMap { $0.isEmpty ? nil : $0 }
        recipe.prepMinutes = try fields.double("working_time")
        recipe.cookMinutes = try fields.double("waiting_time")
        recipe.servings = try fields.double("servings")
        // Keywords are tags by name; their own fields (icon, description, times) stay whole.
        if let keywords = fields.peek("keywords")?.array {
            recipe.tags = keywords.compactMap { $0.object?["name"]?.string }
        }
        for (index, element) in (try fields.array("steps") ?? []).enumerated() {
            guard let object = element.object else {
                throw fields.error(.wrongType(expected: "a step object", found: element.shortDescription), "steps[\(index)]")
            }
            recipe.steps.append(try step(fields.nested(object, field: "steps[\(index)]"), recipeID: id, position: index))
        }
        recipe.instructions = recipe.steps.compactMap(\.instruction).joined(separator: "\n\n")
        if let image {
            recipe.attachments = [AttachmentFiles.file(image.data, named: image.name, owner: id, position: 0, hero: true, context: context)]
        }
        recipe.extras = fields.extras
        context.report.extras(app: .tandoor, entity: "Recipe", recipe.extras)
        context.batch.recipes.append(recipe)
    }

    /// A step: its instruction, its name, its time (minutes), and its ingredients as the step's
    /// material lines (amount, unit and food apart; the note kept).
    private func step(_ fields: FieldReader, recipeID: String, position: Int) throws -> RecipeStep {
        var fields = fields
        var step = RecipeStep(id: StableID.make(recipeID, "step", String(position)), position: position)
        step.title = (try fields.string("name")).flatMap { $0.isEmpty ? nil : $0 }
        step.instruction = try fields.string("instruction")
        step.estimatedMinutes = try fields.double("time")
        for (index, element) in (try fields.array("ingredients") ?? []).enumerated() {
            guard let object = element.object else {
                throw fields.error(.wrongType(expected: "an ingredient object", found: element.shortDescription), "ingredients[\(index)]")
            }
            var ingredient = fields.nested(object, field: "ingredients[\(index)]")
            var line = MaterialLine(id: StableID.make(step.id, "ingredient", String(index)), position: index)
            if case .object(let food)? = ingredient.value("food") {
                var foodFields = ingredient.nested(food, field: "food")
                line.description = try foodFields.string("name")
                if !foodFields.extras.isEmpty { line.extras["food"] = .object(foodFields.extras) }
            }
            if case .object(let unit)? = ingredient.value("unit") {
                var unitFields = ingredient.nested(unit, field: "unit")
                line.unit = try unitFields.string("name")
                if !unitFields.extras.isEmpty { line.extras["unit"] = .object(unitFields.extras) }
            }
            line.quantity = try ingredient.decimal("amount")
            line.notes = (try ingredient.string("note")).flatMap { $0.isEmpty ? nil : $0 }
            for (key, value) in ingredient.extras { line.extras[key] = value }
            step.materials.append(line)
        }
        step.extras = fields.extras
        return step
    }
}
