import FerryCanonical
import FerryJSON

/// The `project` table (`Formats/canonical-schema.md`).
package enum ProjectTable {
    package static let table = "project"
    package static let id = SharedColumns.id
    package static let parentID = CanonicalColumn("parent_id", .text)
    package static let recipeID = CanonicalColumn("recipe_id", .text)
    package static let sourceApp = SharedColumns.sourceApp
    package static let sourceEntity = SharedColumns.sourceEntity
    package static let sourceKey = SharedColumns.sourceKey
    package static let sourceFile = SharedColumns.sourceFile
    package static let kind = CanonicalColumn("kind", .text, required: true)
    package static let title = CanonicalColumn("title", .text, required: true)
    package static let code = CanonicalColumn("code", .text)
    package static let category = CanonicalColumn("category", .text)
    package static let status = CanonicalColumn("status", .text)
    package static let position = CanonicalColumn("position", .integer)
    package static let startAt = CanonicalColumn("start_at", .text)
    package static let endAt = CanonicalColumn("end_at", .text)
    package static let dueAt = CanonicalColumn("due_at", .text)
    package static let dueTimeMinutes = CanonicalColumn("due_time_minutes", .integer)
    package static let estimatedMinutes = CanonicalColumn("estimated_minutes", .real)
    package static let minBlockMinutes = CanonicalColumn("min_block_minutes", .real)
    package static let maxBlockMinutes = CanonicalColumn("max_block_minutes", .real)
    package static let difficulty = CanonicalColumn("difficulty", .real)
    package static let importance = CanonicalColumn("importance", .real)
    package static let isLocked = CanonicalColumn("is_locked", .integer, required: true)
    package static let recurrence = CanonicalColumn("recurrence", .text, rule: .json)
    package static let gradeWeightPercent = CanonicalColumn("grade_weight_percent", .real)
    package static let gradePossible = CanonicalColumn("grade_possible", .real)
    package static let gradeEarned = CanonicalColumn("grade_earned", .real)
    package static let gradePercent = CanonicalColumn("grade_percent", .real)
    package static let gradeLetter = CanonicalColumn("grade_letter", .text)
    package static let notes = CanonicalColumn("notes", .text)
    package static let isArchived = CanonicalColumn("is_archived", .integer, required: true)
    package static let completedAt = CanonicalColumn("completed_at", .text)
    package static let createdAt = SharedColumns.createdAt
    package static let modifiedAt = SharedColumns.modifiedAt
    package static let deletedAt = CanonicalColumn("deleted_at", .text)
    package static let extras = SharedColumns.extras

    static let row = TableRow<Project>(table, [
        fill(id) { $0.add($1.id) },
        fill(parentID) { $0.add($1.parentID) },
        fill(recipeID) { $0.add($1.recipeID) },
        fill(sourceApp) { $0.add($1.source.app.rawValue) },
        fill(sourceEntity) { $0.add($1.source.entity) },
        fill(sourceKey) { $0.add($1.source.key) },
        fill(sourceFile) { $0.add($1.source.file) },
        fill(kind) { $0.add($1.kind) },
        fill(title) { $0.add($1.title) },
        fill(code) { $0.add($1.code) },
        fill(category) { $0.add($1.category) },
        fill(status) { $0.add($1.status) },
        fill(position) { $0.add($1.position) },
        fill(startAt) { $0.add($1.startAt) },
        fill(endAt) { $0.add($1.endAt) },
        fill(dueAt) { $0.add($1.dueAt) },
        fill(dueTimeMinutes) { $0.add($1.dueTimeMinutes) },
        fill(estimatedMinutes) { $0.add($1.estimatedMinutes) },
        fill(minBlockMinutes) { $0.add($1.minBlockMinutes) },
        fill(maxBlockMinutes) { $0.add($1.maxBlockMinutes) },
        fill(difficulty) { $0.add($1.difficulty) },
        fill(importance) { $0.add($1.importance) },
        fill(isLocked) { $0.add($1.isLocked) },
        fill(recurrence) { $0.add(json: $1.recurrence) },
        fill(gradeWeightPercent) { $0.add($1.gradeWeightPercent) },
        fill(gradePossible) { $0.add($1.gradePossible) },
        fill(gradeEarned) { $0.add($1.gradeEarned) },
        fill(gradePercent) { $0.add($1.gradePercent) },
        fill(gradeLetter) { $0.add($1.gradeLetter) },
        fill(notes) { $0.add($1.notes) },
        fill(isArchived) { $0.add($1.isArchived) },
        fill(completedAt) { $0.add($1.completedAt) },
        fill(createdAt) { $0.add($1.createdAt) },
        fill(modifiedAt) { $0.add($1.modifiedAt) },
        fill(deletedAt) { $0.add($1.deletedAt) },
        fill(extras) { $0.add(json: .object(SynthesizedTimes.extras($1.extras, marking: $1.synthesizedTimes))) },
    ])
}

/// `project_step`.
package enum ProjectStepTable {
    package static let table = "project_step"
    package static let id = SharedColumns.id
    package static let projectID = CanonicalColumn("project_id", .text, required: true)
    package static let position = CanonicalColumn("position", .integer, required: true)
    package static let title = CanonicalColumn("title", .text)
    package static let kind = CanonicalColumn("kind", .text)
    package static let estimatedMinutes = CanonicalColumn("estimated_minutes", .real)
    package static let startAt = CanonicalColumn("start_at", .text)
    package static let dueAt = CanonicalColumn("due_at", .text)
    package static let isCompleted = CanonicalColumn("is_completed", .integer, required: true)
    package static let completedAt = CanonicalColumn("completed_at", .text)
    package static let notes = CanonicalColumn("notes", .text)
    package static let sourceKey = SharedColumns.sourceKey
    package static let extras = SharedColumns.extras

    static let row = TableRow<Owned<ProjectStep>>(table, [
        fill(id) { $0.add($1.part.id) },
        fill(projectID) { $0.add($1.owner) },
        fill(position) { $0.add($1.part.position) },
        fill(title) { $0.add($1.part.title) },
        fill(kind) { $0.add($1.part.kind) },
        fill(estimatedMinutes) { $0.add($1.part.estimatedMinutes) },
        fill(startAt) { $0.add($1.part.startAt) },
        fill(dueAt) { $0.add($1.part.dueAt) },
        fill(isCompleted) { $0.add($1.part.isCompleted) },
        fill(completedAt) { $0.add($1.part.completedAt) },
        fill(notes) { $0.add($1.part.notes) },
        fill(sourceKey) { $0.add($1.part.sourceKey) },
        fill(extras) { $0.add(json: .object($1.part.extras)) },
    ])
}
