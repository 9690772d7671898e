import FerryJSON
import FerryStore

/// A recipe as a schema.org `Recipe` node (JSON-LD), as recipe sites publish it and Nextcloud
/// Cookbook, Mealie, Tandoor and KitchenOwl import it. Recipes that came from schema.org
/// (`schema-org`, `nextcloud`) get back the members their reader kept whole in `extras`
/// (nutrition, ratings, images by URL, instructions with images), so that what was read
/// is what is written. Format notes: `Formats/export-formats.md`.
package enum SchemaOrgRecipe {
    package static let context: JSONValue = "https://schema.org"
    /// Sources whose extras are schema.org members, under their schema.org names.
    static let schemaOrgSources: Set<String> = ["schema-org", "nextcloud"]
    /// Members a kept one must not replace: the node's identity, and the aliases schema.org's
    /// context gives `@id` and `@type` (`id`, `type`; Nextcloud's `id` is its own number), which
    /// would collide with them.
    static let ownKeys: Set<String> = ["@context", "@id", "@type", "id", "type", "identifier"]
    /// Extras Ferry writes itself, which are not the recipe's.
    static let ferryExtras: Set<String> = ["synthesizedTimes", "danglingReferences"]

    /// - Parameters:
    ///   - imageURL: the address of an image whose bytes are carried (relative to the file the
    ///     node is written in); nil leaves images without one out.
    ///   - withContext: whether the node carries `@context` (a file of its own) or sits in a list that does.
    package static func node(_ recipe: RecipeRecord, imageURL: (RecipeRecord.Image) -> String?, withContext: Bool,
                             fidelity: FormatFidelity? = nil) -> JSONObject {
        typealias Column = RecipeTable
        var node = JSONObject()
        if withContext { node["@context"] = context }
        node["@type"] = "Recipe"
        node["@id"] = .string("urn:uuid:\(recipe.id.lowercased())")
        node["identifier"] = .string(recipe.id)
        func put(_ key: String, _ value: JSONValue?, from column: CanonicalColumn) {
            guard let value else { return }
            node[key] = value
            fidelity?.kept("\(Column.table).\(column.name)", as: key)
        }
        put("name", .string(recipe.title), from: Column.title)
        put("description", recipe[Column.summary].map(JSONValue.string), from: Column.summary)
        put("author", recipe[Column.author].map { ["@type": "Person", "name": .string($0)] }, from: Column.author)
        put("url", recipe[Column.sourceURL].map(JSONValue.string), from: Column.sourceURL)
        put("recipeCategory", recipe[Column.category].map(JSONValue.string), from: Column.category)
        if !recipe.tags.isEmpty {
            // Nextcloud Cookbook reads keywords as one text, separated by commas.
            node["keywords"] = recipe.tags.contains { $0.contains(",") } ? .array(recipe.tags.map(JSONValue.string)) : .string(recipe.tags.joined(separator: ","))
            fidelity?.kept("recipe_tag", as: "keywords")
        }
        for column in [Column.servings, Column.prepMinutes, Column.cookMinutes, Column.estimatedMinutes] where recipe.hasUnwritableNumber(column) {
            fidelity?.dropped("\(Column.table).\(column.name)", why: "not a finite number below a billion")
        }
        if let servings = recipe.number(Column.servings) {
            put("recipeYield", .number(JSONNumber(servings)), from: Column.servings)
        }
        for (key, column) in [("prepTime", Column.prepMinutes), ("cookTime", Column.cookMinutes), ("totalTime", Column.estimatedMinutes)] {
            put(key, recipe.number(column).flatMap(ISODuration.text).map(JSONValue.string), from: column)
        }
        put("dateCreated", recipe[Column.createdAt].map(JSONValue.string), from: Column.createdAt)
        put("dateModified", recipe[Column.modifiedAt].map(JSONValue.string), from: Column.modifiedAt)
        // Both always present (empty when the recipe has none): importers look for them.
        node["recipeIngredient"] = .array((recipe.ingredients + recipe.parameters).map(JSONValue.string))
        if !recipe.ingredients.isEmpty { fidelity?.kept("material_line", as: "recipeIngredient") }
        if !recipe.parameters.isEmpty {
            fidelity?.coarsened("recipe_parameter", as: "recipeIngredient", why: "a line \"name: value unit\" each, after the ingredients")
        }
        let instructions = Self.instructions(recipe)
        node["recipeInstructions"] = instructions ?? .array([])
        if instructions != nil {
            fidelity?.kept(recipe.steps.isEmpty ? "\(Column.table).\(Column.instructions.name)" : "recipe_step", as: "recipeInstructions")
        }
        let images = recipe.images.compactMap(imageURL)
        if !images.isEmpty {
            node["image"] = images.count == 1 ? .string(images[0]) : .array(images.map(JSONValue.string))
            fidelity?.kept("attachment", as: "image")
        }
        fidelity?.dropped("attachment", why: "an image whose bytes the store does not hold", recipe.images.count - images.count)
        let extras = recipe.extras
        if schemaOrgSources.contains(recipe[Column.sourceApp] ?? "") {
            // The reader kept these as written where the columns hold only part of them.
            for (key, value) in extras where !ferryExtras.contains(key) && !Self.ownKeys.contains(key) {
                node[key] = value
            }
            if extras.members.contains(where: { !ferryExtras.contains($0.key) }) { fidelity?.kept("recipe.extras", as: "the same schema.org members") }
        } else if extras.members.contains(where: { !ferryExtras.contains($0.key) }) {
            fidelity?.dropped("recipe.extras", why: "the source app's own fields have no schema.org name")
        }
        fidelity?.dropped("reference_link", why: "schema.org's Recipe has one url, which is the source", recipe.linkCount > 0 ? 1 : 0)
        fidelity?.dropped("\(Column.table).\(Column.isFavorite.name)", why: "no schema.org property", recipe[Column.isFavorite] == "1" ? 1 : 0)
        for column in recipe.unreadable { fidelity?.dropped(column, why: "not JSON: a damaged row, carried as stored in the tables") }
        fidelity?.wrote("recipes")
        return node
    }

    /// Steps as `HowToStep`s (in `HowToSection`s where their section was kept); without steps,
    /// the instructions text as it is.
    static func instructions(_ recipe: RecipeRecord) -> JSONValue? {
        guard !recipe.steps.isEmpty else { return recipe[RecipeTable.instructions].map(JSONValue.string) }
        var result: [JSONValue] = []
        var section: (name: String, steps: [JSONValue])?
        func closeSection() {
            if let open = section {
                result.append(["@type": "HowToSection", "name": .string(open.name), "itemListElement": .array(open.steps)])
            }
            section = nil
        }
        for step in recipe.steps {
            guard let text = step.text else { continue }
            var made = JSONObject([("@type", "HowToStep"), ("text", .string(text))])
            if let title = step.title, step.instruction != nil, title != text { made["name"] = .string(title) }
            if let name = step.section {
                if section?.name != name { closeSection(); section = (name, []) }
                section?.steps.append(.object(made))
            } else {
                closeSection()
                result.append(.object(made))
            }
        }
        closeSection()
        return .array(result)
    }
}
