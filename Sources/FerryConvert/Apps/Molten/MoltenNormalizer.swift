import FerryCanonical
import FerryJSON
import FerryCoreData
import Foundation

/// Molten (glass art): plans become `glass` recipes with their steps and glass items, project
/// logs become `project` logs with a snapshot of the plan they were based on, and the glass
/// catalog becomes catalog items that material lines name by natural key. The same code reads
/// the store's rows (snake_case names) and the export's `plan.json` (camelCase names).
/// Format notes: `Formats/legacy/molten.md`.
struct MoltenNormalizer {
    let context: ConversionContext

    static let statuses = EnumNormalizer(known: ["in_progress", "completed", "sold", "gifted", "kept", "broken"])

    /// A plan: the export's `plan.json` or a `ProjectPlan` / `Project` row.
    func plan(_ fields: FieldReader, id: String, source: SourceRef, resolver: ChildResolver, ownerKey: String?,
              images files: [String: Data] = [:], time: String) throws -> Recipe {
        var fields = fields
        fields.location.key = id
        fields.skip("id")
        var recipe = Recipe(id: id, source: source, kind: "glass", createdAt: time, modifiedAt: time)
        recipe.title = try fields.string("title") ?? ""
        recipe.summary = try fields.string("summary")
        recipe.category = try fields.string("planType", "plan_type", "project_type", "projectType")
        recipe.difficulty = try fields.string("difficultyLevel", "difficulty_level")
        recipe.estimatedMinutes = try fields.double("estimatedTime", "estimated_time").map { $0 / 60 }
        recipe.isArchived = try fields.bool("isArchived", "is_archived") ?? false   // Molten's own field names
        recipe.lastUsedAt = try fields.date("lastUsedDate", "last_used_date")
        recipe.usageCount = try fields.integer("timesUsed", "times_used")
        try times(&fields, created: &recipe.createdAt, modified: &recipe.modifiedAt, table: "recipe", marking: &recipe.synthesizedTimes)
        recipe.parameters = try parameters(&fields)
        var extras = JSONObject()
        if var author = try fields.object("author") {
            recipe.author = author["name"]?.string
            author = JSONObject(author.members.filter { $0.key != "name" })
            if !author.isEmpty { extras["author"] = .object(author) }
        }
        recipe.materials = try materials(fields.children(["glassItems", "glass_items_data"], entity: "GlassItem", ownerKey: ownerKey, resolver: resolver),
                                         ownerID: id)
        recipe.references = try references(fields.children(["referenceUrls", "reference_urls_data"], entity: "ReferenceUrl",
                                                           ownerKey: ownerKey, resolver: resolver), ownerID: id)
        recipe.tags = try fields.names(["tags"], nameKeys: ["tag", "name"], entity: "Tag", ownerKey: ownerKey, resolver: resolver)
        let hero = try fields.uuid("heroImageId", "hero_image_id")
        recipe.attachments = try images(fields.children(["images"], entity: "Image", ownerKey: ownerKey, resolver: resolver),
                                        ownerID: id, heroID: hero, files: files)
        if let hero, !recipe.attachments.contains(where: { $0.id == hero }) { extras["heroImageId"] = .string(hero) }
        recipe.steps = try steps(fields.children(["steps"], entity: "Step", ownerKey: ownerKey, resolver: resolver), planID: id,
                                 resolver: resolver)
        for member in fields.extras { extras[member.key] = member.value }
        recipe.extras = extras
        context.report.extras(app: .molten, entity: source.entity, extras)
        return recipe
    }

    /// COE and price range, as parameters with units.
    private func parameters(_ fields: inout FieldReader) throws -> [RecipeParameter] {
        var result: [RecipeParameter] = []
        if let coe = try fields.string("coe"), !coe.isEmpty { result.append(RecipeParameter(name: "coe", text: coe, unit: "COE")) }
        var currency = try fields.string("price_currency", "priceCurrency")
        var minimum = try fields.double("proposed_price_min", "proposedPriceMin")
        var maximum = try fields.double("proposed_price_max", "proposedPriceMax")
        if let range = try fields.object("proposedPriceRange") {
            var price = fields.nested(range, field: "proposedPriceRange")
            currency = try price.string("currency") ?? currency
            minimum = try price.double("min") ?? minimum
            maximum = try price.double("max") ?? maximum
            if !price.extras.isEmpty { throw price.error(.invalidValue("unknown fields \(price.extras.keys.joined(separator: ", "))"), "") }
        }
        // Store rows default both prices to 0: no price was set.
        if currency != nil || (minimum ?? 0) != 0 || (maximum ?? 0) != 0 {
            if let minimum { result.append(RecipeParameter(name: "priceMin", value: minimum, unit: currency)) }
            if let maximum { result.append(RecipeParameter(name: "priceMax", value: maximum, unit: currency)) }
        }
        return result
    }

    private func steps(_ children: [FieldReader], planID: String, resolver: ChildResolver) throws -> [RecipeStep] {
        var steps: [RecipeStep] = []
        for (index, child) in children.enumerated() {
            var fields = child
            let legacyID = try fields.uuid("id")
            let position = Int(try fields.integer("order", "order_index", "orderIndex") ?? Int64(index))
            let id = legacyID ?? StableID.make("molten", planID, "step", String(position))
            var step = RecipeStep(id: id, position: position)
            step.title = try fields.string("title")
            step.instruction = try fields.string("description", "step_description", "stepDescription")
            step.estimatedMinutes = try fields.double("estimatedMinutes", "estimated_minutes")   // Molten's own field names
            step.imageID = try fields.uuid("imageId", "image_id")   // Molten's own field names
            step.sourceKey = legacyID
            step.materials = try materials(fields.children(["glassItemsNeeded", "glass_items_needed_data", "glassItems"], entity: "StepGlassItem",
                                                           ownerKey: legacyID, resolver: resolver), ownerID: id)
            fields.skip("plan", "planId")
            step.extras = fields.extras
            context.report.extras(app: .molten, entity: "ProjectStep", step.extras)
            steps.append(step)
        }
        return steps.sorted { $0.position < $1.position }
    }

    /// A project log: a `ProjectLog` / `Logbook` row.
    func log(_ fields: FieldReader, id: String, source: SourceRef, resolver: ChildResolver, ownerKey: String?, time: String) throws -> Log {
        var fields = fields
        fields.location.key = id
        fields.skip("id")
        var log = Log(id: id, source: source, kind: "project", createdAt: time, modifiedAt: time)
        log.title = try fields.string("title")
        log.note = try fields.string("notes")
        log.startedAt = try fields.date("project_date", "projectDate")
        if let hours = try fields.decimal("hours_spent", "hoursSpent"), let value = Double(hours), value != 0 {
            log.durationSeconds = value * 3600
        }
        log.outcome = try fields.string("status").map { Self.statuses.normalize($0, file: fields.location.file, field: "status", report: context.report) }
        try times(&fields, created: &log.createdAt, modified: &log.modifiedAt, table: "log", marking: &log.synthesizedTimes)
        if let plan = try fields.uuid("based_on_plan_id", "basedOnPlanId") {
            log.recipeID = plan
            // The log keeps no copy of the plan: the linker fills it from the plan and marks it reconstructed.
            log.snapshot = LogSnapshot(sourceType: "recipe", sourceID: plan)
        }
        log.materials = try materials(fields.children(["glassItems", "glass_items_data"], entity: "GlassItem", ownerKey: ownerKey, resolver: resolver),
                                      ownerID: id)
        log.tags = try fields.names(["tags"], nameKeys: ["tag", "name"], entity: "Tag", ownerKey: ownerKey, resolver: resolver)
        log.techniques = try fields.names(["techniques_used", "techniques", "techniquesUsed"], nameKeys: ["technique", "name"],
                                          entity: "Technique", ownerKey: ownerKey, resolver: resolver)
        let hero = try fields.uuid("hero_image_id", "heroImageId")
        log.attachments = try images(fields.children(["images"], entity: "Image", ownerKey: ownerKey, resolver: resolver),
                                     ownerID: id, heroID: hero, files: [:])
        var extras = fields.extras
        if let hero, !log.attachments.contains(where: { $0.id == hero }) { extras["hero_image_id"] = .string(hero) }
        log.extras = extras
        context.report.extras(app: .molten, entity: source.entity, extras)
        return log
    }

    /// Created and modified times; a missing modified time is the created one, and a missing
    /// created time the input file's time (reported).
    private func times(_ fields: inout FieldReader, created: inout String, modified: inout String, table: String,
                       marking marks: inout [String: String]) throws {
        let createdValue = try fields.date("dateCreated", "date_created")
        let modifiedValue = try fields.date("dateModified", "date_modified")
        let from = "modification time of \((fields.location.file as NSString).lastPathComponent)"
        if let createdValue { created = createdValue } else { context.synthesized([SynthesizedTimes.createdAt], table: table, from: from, marking: &marks) }
        if let value = modifiedValue ?? createdValue { modified = value } else { context.synthesized([SynthesizedTimes.modifiedAt], table: table, from: from, marking: &marks) }
    }

    /// `plan.json` outside an export: one plan object (or several, as an array or NDJSON).
    func convertPlanJSON(_ documents: JSONDocuments, images: [String: Data], file: String? = nil) throws {
        let time = try context.fileTime(documents.path)
        let name = file ?? (documents.path as NSString).lastPathComponent
        for (number, value) in documents.records {
            try context.record {
                let location = RecordLocation(file: documents.path, record: documents.records.count == 1 ? nil : number)
                guard let object = value.object else {
                    throw ConversionError(.wrongType(expected: "an object", found: value.shortDescription), at: location)
                }
                var fields = FieldReader(object, at: location, dates: context.dates)
                let id = try fields.requiredUUID("id")
                var here = location
                here.key = id
                try context.claim(id, table: "recipe", at: here)
                let recipe = try plan(FieldReader(object, at: here, dates: context.dates), id: id,
                                      source: SourceRef(app: .molten, entity: "ProjectPlan", key: id, file: name),
                                      resolver: InlineChildren(), ownerKey: nil, images: images, time: time)
                context.batch.recipes.append(recipe)
            }
        }
    }
}
