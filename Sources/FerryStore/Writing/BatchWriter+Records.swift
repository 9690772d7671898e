import FerryCanonical
import FerryJSON
import Foundation
import GRDB

/// Each canonical record's rows, as the tables' declarations (`Schema/Tables/`) fill them.
extension BatchWriter {
    /// The rows a record's own rows own, by table and owner column: replaced whole when the
    /// record is written again.
    private static let recipeParts = [
        (RecipeParameterTable.row.table, RecipeParameterTable.recipeID), (RecipeStepTable.row.table, RecipeStepTable.recipeID),
        (MaterialLineTable.table, MaterialLineTable.recipeID), (NameTables.recipeTag.table, NameTables.recipeTag.owner),
        (ReferenceLinkTable.table, ReferenceLinkTable.recipeID), (AttachmentTable.table, AttachmentTable.recipeID),
    ]
    private static let projectParts = [
        (ProjectStepTable.row.table, ProjectStepTable.projectID), (MaterialLineTable.table, MaterialLineTable.projectID),
        (NameTables.projectTag.table, NameTables.projectTag.owner), (NameTables.projectTechnique.table, NameTables.projectTechnique.owner),
        (ReferenceLinkTable.table, ReferenceLinkTable.projectID), (AttachmentTable.table, AttachmentTable.projectID),
    ]
    /// A log's snapshot is upserted in place by its log's id rather than deleted and inserted
    /// again (a changed log dirtied four more pages of the file); only a log that has no snapshot
    /// any more has it deleted.
    private static let logParts = [
        (MaterialLineTable.table, MaterialLineTable.logID),
        (NameTables.logTag.table, NameTables.logTag.owner), (NameTables.logTechnique.table, NameTables.logTechnique.owner),
        (AttachmentTable.table, AttachmentTable.logID),
    ]
    private static let logPartsAndSnapshot = logParts + [(LogSnapshotTable.row.table, LogSnapshotTable.logID)]

    /// - Parameter again: into a store that was empty, the recipe was written before in this
    ///   session; else it is new there, and goes in by a plain INSERT (its id was claimed).
    mutating func write(_ recipe: Recipe, again: Bool = false, db: Database) throws {
        let mark = tapeMark
        begin(recipe.source)
        add(fresh && !again ? RowShapes.newRecipe : RowShapes.recipe, recipe)
        for (position, parameter) in recipe.parameters.enumerated() {
            add(RowShapes.recipeParameter, .init(recipe: recipe.id, position: position, parameter: parameter))
        }
        for step in recipe.steps {
            add(fresh ? RowShapes.newRecipeStep : RowShapes.recipeStep, Owned(owner: recipe.id, part: step))
            addMaterials(step.materials, owner: MaterialLineTable.recipeStepID, id: step.id)
        }
        addMaterials(recipe.materials, owner: MaterialLineTable.recipeID, id: recipe.id)
        addNames(recipe.tags, NameTables.recipeTag, id: recipe.id)
        addReferences(recipe.references, owner: ReferenceLinkTable.recipeID, id: recipe.id)
        addAttachments(recipe.attachments, owner: AttachmentTable.recipeID, id: recipe.id)
        if again { try deleteParts(ofRecipe: recipe.id, db: db) }
        guard try judge(.recipe, id: recipe.id, since: mark, parts: Self.recipeParts, again: again, db: db) else { return }
        try play(db: db)
    }

    /// The parts a recipe written before in this session got then, into a store that was empty:
    /// they go, as a store that holds the recipe has them deleted when it is written again. Foreign
    /// keys are off in such a session, so what deleting its steps would cascade to goes first.
    private func deleteParts(ofRecipe id: String, db: Database) throws {
        try db.cachedStatement(sql: """
            DELETE FROM \(MaterialLineTable.table) WHERE \(MaterialLineTable.recipeStepID.name) IN
              (SELECT \(RecipeStepTable.id.name) FROM \(RecipeStepTable.table) WHERE \(RecipeStepTable.recipeID.name) = ?)
            """).execute(arguments: [id])
        for (part, owner) in Self.recipeParts { try deleteRows(part, where: owner, id, db: db) }
    }

    mutating func write(_ project: Project, db: Database) throws {
        let mark = tapeMark
        begin(project.source)
        add(RowShapes.project, project)
        for step in project.steps {
            add(RowShapes.projectStep, Owned(owner: project.id, part: step))
            addMaterials(step.materials, owner: MaterialLineTable.projectStepID, id: step.id)
        }
        addMaterials(project.materials, owner: MaterialLineTable.projectID, id: project.id)
        addNames(project.tags, NameTables.projectTag, id: project.id)
        addNames(project.techniques, NameTables.projectTechnique, id: project.id)
        addReferences(project.references, owner: ReferenceLinkTable.projectID, id: project.id)
        addAttachments(project.attachments, owner: AttachmentTable.projectID, id: project.id)
        guard try judge(.project, id: project.id, since: mark, parts: Self.projectParts, db: db) else { return }
        try play(db: db)
    }

    /// - Parameter stored: what the store holds of the log, when it was looked up already
    ///   (``RecordDigests/storedInKeyOrder(_:ids:db:)``).
    mutating func write(_ log: Log, stored: RecordDigests.Stored? = nil, db: Database) throws {
        let written = try withUnsafePointer(to: log) { log in
            let mark = tapeMark
            takeRows(log)
            let parts = log.pointee.snapshot == nil ? Self.logPartsAndSnapshot : Self.logParts
            return try judge(.log, id: log.pointee.id, since: mark, parts: parts, stored: stored, db: db)
        }
        if written { try play(db: db) }
    }

    /// Takes a log's rows onto the tape, and its digest's, in a new store (no old rows to compare
    /// or delete), the log read where it lies: a log handed over by value was copied first, a
    /// retain and a release of each of its strings (``LogRowTaker`` takes millions).
    mutating func take(_ log: UnsafePointer<Log>) {
        assert(fresh, "rows are taken apart only into a store that was empty")
        let mark = tapeMark
        takeRows(log)
        keepInFresh(.log, id: log.pointee.id, since: mark)
    }

    private mutating func takeRows(_ log: UnsafePointer<Log>) {
        begin(log.pointee.source)
        add(fresh ? RowShapes.newLog : RowShapes.log, log)
        if log.pointee.snapshot != nil { add(fresh ? RowShapes.newLogSnapshot : RowShapes.logSnapshot, log) }
        addMaterials(log.pointee.materials, owner: MaterialLineTable.logID, id: log.pointee.id)
        addNames(log.pointee.tags, NameTables.logTag, id: log.pointee.id)
        addNames(log.pointee.techniques, NameTables.logTechnique, id: log.pointee.id)
        addAttachments(log.pointee.attachments, owner: AttachmentTable.logID, id: log.pointee.id)
    }

    mutating func addMaterials(_ lines: [MaterialLine], owner: CanonicalColumn, id: String) {
        guard !lines.isEmpty, let shape = (fresh ? RowShapes.newMaterialLine : RowShapes.materialLine)[owner.name] else { return }
        for line in lines { add(shape, Owned(owner: id, part: line)) }
    }

    /// Tags and techniques: one row per distinct name (its id derived from the name), joined in order.
    mutating func addNames(_ names: [String], _ join: NameTables.Join, id: String) {
        let (kind, shape) = join.kind == "tag" ? ("tag", RowShapes.tag) : ("technique", RowShapes.technique)
        guard !names.isEmpty, let joins = fresh && join.table == NameTables.recipeTag.table ? RowShapes.newRecipeTag : RowShapes.nameJoins[join.table] else { return }
        var seen: Set<String> = []
        for name in names {
            let trimmed = name.trimmedWhitespace
            guard !trimmed.isEmpty, seen.insert(trimmed).inserted else { continue }
            let nameID = StableID.make(kind, trimmed)
            add(shape, (nameID, trimmed))
            add(joins, (id, nameID, seen.count - 1))
        }
    }

    mutating func addReferences(_ links: [ReferenceLink], owner: CanonicalColumn, id: String) {
        guard !links.isEmpty, let shape = RowShapes.referenceLink[owner.name] else { return }
        for link in links { add(shape, Owned(owner: id, part: link)) }
    }

    mutating func addAttachments(_ attachments: [Attachment], owner: CanonicalColumn, id: String) {
        guard !attachments.isEmpty, let shape = RowShapes.attachment[owner.name] else { return }
        for attachment in attachments { add(shape, Owned(owner: id, part: attachment)) }
    }
}
