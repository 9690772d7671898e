import FerryCanonical
import FerryJSON
import Foundation

// Strings here are Mealie's own field names, not canonical columns.

/// What Mealie's two formats share: its snake_case recipe fields, read the same way.
struct MealieRecipeFields {
    let context: ConversionContext

    /// Title, summary, source, times, yield, rating and dates from a recipe's own fields; the
    /// caller adds ingredients, instructions, tags and images.
    func recipe(_ fields: inout FieldReader, id: String, key: String?, file: String, kept: inout JSONObject) throws -> Recipe {
        let time = try context.fileTime(fields.location.file)
        var recipe = Recipe(id: id, source: SourceRef(app: .mealie, entity: "Recipe", key: key, file: file), kind: "meal",
                            createdAt: time, modifiedAt: time)
        recipe.title = try fields.string("name") ?? ""
        recipe.summary = (try fields.string("description")).flatMap { $0.isEmpty ? nil : $0 }
        recipe.sourceURL = (try fields.string("org_url")).flatMap { $0.isEmpty ? nil : $0 }
        for (key, keyPath) in [("prep_time", \Recipe.prepMinutes), ("perform_time", \Recipe.cookMinutes), ("total_time", \Recipe.estimatedMinutes)] {
            guard let value = fields.value(key) else { continue }
            if let text = value.string, let minutes = TextDuration.minutes(text) { recipe[keyPath: keyPath] = minutes } else { kept[key] = value }
        }
        if let yield = fields.value("recipe_yield") {
            let text = yield.string ?? yield.number?.text ?? ""
            recipe.servings = PaprikaNormalizer.leadingNumber(text)
            // Kept as written unless the number is the whole of it.
            if recipe.servings == nil || recipe.servings != Double(text.trimmingCharacters(in: .whitespaces)) { kept["recipe_yield"] = yield }
        }
        let created = try date(&fields, "created_at", "date_added")
        let updated = try date(&fields, "update_at", "date_updated")
        if let created { recipe.createdAt = created } else {
            context.synthesized([SynthesizedTimes.createdAt], table: "recipe", from: "modification time of \(file)", marking: &recipe.synthesizedTimes)
        }
        if let stamp = updated ?? created { recipe.modifiedAt = stamp } else {
            context.synthesized([SynthesizedTimes.modifiedAt], table: "recipe", from: "modification time of \(file)", marking: &recipe.synthesizedTimes)
        }
        return recipe
    }

    /// The first of `keys` that holds a time; the others stay in extras.
    private func date(_ fields: inout FieldReader, _ keys: String...) throws -> String? {
        for key in keys where fields.peek(key) != nil {
            if let value = fields.peek(key)?.string, let seconds = CanonicalTime.unixSeconds(value) {
                _ = fields.value(key)
                return CanonicalTime.string(unixSeconds: seconds)
            }
        }
        return nil
    }

    /// An ingredient's line as a person reads it: its original text, else amount, unit, food
    /// and note joined.
    static func line(quantity: String?, unit: String?, food: String?, note: String?, original: String?) -> String {
        if let original, !original.isEmpty { return original }
        return [quantity, unit, food, note].compactMap { $0?.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// Mealie's ids are UUIDs written without hyphens (`3ef4f123…`); the canonical form has them.
    static func uuid(_ text: String?) -> String? {
        guard let text else { return nil }
        if let uuid = StableID.normalized(text) { return uuid }
        guard text.count == 32, text.allSatisfy(\.isHexDigit) else { return nil }
        let characters = Array(text)
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }
        return StableID.normalized(parts.joined(separator: "-"))
    }
}
