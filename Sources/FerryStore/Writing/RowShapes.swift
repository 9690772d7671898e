/// The upsert of every canonical table, in the column order the writers bind; the columns are
/// listed in `Formats/canonical-schema.md`.
enum RowShapes {
    static let recipe = UpsertShape("recipe", [
        "id", "source_app", "source_entity", "source_key", "source_file", "kind", "method", "category", "title", "summary",
        "instructions", "origin", "is_starter", "source_url", "author", "difficulty", "servings", "prep_minutes", "cook_minutes",
        "estimated_minutes", "usage_count", "last_used_at", "is_favorite", "is_archived", "is_valid", "created_at", "modified_at",
        "deleted_at", "extras",
    ])
    static let recipeParameter = UpsertShape("recipe_parameter", ["recipe_id", "name", "position", "value", "text_value", "unit"],
                                             conflict: ["recipe_id", "name"])
    static let recipeStep = UpsertShape("recipe_step", [
        "id", "recipe_id", "position", "title", "instruction", "kind", "duration_seconds", "water_grams", "is_cumulative",
        "estimated_minutes", "image_id", "source_key", "extras",
    ])
    static let project = UpsertShape("project", [
        "id", "parent_id", "recipe_id", "source_app", "source_entity", "source_key", "source_file", "kind", "title", "code",
        "category", "status", "position", "start_at", "end_at", "due_at", "due_time_minutes", "estimated_minutes",
        "min_block_minutes", "max_block_minutes", "difficulty", "importance", "is_locked", "recurrence", "grade_weight_percent",
        "grade_possible", "grade_earned", "grade_percent", "grade_letter", "notes", "is_archived", "completed_at", "created_at",
        "modified_at", "deleted_at", "extras",
    ])
    static let projectStep = UpsertShape("project_step", [
        "id", "project_id", "position", "title", "kind", "estimated_minutes", "start_at", "due_at", "is_completed",
        "completed_at", "notes", "source_key", "extras",
    ])
    static let log = UpsertShape("log", [
        "id", "source_app", "source_entity", "source_key", "source_file", "kind", "title", "started_at", "ended_at",
        "duration_seconds", "rating", "outcome", "note", "recipe_id", "project_id", "created_at", "modified_at", "extras",
    ])
    static let logSnapshot = UpsertShape("log_snapshot", [
        "log_id", "source_type", "source_id", "title", "method", "kind", "parameters", "is_reconstructed", "reconstructed_fields",
    ], conflict: ["log_id"])
    /// Logs and their snapshots into a store that was empty: their ids were claimed by the
    /// conversion (a duplicate was refused before it came here), so a plain INSERT does, which
    /// spares SQLite the statement journal an upsert opens for every row.
    static let newLog = UpsertShape(log.table, log.columns, conflict: nil)
    static let newLogSnapshot = UpsertShape(logSnapshot.table, logSnapshot.columns, conflict: nil)

    /// Material lines, attachments and reference links belong to one of several owners; one
    /// shape per owner column.
    static let materialLine = perOwner(["recipe_id", "recipe_step_id", "project_id", "project_step_id", "log_id"]) { owner in
        UpsertShape("material_line", ["id", owner, "position", "catalog_key", "description", "quantity", "unit", "notes",
                                      "source_key", "extras"])
    }
    static let referenceLink = perOwner(["recipe_id", "project_id"]) { owner in
        UpsertShape("reference_link", ["id", owner, "position", "url", "title", "description", "added_at", "source_key", "extras"])
    }
    static let attachment = perOwner(["recipe_id", "project_id", "log_id"]) { owner in
        UpsertShape("attachment", ["id", owner, "position", "name", "media_type", "local_url", "sha256", "byte_count", "added_at",
                                   "tag", "source_key", "extras"])
    }

    /// Tags and techniques by name, and the tables that join them to their owners.
    static let names = ["tag": UpsertShape("tag", ["id", "name"], shared: true),
                        "technique": UpsertShape("technique", ["id", "name"], shared: true)]
    static let nameJoins = Dictionary(uniqueKeysWithValues: [
        ("recipe_tag", "recipe_id", "tag_id"), ("project_tag", "project_id", "tag_id"), ("log_tag", "log_id", "tag_id"),
        ("project_technique", "project_id", "technique_id"), ("log_technique", "log_id", "technique_id"),
    ].map { join, owner, name in (join, UpsertShape(join, [owner, name, "position"], conflict: [owner, name])) })

    static let catalogItem = UpsertShape("catalog_item", ["natural_key", "source_app", "source_file", "name", "manufacturer", "code", "extras"],
                                         conflict: ["natural_key"], shared: true)
    static let attachmentContent = UpsertShape("attachment_content", ["sha256", "data"], conflict: ["sha256"], shared: true)
    static let importRun = UpsertShape("import_run", ["id", "ferry_version", "inputs", "counts"], shared: true)

    private static func perOwner(_ owners: [String], _ make: (String) -> UpsertShape) -> [String: UpsertShape] {
        Dictionary(uniqueKeysWithValues: owners.map { ($0, make($0)) })
    }
}
