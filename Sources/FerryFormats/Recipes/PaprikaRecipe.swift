import Crypto
import FerryJSON
import FerryStore
import Foundation

/// A recipe as Paprika's JSON (what a `.paprikarecipe` holds, gzip'd): ingredients and
/// directions as text a line each, times as free text, photos as base64. Paprika, Mealie and
/// Tandoor import it. Recipes that came from Paprika get back the fields their reader kept in
/// `extras` (notes, nutrition, rating, the original time texts). Format notes:
/// `Formats/export-formats.md`.
package enum PaprikaRecipe {
    /// Paprika fields Ferry's reader keeps in `extras` as written, given back as they were.
    static let keptFields = ["notes", "nutritional_info", "rating", "source", "image_url", "photo_hash", "photo_large", "scale",
                             "servings", "prep_time", "cook_time", "total_time", "hash"]

    /// - Parameter bytes: an image's bytes by SHA-256, nil where the store does not hold them.
    package static func object(_ recipe: RecipeRecord, bytes: (String) throws -> [UInt8]?, fidelity: FormatFidelity? = nil) throws -> JSONObject {
        typealias Column = RecipeTable
        let table = Column.table
        var object = JSONObject()
        object["uid"] = .string(recipe.id)
        object["name"] = .string(recipe.title)
        fidelity?.kept("\(table).\(Column.title.name)", as: "name")
        // A line is an ingredient and a step: line breaks inside one become spaces.
        let ingredients = (recipe.ingredients + recipe.parameters).map(oneLine)
        let steps = recipe.steps.compactMap(\.text).map(oneLine)
        if ingredients != recipe.ingredients + recipe.parameters || steps != recipe.steps.compactMap(\.text) {
            fidelity?.coarsened("material_line and recipe_step text", as: "ingredients and directions",
                                why: "a line each: line breaks inside an ingredient or a step become spaces")
        }
        object["ingredients"] = .string(ingredients.joined(separator: "\n"))
        if !recipe.ingredients.isEmpty { fidelity?.kept("material_line", as: "ingredients (a line each)") }
        if !recipe.parameters.isEmpty {
            fidelity?.coarsened("recipe_parameter", as: "ingredients", why: "a line \"name: value unit\" each, after the ingredients")
        }
        let directions = recipe.steps.isEmpty ? recipe[Column.instructions] : steps.joined(separator: "\n")
        object["directions"] = .string(directions ?? "")
        if directions != nil { fidelity?.kept(recipe.steps.isEmpty ? "\(table).\(Column.instructions.name)" : "recipe_step", as: "directions (a line each)") }
        if recipe.steps.contains(where: { $0.title != nil && $0.instruction != nil }) {
            fidelity?.dropped("recipe_step.title", why: "Paprika's directions are one text: a step's own title is left out")
        }
        if recipe.steps.contains(where: { $0.section != nil }) {
            fidelity?.dropped("recipe_step.extras.section", why: "Paprika's directions have no sections")
        }
        func text(_ key: String, _ column: CanonicalColumn) {
            let value = recipe[column]
            object[key] = .string(value ?? "")
            if value != nil { fidelity?.kept("\(table).\(column.name)", as: key) }
        }
        text("description", Column.summary)
        text("source_url", Column.sourceURL)   // Paprika's own field names
        text("difficulty", Column.difficulty)
        object["source"] = .string(recipe[Column.sourceURL].flatMap { URL(string: $0)?.host } ?? "")
        if recipe.hasUnwritableNumber(Column.servings) { fidelity?.dropped("\(table).\(Column.servings.name)", why: "not a finite number below a billion") }
        if let servings = recipe.number(Column.servings) {
            object["servings"] = .string(JSONNumber(servings).text)
            fidelity?.kept("\(table).\(Column.servings.name)", as: "servings")
        } else {
            object["servings"] = ""
        }
        for (key, column) in [("prep_time", Column.prepMinutes), ("cook_time", Column.cookMinutes), ("total_time", Column.estimatedMinutes)] {
            if recipe.hasUnwritableNumber(column) { fidelity?.dropped("\(table).\(column.name)", why: "not a number of minutes a text can say") }
            guard let minutes = recipe.number(column), minutes >= 0 else { object[key] = ""; continue }
            object[key] = .string(timeText(minutes))
            fidelity?.coarsened("\(table).\(column.name)", as: key, why: "free text (\"1 hr 20 mins\"): Paprika keeps no number")
        }
        object["categories"] = .array(recipe.tags.map(JSONValue.string))
        if !recipe.tags.isEmpty { fidelity?.kept("recipe_tag", as: "categories") }
        object["rating"] = 0
        object["notes"] = ""
        object["nutritional_info"] = ""
        object["image_url"] = ""
        if let created = recipe[Column.createdAt] {
            object["created"] = .string(paprikaTime(created))
            fidelity?.coarsened("\(table).\(Column.createdAt.name)", as: "created", why: "whole seconds, no zone (read back as UTC)")
        }
        fidelity?.dropped("\(table).\(Column.modifiedAt.name)", why: "Paprika keeps no modification time")
        if recipe[Column.author] != nil { fidelity?.dropped("\(table).\(Column.author.name)", why: "Paprika has no author field") }
        if recipe[Column.category] != nil {
            fidelity?.dropped("\(table).\(Column.category.name)", why: "Paprika's categories are the tags")
        }
        try photos(recipe, bytes: bytes, into: &object, fidelity: fidelity)
        let extras = recipe.extras
        if recipe[Column.sourceApp] == "paprika" {
            for key in keptFields { if let value = extras[key] { object[key] = value } }
        } else if extras.members.contains(where: { !SchemaOrgRecipe.ferryExtras.contains($0.key) }) {
            fidelity?.dropped("recipe.extras", why: "the source app's own fields have no Paprika name")
        }
        fidelity?.dropped("reference_link", why: "Paprika has one source URL", recipe.linkCount > 0 ? 1 : 0)
        if object["hash"] == nil {
            // Paprika's sync compares recipes by this hash: one of the content written.
            let content = JSONWriter.string(.object(object), sortedKeys: true)
            object["hash"] = .string(Hex.lowercase(SHA256.hash(data: Array(content.utf8))))
        }
        for column in recipe.unreadable { fidelity?.dropped(column, why: "not JSON: a damaged row, carried as stored in the tables") }
        fidelity?.wrote("recipes")
        return object
    }

    /// The hero image (or the first) as `photo_data`, the others in `photos`, each where the
    /// store holds its bytes.
    private static func photos(_ recipe: RecipeRecord, bytes: (String) throws -> [UInt8]?, into object: inout JSONObject,
                               fidelity: FormatFidelity?) throws {
        var carried: [(image: RecipeRecord.Image, data: [UInt8])] = []
        for image in recipe.images {
            guard image.hasBytes, let sha = image.sha256, let data = try bytes(sha) else { continue }
            carried.append((image, data))
        }
        fidelity?.dropped("attachment", why: "an image whose bytes the store does not hold", recipe.images.count - carried.count)
        let heroIndex = carried.firstIndex { $0.image.tag == "hero" } ?? carried.indices.first
        var others: [JSONValue] = []
        for (index, photo) in carried.enumerated() {
            let name = photo.image.name ?? "photo-\(index + 1).jpg"
            if index == heroIndex {
                object["photo"] = .string(name)
                object["photo_data"] = .string(Data(photo.data).base64EncodedString())
            } else {
                others.append(["filename": .string(name), "name": .string(name), "data": .string(Data(photo.data).base64EncodedString())])
            }
            fidelity?.kept("attachment", as: index == heroIndex ? "photo_data" : "photos")
        }
        object["photos"] = .array(others)
    }

    /// The text with each run of line breaks (and the spaces around them) as one space.
    static func oneLine(_ text: String) -> String {
        guard text.contains(where: \.isNewline) else { return text }
        return text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// `1 hr 20 mins`, `45 mins`, `1.5 mins`: text Paprika shows and Ferry's reader reads back.
    static func timeText(_ minutes: Double) -> String {
        let hours = (minutes / 60).rounded(.towardZero)
        let rest = minutes - hours * 60
        let restText = "\(JSONNumber(rest).text) mins"
        guard hours >= 1 else { return restText }
        return rest == 0 ? "\(Int64(hours)) hr" : "\(Int64(hours)) hr \(restText)"
    }

    /// `2025-10-20 07:45:00` from `2025-10-20T07:45:00.5Z`: Paprika's `created`.
    static func paprikaTime(_ time: String) -> String {
        let characters = Array(time)
        guard characters.count >= 19, characters[10] == "T" else { return time }
        return String(characters[0..<10]) + " " + String(characters[11..<19])
    }
}
