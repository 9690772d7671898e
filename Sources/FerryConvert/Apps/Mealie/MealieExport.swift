import FerryCanonical
import FerryJSON
import Foundation

/// Mealie's v0.5 export: `recipes/<slug>/<slug>.json`, each a recipe with its ingredients and
/// instructions inline, and its images under `images/` (the `original.*` kept as the hero).
struct MealieExport {
    let context: ConversionContext

    static func isRecipeFile(_ name: String) -> Bool {
        let parts = name.split(separator: "/").map(String.init)
        guard parts.count >= 3, let last = parts.last, last.hasSuffix(".json") else { return false }
        return parts[parts.count - 3] == "recipes" && last == parts[parts.count - 2] + ".json"
    }

    func convertFile(_ path: String) throws {
        let documents = try JSONDocuments.read(path)
        guard let object = documents.document?.object else {
            throw ConversionError(.wrongType(expected: "a Mealie recipe object", found: documents.document?.shortDescription ?? "nothing"),
                                  at: RecordLocation(file: path))
        }
        try context.record { try recipe(object, location: RecordLocation(file: path), file: (path as NSString).lastPathComponent, image: nil) }
    }

    func convertZip(_ path: String) throws {
        var recipes: [(folder: String, name: String, data: Data)] = []
        var images: [String: (name: String, data: Data)] = [:]
        try ZipEntries.read(path, context: context) { name, data in
            if Self.isRecipeFile(name) {
                recipes.append(((name as NSString).deletingLastPathComponent, name, data))
            } else if (name as NSString).deletingLastPathComponent.hasSuffix("/images"), (name as NSString).lastPathComponent.hasPrefix("original.") {
                let folder = ((name as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
                images[folder] = ((name as NSString).lastPathComponent, data)
            }
        }
        let file = (path as NSString).lastPathComponent
        for (folder, name, data) in recipes {
            let documents = try JSONDocuments.parse(data, path: "\(path)!\(name)")
            let location = RecordLocation(file: documents.path)
            guard let object = documents.document?.object else {
                throw ConversionError(.wrongType(expected: "a Mealie recipe object", found: documents.document?.shortDescription ?? "nothing"), at: location)
            }
            try context.record { try recipe(object, location: location, file: file, image: images[folder]) }
            try context.flushIfNeeded()
        }
    }

    private func recipe(_ object: JSONObject, location: RecordLocation, file: String, image: (name: String, data: Data)?) throws {
        var fields = FieldReader(object, at: location, dates: context.dates)
        let slug = try fields.string("slug")
        let id = StableID.make("mealie", slug ?? object["name"]?.string ?? location.file)
        var here = location
        here.key = slug
        try context.claim(id, table: "recipe", at: here)
        var kept = JSONObject()
        var recipe = try MealieRecipeFields(context: context).recipe(&fields, id: id, key: slug, file: file, kept: &kept)
        for (index, element) in (try fields.array("recipe_ingredient") ?? []).enumerated() {
            var line = MaterialLine(id: StableID.make(id, "ingredient", String(index)), position: index)
            if let text = element.string {
                line.description = text
            } else if let ingredient = element.object {
                let unit = ingredient["unit"]?.object?["name"]?.string ?? ingredient["unit"]?.string
                let food = ingredient["food"]?.object?["name"]?.string ?? ingredient["food"]?.string
                line.quantity = ingredient["quantity"].flatMap(DecimalText.from)
                line.unit = unit
                line.notes = ingredient["note"]?.string
                line.description = MealieRecipeFields.line(quantity: nil, unit: nil, food: food, note: ingredient["note"]?.string,
                                                          original: ingredient["original_text"]?.string)
                line.extras = JSONObject(ingredient.members.filter { !["quantity", "note"].contains($0.key) && !$0.value.isNull })
            }
            recipe.materials.append(line)
        }
        for (index, element) in (try fields.array("recipe_instructions") ?? []).enumerated() {
            var step = RecipeStep(id: StableID.make(id, "step", String(index)), position: index)
            step.instruction = element.string ?? element.object?["text"]?.string
            step.title = element.object?["title"]?.string.flatMap { $0.isEmpty ? nil : $0 }
            if let instruction = element.object { step.extras = JSONObject(instruction.members.filter { !["text", "title"].contains($0.key) && !$0.value.isNull }) }
            recipe.steps.append(step)
        }
        recipe.instructions = recipe.steps.compactMap(\.instruction).joined(separator: "\n")
        recipe.tags = (try fields.array("tags") ?? []).compactMap { $0.string ?? $0.object?["name"]?.string }
        let categories = (try fields.array("recipe_category") ?? []).compactMap { $0.string ?? $0.object?["name"]?.string }
        recipe.category = categories.first
        if categories.count > 1 { kept["recipe_category"] = .array(categories.map { .string($0) }) }
        if let image {
            recipe.attachments = [AttachmentFiles.file(image.data, named: image.name, owner: id, position: 0, hero: true, context: context)]
        }
        var extras = fields.extras
        for (key, value) in kept { extras[key] = value }
        recipe.extras = extras
        context.report.extras(app: .mealie, entity: "Recipe", extras)
        context.batch.recipes.append(recipe)
    }
}
