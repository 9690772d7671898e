import FerryCanonical
import FerryJSON
import Foundation

// Strings here are Mealie's own field names, not canonical columns.

/// Mealie's v1 backup: `database.json`, every table of its database as a list of rows. Recipes
/// are put together from their tables; meal plans become one `meal-plan` project whose steps
/// are the planned meals; each shopping list a `grocery-list` project whose material lines are
/// its items. Tables of the server's own (users, groups, tokens, settings) are counted and
/// reported, not converted.
struct MealieBackup {
    let context: ConversionContext

    /// The tables read into records, and those read as their parts.
    static let read: Set<String> = ["recipes", "recipes_ingredients", "recipe_instructions", "tags", "categories", "recipes_to_tags",
                                    "recipes_to_categories", "recipe_nutrition", "recipe_settings", "ingredient_units", "ingredient_foods",
                                    "group_meal_plans", "shopping_lists", "shopping_list_items", "alembic_version"]

    func convert(_ path: String) throws {
        let file = (path as NSString).lastPathComponent
        var documents: JSONDocuments?
        if path.lowercased().hasSuffix(".json") {
            documents = try JSONDocuments.read(path)
        } else {
            try ZipEntries.read(path, context: context) { name, data in
                if (name as NSString).lastPathComponent == "database.json" { documents = try JSONDocuments.parse(data, path: "\(path)!\(name)") }
            }
        }
        guard let documents, let database = documents.document?.object else {
            throw ConversionError(.notRecognized("a Mealie backup without database.json"), at: RecordLocation(file: path))
        }
        let tables = Tables(database)
        let where_ = documents.path
        for (name, rows) in database where !Self.read.contains(name) {
            let count = rows.array?.count ?? 0
            if count > 0 { context.report.warning("\(file): \(count) \(name) row\(count == 1 ? "" : "s") not converted: Mealie's own \(name) has no canonical home") }
        }
        var recipeIDs: [String: String] = [:]
        for (index, row) in tables.rows("recipes").enumerated() {
            let location = RecordLocation(file: where_, record: index + 1, key: row["slug"]?.string, field: nil)
            try context.record { recipeIDs[row["id"]?.string ?? ""] = try recipe(row, tables: tables, location: location, file: file) }
            try context.flushIfNeeded()
        }
        try mealPlan(tables, recipes: recipeIDs, path: where_, file: file)
        try shoppingLists(tables, path: where_, file: file)
    }

    /// A backup's tables by name, each grouped by a column once, when first asked: filtering a
    /// table for every recipe made a large backup quadratic.
    final class Tables {
        let database: JSONObject
        private var groups: [String: [String: [JSONObject]]] = [:]
        init(_ database: JSONObject) { self.database = database }

        func rows(_ table: String) -> [JSONObject] { database[table]?.array?.compactMap(\.object) ?? [] }

        func rows(_ table: String, where column: String, is value: String) -> [JSONObject] {
            let key = "\(table)\u{1F}\(column)"
            if groups[key] == nil {
                var grouped: [String: [JSONObject]] = [:]
                for row in rows(table) { if let text = Self.text(row[column]) { grouped[text, default: []].append(row) } }
                groups[key] = grouped
            }
            return groups[key]?[value] ?? []
        }

        func name(in table: String, id: String?) -> String? {
            guard let id else { return nil }
            return rows(table, where: "id", is: id).first?["name"]?.string
        }

        /// Ids are text or numbers.
        static func text(_ value: JSONValue?) -> String? { value?.string ?? value?.number?.text }
    }

    private func recipe(_ row: JSONObject, tables: Tables, location: RecordLocation, file: String) throws -> String {
        var fields = FieldReader(row, at: location, dates: context.dates)
        let key = row["id"]?.string
        let id = MealieRecipeFields.uuid(key) ?? StableID.make("mealie", key ?? row["slug"]?.string ?? "\(location.record ?? 0)")
        try context.claim(id, table: "recipe", at: location)
        fields.skip("id")
        var kept = JSONObject()
        var recipe = try MealieRecipeFields(context: context).recipe(&fields, id: id, key: key, file: file, kept: &kept)
        let recipeKey = key ?? ""
        let ingredients = tables.rows("recipes_ingredients", where: "recipe_id", is: recipeKey)
            .sorted { ($0["position"]?.number?.int64 ?? 0) < ($1["position"]?.number?.int64 ?? 0) }
        recipe.materials = ingredients.enumerated().map { position, ingredient in
            var line = MaterialLine(id: StableID.make(id, "ingredient", String(position)), position: position)
            let unit = tables.name(in: "ingredient_units", id: ingredient["unit_id"]?.string)
            let food = tables.name(in: "ingredient_foods", id: ingredient["food_id"]?.string)
            line.quantity = ingredient["quantity"].flatMap(DecimalText.from)
            line.unit = unit
            line.notes = ingredient["note"]?.string
            line.description = MealieRecipeFields.line(quantity: nil, unit: nil, food: food, note: ingredient["note"]?.string,
                                                      original: ingredient["original_text"]?.string)
            line.sourceKey = Tables.text(ingredient["id"])
            line.extras = JSONObject(ingredient.members.filter { !["recipe_id", "quantity", "note", "id"].contains($0.key) && !$0.value.isNull })
            return line
        }
        let instructions = tables.rows("recipe_instructions", where: "recipe_id", is: recipeKey)
            .sorted { ($0["position"]?.number?.int64 ?? 0) < ($1["position"]?.number?.int64 ?? 0) }
        recipe.steps = instructions.enumerated().map { position, instruction in
            var step = RecipeStep(id: StableID.make(id, "step", String(position)), position: position)
            step.title = instruction["title"]?.string.flatMap { $0.isEmpty ? nil : $0 }
            step.instruction = instruction["text"]?.string
            step.sourceKey = instruction["id"]?.string
            step.extras = JSONObject(instruction.members.filter { !["recipe_id", "title", "text", "id", "position"].contains($0.key) && !$0.value.isNull })
            return step
        }
        recipe.instructions = recipe.steps.compactMap(\.instruction).joined(separator: "\n")
        recipe.tags = tables.rows("recipes_to_tags", where: "recipe_id", is: recipeKey).compactMap { tables.name(in: "tags", id: $0["tag_id"]?.string) }
        let categories = tables.rows("recipes_to_categories", where: "recipe_id", is: recipeKey)
            .compactMap { tables.name(in: "categories", id: $0["category_id"]?.string) }
        recipe.category = categories.first
        if categories.count > 1 { kept["categories"] = .array(categories.map { .string($0) }) }
        for (table, name) in [("recipe_nutrition", "nutrition"), ("recipe_settings", "settings")] {
            if let part = tables.rows(table, where: "recipe_id", is: recipeKey).first {
                kept[name] = .object(JSONObject(part.members.filter { $0.key != "recipe_id" }))
            }
        }
        var extras = fields.extras
        for (key, value) in kept { extras[key] = value }
        recipe.extras = extras
        context.report.extras(app: .mealie, entity: "Recipe", extras)
        context.batch.recipes.append(recipe)
        return id
    }

    /// The planned meals, in date order: one `meal-plan` project, a step each.
    private func mealPlan(_ tables: Tables, recipes: [String: String], path: String, file: String) throws {
        let entries = tables.rows("group_meal_plans").sorted { ($0["date"]?.string ?? "") < ($1["date"]?.string ?? "") }
        guard !entries.isEmpty else { return }
        let id = StableID.make("mealie", file, "meal-plan")
        try context.claim(id, table: "project", at: RecordLocation(file: path, field: "group_meal_plans"))
        let time = try context.fileTime(path)
        var project = Project(id: id, source: SourceRef(app: .mealie, entity: "MealPlan", key: nil, file: file), kind: "meal-plan",
                              createdAt: time, modifiedAt: time)
        context.synthesized([SynthesizedTimes.createdAt, SynthesizedTimes.modifiedAt], table: "project", from: "modification time of \(file)",
                            marking: &project.synthesizedTimes)
        project.title = "Meal plan"
        project.steps = entries.enumerated().map { position, entry in
            var step = ProjectStep(id: MealieRecipeFields.uuid(entry["id"]?.string) ?? StableID.make(id, "meal", String(position)), position: position)
            let recipe = entry["recipe_id"]?.string.flatMap { recipes[$0] }
            step.title = entry["title"]?.string.flatMap { $0.isEmpty ? nil : $0 }
                ?? recipe.flatMap { id in context.batch.recipes.first { $0.id == id }?.title }
            step.kind = entry["entry_type"]?.string
            step.dueAt = entry["date"]?.string.flatMap { CanonicalTime.unixSeconds($0) }.map { CanonicalTime.string(unixSeconds: $0) }
            step.notes = entry["text"]?.string.flatMap { $0.isEmpty ? nil : $0 }
            step.sourceKey = entry["id"]?.string
            var extras = JSONObject(entry.members.filter { !["title", "entry_type", "text", "id"].contains($0.key) && !$0.value.isNull })
            if let recipe { extras["recipe"] = .string(recipe) }
            step.extras = extras
            return step
        }
        context.batch.projects.append(project)
    }

    /// Each shopping list a `grocery-list` project; its items, in their order, its material lines.
    private func shoppingLists(_ tables: Tables, path: String, file: String) throws {
        for (index, list) in tables.rows("shopping_lists").enumerated() {
            let key = list["id"]?.string
            let id = MealieRecipeFields.uuid(key) ?? StableID.make("mealie", file, "shopping-list", String(index))
            let location = RecordLocation(file: path, record: index + 1, key: key, field: nil)
            try context.claim(id, table: "project", at: location)
            var fields = FieldReader(list, at: location, dates: context.dates)
            fields.skip("id")
            let time = try context.fileTime(path)
            var project = Project(id: id, source: SourceRef(app: .mealie, entity: "ShoppingList", key: key, file: file), kind: "grocery-list",
                                  createdAt: time, modifiedAt: time)
            project.title = try fields.string("name") ?? ""
            if let created = fields.peek("created_at")?.string.flatMap(CanonicalTime.unixSeconds) {
                _ = fields.value("created_at")
                project.createdAt = CanonicalTime.string(unixSeconds: created)
                project.modifiedAt = project.createdAt
            } else {
                context.synthesized([SynthesizedTimes.createdAt], table: "project", from: "modification time of \(file)", marking: &project.synthesizedTimes)
            }
            if let updated = fields.peek("update_at")?.string.flatMap(CanonicalTime.unixSeconds) {
                _ = fields.value("update_at")
                project.modifiedAt = CanonicalTime.string(unixSeconds: updated)
            }
            let items = tables.rows("shopping_list_items", where: "shopping_list_id", is: key ?? "")
                .sorted { ($0["position"]?.number?.int64 ?? 0) < ($1["position"]?.number?.int64 ?? 0) }
            project.materials = items.enumerated().map { position, item in
                var line = MaterialLine(id: MealieRecipeFields.uuid(item["id"]?.string) ?? StableID.make(id, "item", String(position)), position: position)
                let unit = tables.name(in: "ingredient_units", id: item["unit_id"]?.string)
                let food = tables.name(in: "ingredient_foods", id: item["food_id"]?.string)
                line.quantity = item["quantity"].flatMap(DecimalText.from)
                line.unit = unit
                line.notes = item["note"]?.string
                line.description = MealieRecipeFields.line(quantity: nil, unit: nil, food: food, note: item["note"]?.string, original: item["display"]?.string)
                line.sourceKey = Tables.text(item["id"])
                line.extras = JSONObject(item.members.filter { !["shopping_list_id", "quantity", "note", "id", "position"].contains($0.key) && !$0.value.isNull })
                return line
            }
            project.extras = fields.extras
            context.report.extras(app: .mealie, entity: "ShoppingList", project.extras)
            context.batch.projects.append(project)
        }
    }
}
