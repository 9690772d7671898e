import FerryCanonical
import FerryJSON
import Foundation
import GRDB

/// The column mapping of each canonical record; `Formats/canonical-schema.md` lists the columns.
extension BatchWriter {
    mutating func write(_ recipe: Recipe, db: Database) throws {
        try upsert("recipe", [
            "id": recipe.id, "source_app": recipe.source.app.rawValue, "source_entity": recipe.source.entity,
            "source_key": recipe.source.key, "source_file": recipe.source.file, "kind": recipe.kind, "method": recipe.method,
            "category": recipe.category, "title": recipe.title, "summary": recipe.summary, "instructions": recipe.instructions,
            "origin": recipe.origin, "is_starter": Self.flag(recipe.isStarter), "source_url": recipe.sourceURL,
            "author": recipe.author, "difficulty": recipe.difficulty, "servings": recipe.servings,
            "prep_minutes": recipe.prepMinutes, "cook_minutes": recipe.cookMinutes, "estimated_minutes": recipe.estimatedMinutes,
            "usage_count": recipe.usageCount, "last_used_at": recipe.lastUsedAt, "is_favorite": Self.flag(recipe.isFavorite),
            "is_archived": Self.flag(recipe.isArchived), "is_valid": Self.flag(recipe.isValid),
            "created_at": recipe.createdAt, "modified_at": recipe.modifiedAt, "deleted_at": recipe.deletedAt,
            "extras": Self.json(recipe.extras),
        ], db: db)
        for table in ["recipe_parameter", "recipe_step", "material_line", "recipe_tag", "reference_link", "attachment"] {
            try delete(table, where: "recipe_id", recipe.id, db: db)
        }
        for (position, parameter) in recipe.parameters.enumerated() {
            try upsert("recipe_parameter", [
                "recipe_id": recipe.id, "name": parameter.name, "position": position, "value": parameter.value,
                "text_value": parameter.text, "unit": parameter.unit,
            ], conflict: "recipe_id, name", db: db)
        }
        for step in recipe.steps {
            try upsert("recipe_step", [
                "id": step.id, "recipe_id": recipe.id, "position": step.position, "title": step.title,
                "instruction": step.instruction, "kind": step.kind, "duration_seconds": step.durationSeconds,
                "water_grams": step.waterGrams, "is_cumulative": Self.flag(step.isCumulative),
                "estimated_minutes": step.estimatedMinutes, "image_id": step.imageID, "source_key": step.sourceKey,
                "extras": Self.json(step.extras),
            ], db: db)
            try writeMaterials(step.materials, owner: "recipe_step_id", id: step.id, db: db)
        }
        try writeMaterials(recipe.materials, owner: "recipe_id", id: recipe.id, db: db)
        try writeNames(recipe.tags, kind: "tag", join: "recipe_tag", owner: "recipe_id", id: recipe.id, db: db)
        try writeReferences(recipe.references, owner: "recipe_id", id: recipe.id, db: db)
        try writeAttachments(recipe.attachments, owner: "recipe_id", id: recipe.id, db: db)
    }

    mutating func write(_ project: Project, db: Database) throws {
        try upsert("project", [
            "id": project.id, "parent_id": project.parentID, "recipe_id": project.recipeID,
            "source_app": project.source.app.rawValue, "source_entity": project.source.entity, "source_key": project.source.key,
            "source_file": project.source.file, "kind": project.kind, "title": project.title, "code": project.code,
            "category": project.category, "status": project.status, "position": project.position.map { Int64($0) },
            "start_at": project.startAt, "end_at": project.endAt, "due_at": project.dueAt, "due_time_minutes": project.dueTimeMinutes,
            "estimated_minutes": project.estimatedMinutes, "min_block_minutes": project.minBlockMinutes,
            "max_block_minutes": project.maxBlockMinutes, "difficulty": project.difficulty, "importance": project.importance,
            "is_locked": Self.flag(project.isLocked), "recurrence": project.recurrence.map { JSONWriter.string($0) },
            "grade_weight_percent": project.gradeWeightPercent, "grade_possible": project.gradePossible,
            "grade_earned": project.gradeEarned, "grade_percent": project.gradePercent, "grade_letter": project.gradeLetter,
            "notes": project.notes, "is_archived": Self.flag(project.isArchived), "completed_at": project.completedAt,
            "created_at": project.createdAt, "modified_at": project.modifiedAt, "deleted_at": project.deletedAt,
            "extras": Self.json(project.extras),
        ], db: db)
        for table in ["project_step", "material_line", "project_tag", "project_technique", "reference_link", "attachment"] {
            try delete(table, where: "project_id", project.id, db: db)
        }
        for step in project.steps {
            try upsert("project_step", [
                "id": step.id, "project_id": project.id, "position": step.position, "title": step.title, "kind": step.kind,
                "estimated_minutes": step.estimatedMinutes, "start_at": step.startAt, "due_at": step.dueAt,
                "is_completed": Self.flag(step.isCompleted), "completed_at": step.completedAt, "notes": step.notes,
                "source_key": step.sourceKey, "extras": Self.json(step.extras),
            ], db: db)
            try writeMaterials(step.materials, owner: "project_step_id", id: step.id, db: db)
        }
        try writeMaterials(project.materials, owner: "project_id", id: project.id, db: db)
        try writeNames(project.tags, kind: "tag", join: "project_tag", owner: "project_id", id: project.id, db: db)
        try writeNames(project.techniques, kind: "technique", join: "project_technique", owner: "project_id", id: project.id, db: db)
        try writeReferences(project.references, owner: "project_id", id: project.id, db: db)
        try writeAttachments(project.attachments, owner: "project_id", id: project.id, db: db)
    }

    mutating func write(_ log: Log, db: Database) throws {
        try upsert("log", [
            "id": log.id, "source_app": log.source.app.rawValue, "source_entity": log.source.entity, "source_key": log.source.key,
            "source_file": log.source.file, "kind": log.kind, "title": log.title, "started_at": log.startedAt,
            "ended_at": log.endedAt, "duration_seconds": log.durationSeconds, "rating": log.rating, "outcome": log.outcome,
            "note": log.note, "recipe_id": log.recipeID, "project_id": log.projectID, "created_at": log.createdAt,
            "modified_at": log.modifiedAt, "extras": Self.json(log.extras),
        ], db: db)
        for table in ["log_snapshot", "material_line", "log_tag", "log_technique", "attachment"] {
            try delete(table, where: "log_id", log.id, db: db)
        }
        if let snapshot = log.snapshot {
            try upsert("log_snapshot", [
                "log_id": log.id, "source_type": snapshot.sourceType, "source_id": snapshot.sourceID, "title": snapshot.title,
                "method": snapshot.method, "kind": snapshot.kind, "parameters": Self.json(snapshot.parameters),
                "is_reconstructed": Self.flag(snapshot.isReconstructed),
                "reconstructed_fields": JSONWriter.string(.array(snapshot.reconstructedFields.map { .string($0) })),
            ], conflict: "log_id", db: db)
        }
        try writeMaterials(log.materials, owner: "log_id", id: log.id, db: db)
        try writeNames(log.tags, kind: "tag", join: "log_tag", owner: "log_id", id: log.id, db: db)
        try writeNames(log.techniques, kind: "technique", join: "log_technique", owner: "log_id", id: log.id, db: db)
        try writeAttachments(log.attachments, owner: "log_id", id: log.id, db: db)
    }

    mutating func writeMaterials(_ lines: [MaterialLine], owner: String, id: String, db: Database) throws {
        for line in lines {
            try upsert("material_line", [
                "id": line.id, owner: id, "position": line.position, "catalog_key": line.catalogKey,
                "description": line.description, "quantity": line.quantity, "unit": line.unit, "notes": line.notes,
                "source_key": line.sourceKey, "extras": Self.json(line.extras),
            ], db: db)
        }
    }

    /// Tags and techniques: one row per distinct name (its id derived from the name), joined in order.
    mutating func writeNames(_ names: [String], kind: String, join: String, owner: String, id: String, db: Database) throws {
        var seen: Set<String> = []
        for name in names {
            let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty, seen.insert(trimmed).inserted else { continue }
            let nameID = StableID.make(kind, trimmed)
            try upsert(kind, ["id": nameID, "name": trimmed], db: db)
            try upsert(join, [owner: id, "\(kind)_id": nameID, "position": seen.count - 1], conflict: "\(owner), \(kind)_id", db: db)
        }
    }

    mutating func writeReferences(_ links: [ReferenceLink], owner: String, id: String, db: Database) throws {
        for link in links {
            try upsert("reference_link", [
                "id": link.id, owner: id, "position": link.position, "url": link.url, "title": link.title,
                "description": link.description, "added_at": link.addedAt, "source_key": link.sourceKey,
                "extras": Self.json(link.extras),
            ], db: db)
        }
    }

    mutating func writeAttachments(_ attachments: [Attachment], owner: String, id: String, db: Database) throws {
        for attachment in attachments {
            try upsert("attachment", [
                "id": attachment.id, owner: id, "position": attachment.position, "name": attachment.name,
                "media_type": attachment.mediaType, "local_url": attachment.localURL, "sha256": attachment.sha256,
                "byte_count": attachment.byteCount, "added_at": attachment.addedAt, "tag": attachment.tag,
                "source_key": attachment.sourceKey, "extras": Self.json(attachment.extras),
            ], db: db)
        }
    }
}
