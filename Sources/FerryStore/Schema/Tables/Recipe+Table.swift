import FerryCanonical
import FerryJSON

/// The `recipe` table (`Formats/canonical-schema.md`).
package enum RecipeTable {
    package static let table = "recipe"
    package static let id = SharedColumns.id
    package static let sourceApp = SharedColumns.sourceApp
    package static let sourceEntity = SharedColumns.sourceEntity
    package static let sourceKey = SharedColumns.sourceKey
    package static let sourceFile = SharedColumns.sourceFile
    package static let kind = CanonicalColumn("kind", .text, required: true)
    package static let method = CanonicalColumn("method", .text)
    package static let category = CanonicalColumn("category", .text)
    package static let title = CanonicalColumn("title", .text, required: true)
    package static let summary = CanonicalColumn("summary", .text)
    package static let instructions = CanonicalColumn("instructions", .text)
    package static let origin = CanonicalColumn("origin", .text)
    package static let isStarter = CanonicalColumn("is_starter", .integer, required: true)
    package static let sourceURL = CanonicalColumn("source_url", .text)
    package static let author = CanonicalColumn("author", .text)
    package static let difficulty = CanonicalColumn("difficulty", .text)
    package static let servings = CanonicalColumn("servings", .real)
    package static let prepMinutes = CanonicalColumn("prep_minutes", .real)
    package static let cookMinutes = CanonicalColumn("cook_minutes", .real)
    package static let estimatedMinutes = CanonicalColumn("estimated_minutes", .real)
    package static let usageCount = CanonicalColumn("usage_count", .integer)
    package static let lastUsedAt = CanonicalColumn("last_used_at", .text)
    package static let isFavorite = CanonicalColumn("is_favorite", .integer, required: true)
    package static let isArchived = CanonicalColumn("is_archived", .integer, required: true)
    package static let isValid = CanonicalColumn("is_valid", .integer)
    package static let createdAt = SharedColumns.createdAt
    package static let modifiedAt = SharedColumns.modifiedAt
    package static let deletedAt = CanonicalColumn("deleted_at", .text)
    package static let extras = SharedColumns.extras

    static let row = TableRow<Recipe>(table, [
        fill(id) { $0.add($1.id) },
        fill(sourceApp) { $0.add($1.source.app.rawValue) },
        fill(sourceEntity) { $0.add($1.source.entity) },
        fill(sourceKey) { $0.add($1.source.key) },
        fill(sourceFile) { $0.add($1.source.file) },
        fill(kind) { $0.add($1.kind) },
        fill(method) { $0.add($1.method) },
        fill(category) { $0.add($1.category) },
        fill(title) { $0.add($1.title) },
        fill(summary) { $0.add($1.summary) },
        fill(instructions) { $0.add($1.instructions) },
        fill(origin) { $0.add($1.origin) },
        fill(isStarter) { $0.add($1.isStarter) },
        fill(sourceURL) { $0.add($1.sourceURL) },
        fill(author) { $0.add($1.author) },
        fill(difficulty) { $0.add($1.difficulty) },
        fill(servings) { $0.add($1.servings) },
        fill(prepMinutes) { $0.add($1.prepMinutes) },
        fill(cookMinutes) { $0.add($1.cookMinutes) },
        fill(estimatedMinutes) { $0.add($1.estimatedMinutes) },
        fill(usageCount) { $0.add($1.usageCount) },
        fill(lastUsedAt) { $0.add($1.lastUsedAt) },
        fill(isFavorite) { $0.add($1.isFavorite) },
        fill(isArchived) { $0.add($1.isArchived) },
        fill(isValid) { $0.add($1.isValid) },
        fill(createdAt) { $0.add($1.createdAt) },
        fill(modifiedAt) { $0.add($1.modifiedAt) },
        fill(deletedAt) { $0.add($1.deletedAt) },
        fill(extras) { $0.add(json: .object(SynthesizedTimes.extras($1.extras, marking: $1.synthesizedTimes))) },
    ])
}

/// `recipe_parameter`: a recipe's named values, one row per name, in the recipe's order.
package enum RecipeParameterTable {
    package static let table = "recipe_parameter"
    package static let recipeID = CanonicalColumn("recipe_id", .text, required: true)
    package static let name = CanonicalColumn("name", .text, required: true)
    package static let position = CanonicalColumn("position", .integer, required: true)
    package static let value = CanonicalColumn("value", .real)
    package static let textValue = CanonicalColumn("text_value", .text)
    package static let unit = CanonicalColumn("unit", .text)

    /// A parameter with its recipe and its place among the recipe's parameters.
    struct Placed: Sendable {
        let recipe: String
        let position: Int
        let parameter: RecipeParameter
    }

    static let row = TableRow<Placed>(table, [
        fill(recipeID) { $0.add($1.recipe) },
        fill(name) { $0.add($1.parameter.name) },
        fill(position) { $0.add($1.position) },
        fill(value) { $0.add($1.parameter.value) },
        fill(textValue) { $0.add($1.parameter.text) },
        fill(unit) { $0.add($1.parameter.unit) },
    ])
    static let key = [recipeID, name]
}

/// `recipe_step`.
package enum RecipeStepTable {
    package static let table = "recipe_step"
    package static let id = SharedColumns.id
    package static let recipeID = CanonicalColumn("recipe_id", .text, required: true)
    package static let position = CanonicalColumn("position", .integer, required: true)
    package static let title = CanonicalColumn("title", .text)
    package static let instruction = CanonicalColumn("instruction", .text)
    package static let kind = CanonicalColumn("kind", .text)
    package static let durationSeconds = CanonicalColumn("duration_seconds", .real)
    package static let waterGrams = CanonicalColumn("water_grams", .real)
    package static let isCumulative = CanonicalColumn("is_cumulative", .integer)
    package static let estimatedMinutes = CanonicalColumn("estimated_minutes", .real)
    package static let imageID = CanonicalColumn("image_id", .text)
    package static let sourceKey = SharedColumns.sourceKey
    package static let extras = SharedColumns.extras

    static let row = TableRow<Owned<RecipeStep>>(table, [
        fill(id) { $0.add($1.part.id) },
        fill(recipeID) { $0.add($1.owner) },
        fill(position) { $0.add($1.part.position) },
        fill(title) { $0.add($1.part.title) },
        fill(instruction) { $0.add($1.part.instruction) },
        fill(kind) { $0.add($1.part.kind) },
        fill(durationSeconds) { $0.add($1.part.durationSeconds) },
        fill(waterGrams) { $0.add($1.part.waterGrams) },
        fill(isCumulative) { $0.add($1.part.isCumulative) },
        fill(estimatedMinutes) { $0.add($1.part.estimatedMinutes) },
        fill(imageID) { $0.add($1.part.imageID) },
        fill(sourceKey) { $0.add($1.part.sourceKey) },
        fill(extras) { $0.add(json: .object($1.part.extras)) },
    ])
}
