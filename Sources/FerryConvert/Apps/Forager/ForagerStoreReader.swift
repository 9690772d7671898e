import FerryCanonical
import FerryJSON
import FerryCoreData

/// Forager's Core Data store (grocery lists and meal planning): recipes with their ingredients
/// and tags become `meal` recipes; weekly lists and grocery items become projects (list items
/// are the list's material lines); meal plans become projects whose steps are the planned meals.
/// Households, members, categories and ingredient templates have no canonical home and are reported.
struct ForagerStoreReader {
    let context: ConversionContext
    let index: CoreDataRecordIndex
    let time: String

    func convert() throws {
        try index.require(.forager, anyOf: ["Recipe", "GroceryItem", "WeeklyList", "GroceryListItem", "MealPlan"])
        for record in index.records(of: ["Recipe"]) { try context.record { try recipe(record) } }
        for record in index.records(of: ["WeeklyList"]) { try context.record { try weeklyList(record) } }
        for record in index.records(of: ["GroceryItem"]) { try context.record { try groceryItem(record) } }
        for record in index.records(of: ["MealPlan"]) { try context.record { try mealPlan(record) } }
        try looseListItems()
    }

    private func start(_ record: CoreDataRecord, table: String) throws -> (String, FieldReader) {
        var (id, fields) = try context.take(record, from: index, app: .forager, claiming: table)
        fields.skip("id", "household")
        return (id, fields)
    }

    /// A named project for a record: its id claimed, its title from `name`.
    private func startProject(_ record: CoreDataRecord, kind: String) throws -> (Project, FieldReader) {
        var (id, fields) = try start(record, table: "project")
        var project = Project(id: id, source: index.source(record, app: .forager), kind: kind, createdAt: time, modifiedAt: time)
        project.title = try fields.string("name") ?? ""
        return (project, fields)
    }

    private func recipe(_ record: CoreDataRecord) throws {
        var (id, fields) = try start(record, table: "recipe")
        var recipe = Recipe(id: id, source: index.source(record, app: .forager), kind: "meal", createdAt: time, modifiedAt: time)
        recipe.title = try fields.string("title") ?? ""
        recipe.servings = try fields.double("servings")
        recipe.prepMinutes = try fields.double("prepTime")
        recipe.cookMinutes = try fields.double("cookTime")
        recipe.instructions = try fields.string("instructions")
        recipe.usageCount = try fields.integer("usageCount")
        recipe.lastUsedAt = try fields.date("lastUsed")
        recipe.isFavorite = try fields.bool("isFavorite") ?? false
        recipe.sourceURL = try fields.string("sourceURL")
        created(try fields.date("dateCreated"), &recipe.createdAt, &recipe.modifiedAt, table: "recipe", marking: &recipe.synthesizedTimes)
        recipe.materials = try lines(fields.children(["ingredients"], entity: "Ingredient", ownerKey: record.id, resolver: index),
                                     ownerID: id, entity: "Ingredient", backLink: "recipe")
        var extras = JSONObject()
        let tagRows = try fields.children(["tags"], entity: "Tag", ownerKey: nil, resolver: index)
        var details: [JSONValue] = []
        for var tag in tagRows {
            let name = try tag.requiredString("name")
            if !recipe.tags.contains(name) { recipe.tags.append(name) }
            tag.skip("recipes", "household")
            var detail = tag.extras
            if !detail.isEmpty {
                detail["name"] = .string(name)
                details.append(.object(detail))
            }
        }
        // Tags are shared by name; what a Forager tag adds (its colour, id, date) stays with the recipe.
        if !details.isEmpty { extras["tagDetails"] = .array(details) }
        for member in fields.extras { extras[member.key] = member.value }
        recipe.extras = extras
        context.report.extras(app: .forager, entity: record.entity, extras)
        context.batch.recipes.append(recipe)
    }

    /// Ingredients and list items: `displayText` or `name`, a decimal quantity when it is one,
    /// a unit, notes, in `sortOrder`.
    private func lines(_ children: [FieldReader], ownerID: String, entity: String, backLink: String) throws -> [MaterialLine] {
        var result: [MaterialLine] = []
        for (index, child) in children.enumerated() {
            var item = child
            let legacyID = try item.uuid("id")
            let position = Int(try item.integer("sortOrder") ?? Int64(index))
            var line = MaterialLine(id: StableID.make("forager", ownerID, entity, legacyID ?? String(index)), position: position)
            line.description = try item.string("displayText", "name")
            line.quantity = item.decimalIfExact("numericValue", "quantity")
            line.unit = try item.string("standardUnit", "unit")
            line.notes = try item.string("notes")
            line.sourceKey = legacyID
            item.skip(backLink, "household")
            line.extras = item.extras
            context.report.extras(app: .forager, entity: entity, line.extras)
            result.append(line)
        }
        return result.sorted { $0.position < $1.position }
    }

    private func weeklyList(_ record: CoreDataRecord) throws {
        var (project, fields) = try startProject(record, kind: "grocery-list")
        project.notes = try fields.string("notes")
        if let completed = try fields.bool("isCompleted") { project.status = completed ? "completed" : "open" }
        created(try fields.date("dateCreated"), &project.createdAt, &project.modifiedAt, table: "project", marking: &project.synthesizedTimes)
        project.materials = try lines(fields.children(["items"], entity: "GroceryListItem", ownerKey: record.id, resolver: index),
                                      ownerID: project.id, entity: "GroceryListItem", backLink: "weeklyList")
        finish(&project, fields.extras, entity: record.entity)
    }

    private func groceryItem(_ record: CoreDataRecord) throws {
        var (project, fields) = try startProject(record, kind: "grocery-item")
        project.category = try fields.string("category")
        created(try fields.date("dateCreated"), &project.createdAt, &project.modifiedAt, table: "project", marking: &project.synthesizedTimes)
        finish(&project, fields.extras, entity: record.entity)
    }

    private func mealPlan(_ record: CoreDataRecord) throws {
        var (project, fields) = try startProject(record, kind: "meal-plan")
        project.startAt = try fields.date("startDate")
        project.completedAt = try fields.date("completedDate")
        if try fields.bool("isCompleted") == true { project.status = "completed" } else if try fields.bool("isActive") == true { project.status = "active" }
        created(try fields.date("createdDate"), &project.createdAt, &project.modifiedAt, table: "project", marking: &project.synthesizedTimes)
        for (position, child) in try fields.children(["plannedMeals"], entity: "PlannedMeal", ownerKey: record.id, resolver: index).enumerated() {
            var meal = child
            let legacyID = try meal.uuid("id")
            var step = ProjectStep(id: StableID.make("forager", project.id, "PlannedMeal", legacyID ?? String(position)), position: position)
            step.kind = try meal.string("mealType")
            step.title = step.kind
            step.dueAt = try meal.date("date")
            step.isCompleted = try meal.bool("isCompleted") ?? false
            step.completedAt = try meal.date("completedDate")
            step.notes = try meal.string("notes")
            step.sourceKey = legacyID
            meal.skip("mealPlan", "household")
            step.extras = meal.extras
            context.report.extras(app: .forager, entity: "PlannedMeal", step.extras)
            project.steps.append(step)
        }
        finish(&project, fields.extras, entity: record.entity)
    }

    /// List items of the older model, which had no lists: one list holds them all.
    private func looseListItems() throws {
        let loose = index.records(of: ["GroceryListItem"]).filter { !index.taken.contains($0.id) }
        guard !loose.isEmpty else { return }
        try context.record {
            let id = StableID.make("forager", index.storeKey, "GroceryListItem")
            try context.claim(id, table: "project", at: RecordLocation(file: index.reader.path, key: "GroceryListItem"))
            var project = Project(id: id, source: SourceRef(app: .forager, entity: "GroceryListItem", key: nil, file: index.fileName),
                                  kind: "grocery-list", createdAt: time, modifiedAt: time)
            project.title = "Grocery list"
            context.report.synthesized(table: "project", field: "title", from: "the store's list items, which belong to no list")
            synthesizedTimes(table: "project", marking: &project.synthesizedTimes)
            for record in loose { index.take(record) }
            project.materials = try lines(loose.map { index.fields($0, dates: context.dates) }, ownerID: id, entity: "GroceryListItem",
                                          backLink: "weeklyList")
            context.batch.projects.append(project)
        }
    }

    private func created(_ date: String?, _ created: inout String, _ modified: inout String, table: String, marking marks: inout [String: String]) {
        if let date {
            created = date
            modified = date
            context.synthesized([SynthesizedTimes.modifiedAt], table: table, from: "the creation date (Forager keeps no modification date)", marking: &marks)
        } else {
            synthesizedTimes(table: table, marking: &marks)
        }
    }

    private func synthesizedTimes(table: String, marking marks: inout [String: String]) {
        context.synthesized([SynthesizedTimes.createdAt, SynthesizedTimes.modifiedAt], table: table, from: "modification time of \(index.fileName)", marking: &marks)
    }

    private func finish(_ project: inout Project, _ extras: JSONObject, entity: String) {
        project.extras = extras
        context.report.extras(app: .forager, entity: entity, extras)
        context.batch.projects.append(project)
    }
}
