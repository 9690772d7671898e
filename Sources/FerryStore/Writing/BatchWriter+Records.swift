import FerryCanonical
import FerryJSON
import Foundation
import GRDB

/// The column mapping of each canonical record; `Formats/canonical-schema.md` lists the columns.
extension BatchWriter {
    mutating func write(_ recipe: Recipe, db: Database) throws {
        begin(recipe.source)
        for table in ["recipe_parameter", "recipe_step", "material_line", "recipe_tag", "reference_link", "attachment"] {
            try delete(table, where: "recipe_id", recipe.id, db: db)
        }
        add(RowShapes.recipe) { row in
            row.add("id", recipe.id)
            row.add("source_app", recipe.source.app.rawValue)
            row.add("source_entity", recipe.source.entity)
            row.add("source_key", recipe.source.key)
            row.add("source_file", recipe.source.file)
            row.add("kind", recipe.kind)
            row.add("method", recipe.method)
            row.add("category", recipe.category)
            row.add("title", recipe.title)
            row.add("summary", recipe.summary)
            row.add("instructions", recipe.instructions)
            row.add("origin", recipe.origin)
            row.add("is_starter", recipe.isStarter)
            row.add("source_url", recipe.sourceURL)
            row.add("author", recipe.author)
            row.add("difficulty", recipe.difficulty)
            row.add("servings", recipe.servings)
            row.add("prep_minutes", recipe.prepMinutes)
            row.add("cook_minutes", recipe.cookMinutes)
            row.add("estimated_minutes", recipe.estimatedMinutes)
            row.add("usage_count", recipe.usageCount)
            row.add("last_used_at", recipe.lastUsedAt)
            row.add("is_favorite", recipe.isFavorite)
            row.add("is_archived", recipe.isArchived)
            row.add("is_valid", recipe.isValid)
            row.add("created_at", recipe.createdAt)
            row.add("modified_at", recipe.modifiedAt)
            row.add("deleted_at", recipe.deletedAt)
            row.add("extras", json: .object(SynthesizedTimes.extras(recipe.extras, marking: recipe.synthesizedTimes)))
        }
        for (position, parameter) in recipe.parameters.enumerated() {
            add(RowShapes.recipeParameter) { row in
                row.add("recipe_id", recipe.id)
                row.add("name", parameter.name)
                row.add("position", position)
                row.add("value", parameter.value)
                row.add("text_value", parameter.text)
                row.add("unit", parameter.unit)
            }
        }
        for step in recipe.steps {
            add(RowShapes.recipeStep) { row in
                row.add("id", step.id)
                row.add("recipe_id", recipe.id)
                row.add("position", step.position)
                row.add("title", step.title)
                row.add("instruction", step.instruction)
                row.add("kind", step.kind)
                row.add("duration_seconds", step.durationSeconds)
                row.add("water_grams", step.waterGrams)
                row.add("is_cumulative", step.isCumulative)
                row.add("estimated_minutes", step.estimatedMinutes)
                row.add("image_id", step.imageID)
                row.add("source_key", step.sourceKey)
                row.add("extras", json: .object(step.extras))
            }
            addMaterials(step.materials, owner: "recipe_step_id", id: step.id)
        }
        addMaterials(recipe.materials, owner: "recipe_id", id: recipe.id)
        addNames(recipe.tags, kind: "tag", join: "recipe_tag", owner: "recipe_id", id: recipe.id)
        addReferences(recipe.references, owner: "recipe_id", id: recipe.id)
        addAttachments(recipe.attachments, owner: "recipe_id", id: recipe.id)
        try play(db: db)
    }

    mutating func write(_ project: Project, db: Database) throws {
        begin(project.source)
        for table in ["project_step", "material_line", "project_tag", "project_technique", "reference_link", "attachment"] {
            try delete(table, where: "project_id", project.id, db: db)
        }
        add(RowShapes.project) { row in
            row.add("id", project.id)
            row.add("parent_id", project.parentID)
            row.add("recipe_id", project.recipeID)
            row.add("source_app", project.source.app.rawValue)
            row.add("source_entity", project.source.entity)
            row.add("source_key", project.source.key)
            row.add("source_file", project.source.file)
            row.add("kind", project.kind)
            row.add("title", project.title)
            row.add("code", project.code)
            row.add("category", project.category)
            row.add("status", project.status)
            row.add("position", project.position)
            row.add("start_at", project.startAt)
            row.add("end_at", project.endAt)
            row.add("due_at", project.dueAt)
            row.add("due_time_minutes", project.dueTimeMinutes)
            row.add("estimated_minutes", project.estimatedMinutes)
            row.add("min_block_minutes", project.minBlockMinutes)
            row.add("max_block_minutes", project.maxBlockMinutes)
            row.add("difficulty", project.difficulty)
            row.add("importance", project.importance)
            row.add("is_locked", project.isLocked)
            row.add("recurrence", json: project.recurrence)
            row.add("grade_weight_percent", project.gradeWeightPercent)
            row.add("grade_possible", project.gradePossible)
            row.add("grade_earned", project.gradeEarned)
            row.add("grade_percent", project.gradePercent)
            row.add("grade_letter", project.gradeLetter)
            row.add("notes", project.notes)
            row.add("is_archived", project.isArchived)
            row.add("completed_at", project.completedAt)
            row.add("created_at", project.createdAt)
            row.add("modified_at", project.modifiedAt)
            row.add("deleted_at", project.deletedAt)
            row.add("extras", json: .object(SynthesizedTimes.extras(project.extras, marking: project.synthesizedTimes)))
        }
        for step in project.steps {
            add(RowShapes.projectStep) { row in
                row.add("id", step.id)
                row.add("project_id", project.id)
                row.add("position", step.position)
                row.add("title", step.title)
                row.add("kind", step.kind)
                row.add("estimated_minutes", step.estimatedMinutes)
                row.add("start_at", step.startAt)
                row.add("due_at", step.dueAt)
                row.add("is_completed", step.isCompleted)
                row.add("completed_at", step.completedAt)
                row.add("notes", step.notes)
                row.add("source_key", step.sourceKey)
                row.add("extras", json: .object(step.extras))
            }
            addMaterials(step.materials, owner: "project_step_id", id: step.id)
        }
        addMaterials(project.materials, owner: "project_id", id: project.id)
        addNames(project.tags, kind: "tag", join: "project_tag", owner: "project_id", id: project.id)
        addNames(project.techniques, kind: "technique", join: "project_technique", owner: "project_id", id: project.id)
        addReferences(project.references, owner: "project_id", id: project.id)
        addAttachments(project.attachments, owner: "project_id", id: project.id)
        try play(db: db)
    }

    mutating func write(_ log: Log, db: Database) throws {
        for table in ["log_snapshot", "material_line", "log_tag", "log_technique", "attachment"] {
            try delete(table, where: "log_id", log.id, db: db)
        }
        take(log)
        try play(db: db)
    }

    /// Takes a log's rows onto the tape (a new store's: no old rows to delete first).
    mutating func take(_ log: Log) {
        withUnsafePointer(to: log) { take($0) }
    }

    /// As ``take(_:)-(Log)``, the log read where it lies: a log handed over by value was copied
    /// first, a retain and a release of each of its strings (``LogRowTaker`` takes millions).
    mutating func take(_ log: UnsafePointer<Log>) {
        begin(log.pointee.source)
        add(fresh ? RowShapes.newLog : RowShapes.log, for: log) { row, log in
            row.add("id", log.pointee.id)
            row.add("source_app", log.pointee.source.app.rawValue)
            row.add("source_entity", log.pointee.source.entity)
            row.add("source_key", log.pointee.source.key)
            row.add("source_file", log.pointee.source.file)
            row.add("kind", log.pointee.kind)
            row.add("title", log.pointee.title)
            row.add("started_at", log.pointee.startedAt)
            row.add("ended_at", log.pointee.endedAt)
            row.add("duration_seconds", log.pointee.durationSeconds)
            row.add("rating", log.pointee.rating)
            row.add("outcome", log.pointee.outcome)
            row.add("note", log.pointee.note)
            row.add("recipe_id", log.pointee.recipeID)
            row.add("project_id", log.pointee.projectID)
            row.add("created_at", log.pointee.createdAt)
            row.add("modified_at", log.pointee.modifiedAt)
            row.add("extras", json: .object(SynthesizedTimes.extras(log.pointee.extras, marking: log.pointee.synthesizedTimes)))
        }
        if log.pointee.snapshot != nil {
            add(fresh ? RowShapes.newLogSnapshot : RowShapes.logSnapshot, for: log) { row, log in
                let snapshot = log.pointee.snapshot.unsafelyUnwrapped
                row.add("log_id", log.pointee.id)
                row.add("source_type", snapshot.sourceType)
                row.add("source_id", snapshot.sourceID)
                row.add("title", snapshot.title)
                row.add("method", snapshot.method)
                row.add("kind", snapshot.kind)
                row.add("parameters", json: .object(snapshot.parameters))
                row.add("is_reconstructed", snapshot.isReconstructed)
                row.add("reconstructed_fields", json: .array(snapshot.reconstructedFields.map { .string($0) }))
            }
        }
        addMaterials(log.pointee.materials, owner: "log_id", id: log.pointee.id)
        addNames(log.pointee.tags, kind: "tag", join: "log_tag", owner: "log_id", id: log.pointee.id)
        addNames(log.pointee.techniques, kind: "technique", join: "log_technique", owner: "log_id", id: log.pointee.id)
        addAttachments(log.pointee.attachments, owner: "log_id", id: log.pointee.id)
    }

    mutating func addMaterials(_ lines: [MaterialLine], owner: String, id: String) {
        for line in lines {
            add(RowShapes.materialLine[owner]!) { row in
                row.add("id", line.id)
                row.add(owner, id)
                row.add("position", line.position)
                row.add("catalog_key", line.catalogKey)
                row.add("description", line.description)
                row.add("quantity", line.quantity)
                row.add("unit", line.unit)
                row.add("notes", line.notes)
                row.add("source_key", line.sourceKey)
                row.add("extras", json: .object(line.extras))
            }
        }
    }

    /// Tags and techniques: one row per distinct name (its id derived from the name), joined in order.
    mutating func addNames(_ names: [String], kind: String, join: String, owner: String, id: String) {
        var seen: Set<String> = []
        for name in names {
            let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty, seen.insert(trimmed).inserted else { continue }
            let nameID = StableID.make(kind, trimmed)
            add(RowShapes.names[kind]!) { row in
                row.add("id", nameID)
                row.add("name", trimmed)
            }
            add(RowShapes.nameJoins[join]!) { row in
                row.add(owner, id)
                row.add(kind == "tag" ? "tag_id" : "technique_id", nameID)
                row.add("position", seen.count - 1)
            }
        }
    }

    mutating func addReferences(_ links: [ReferenceLink], owner: String, id: String) {
        for link in links {
            add(RowShapes.referenceLink[owner]!) { row in
                row.add("id", link.id)
                row.add(owner, id)
                row.add("position", link.position)
                row.add("url", link.url)
                row.add("title", link.title)
                row.add("description", link.description)
                row.add("added_at", link.addedAt)
                row.add("source_key", link.sourceKey)
                row.add("extras", json: .object(link.extras))
            }
        }
    }

    mutating func addAttachments(_ attachments: [Attachment], owner: String, id: String) {
        for attachment in attachments {
            add(RowShapes.attachment[owner]!) { row in
                row.add("id", attachment.id)
                row.add(owner, id)
                row.add("position", attachment.position)
                row.add("name", attachment.name)
                row.add("media_type", attachment.mediaType)
                row.add("local_url", attachment.localURL)
                row.add("sha256", attachment.sha256)
                row.add("byte_count", attachment.byteCount)
                row.add("added_at", attachment.addedAt)
                row.add("tag", attachment.tag)
                row.add("source_key", attachment.sourceKey)
                row.add("extras", json: .object(attachment.extras))
            }
        }
    }
}
