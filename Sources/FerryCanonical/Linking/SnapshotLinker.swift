import FerryJSON

/// Records already in the target store, for links and snapshots that reach outside the batch.
public protocol ExistingRecords {
    // Throwing: a store that cannot be read must fail the conversion, never read as "no such record".
    func recipeExists(_ id: String) throws -> Bool
    func projectExists(_ id: String) throws -> Bool
    /// What a log made from the recipe now would snapshot: title, method, kind, parameters.
    func recipeSnapshot(_ id: String) throws -> LogSnapshot?
    func projectSnapshot(_ id: String) throws -> LogSnapshot?
}

/// No store yet: only the batch counts.
public struct NoExistingRecords: ExistingRecords {
    public init() {}
    public func recipeExists(_ id: String) -> Bool { false }
    public func projectExists(_ id: String) -> Bool { false }
    public func recipeSnapshot(_ id: String) -> LogSnapshot? { nil }
    public func projectSnapshot(_ id: String) -> LogSnapshot? { nil }
}

/// Makes a batch consistent before it is written: links to records that exist nowhere are
/// emptied (the id is kept in the row's extras under `danglingReferences`, and reported), and
/// log snapshots missing values are filled from the recipe or project they name, marked
/// reconstructed with the fields filled.
public struct SnapshotLinker {
    public init() {}

    /// A link to a record that was not found yet, when more of the conversion is still to come.
    public struct PendingLink: Sendable, Hashable {
        /// `log` or `project`.
        public var table: String
        public var id: String
        /// `recipe_id`, `project_id`, `parent_id`, or `snapshot` (a snapshot to fill from its source).
        public var field: String
        public var target: String
        /// `recipe` or `project`: what `target` names.
        public var targetTable: String
    }

    /// Links the batch. When `provisional` (more records of this conversion come later), links
    /// to records not found yet are emptied without a report and returned, and snapshots whose
    /// source is not found yet are returned too: the caller settles them at the end.
    @discardableResult
    public func link(_ batch: inout CanonicalBatch, report: ReportBuilder, existing: ExistingRecords, provisional: Bool = false) throws -> [PendingLink] {
        var pending: [PendingLink] = []
        let recipes = Dictionary(batch.recipes.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let projects = Dictionary(batch.projects.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let hasRecipe = { (id: String) throws in try recipes[id] != nil || existing.recipeExists(id) }
        let hasProject = { (id: String) throws in try projects[id] != nil || existing.projectExists(id) }

        // A link to a record not found is emptied, its id kept in extras. When more records come,
        // it is also returned, so that the caller restores it if its record comes later: most such
        // links never resolve, and emptying them now spares rewriting every row at the end.
        func resolve(_ link: inout String?, _ table: String, _ id: String, _ field: String, _ targetTable: String,
                     _ extras: inout JSONObject, _ source: SourceRef) throws {
            guard let target = link, !(try targetTable == "recipe" ? hasRecipe(target) : hasProject(target)) else { return }
            link = nil
            Self.keepDangling(&extras, field, target)
            if provisional {
                pending.append(PendingLink(table: table, id: id, field: field, target: target, targetTable: targetTable))
            } else {
                report.dangling(file: source.file, record: "\(source.entity) \(source.key ?? "")", field: field, value: target,
                                        action: Self.danglingAction)
            }
        }

        for index in batch.projects.indices {
            var project = batch.projects[index]
            try resolve(&project.parentID, "project", project.id, "parent_id", "project", &project.extras, project.source)
            try resolve(&project.recipeID, "project", project.id, "recipe_id", "recipe", &project.extras, project.source)
            batch.projects[index] = project
        }
        // Logs are many: each is changed where it lies in the batch, not copied out and back.
        func linkLog(_ log: inout Log) throws {
            try resolve(&log.recipeID, "log", log.id, "recipe_id", "recipe", &log.extras, log.source)
            try resolve(&log.projectID, "log", log.id, "project_id", "project", &log.extras, log.source)
            if let sourceID = log.snapshot?.sourceID, let sourceType = log.snapshot?.sourceType {
                let current: LogSnapshot? = sourceType == "recipe"
                    ? try recipes[sourceID].map(Self.snapshot(of:)) ?? existing.recipeSnapshot(sourceID)
                    : try projects[sourceID].map(Self.snapshot(of:)) ?? existing.projectSnapshot(sourceID)
                if let current {
                    // Filled where it lies: a copy taken out and put back cost a retain and a release of each field.
                    Self.reconstruct(&log.snapshot!, log: log.id, from: current, report: report)
                } else if provisional {
                    pending.append(PendingLink(table: "log", id: log.id, field: "snapshot", target: sourceID, targetTable: sourceType))
                }
                if log.title == nil { log.title = log.snapshot?.title }
            }
        }
        for index in batch.logs.indices {
            try linkLog(&batch.logs[index])
        }
        return pending
    }

    /// Fills what `snapshot` lacks from what its source holds now, marking it reconstructed.
    public static func reconstruct(_ snapshot: inout LogSnapshot, log: String, from current: LogSnapshot, report: ReportBuilder) {
        let filled = fill(&snapshot, from: current)
        guard !filled.isEmpty else { return }
        snapshot.isReconstructed = true
        snapshot.reconstructedFields = filled
        report.reconstructed(log: log, from: "\(snapshot.sourceType) \(snapshot.sourceID ?? "")", fields: filled)
    }

    public static let danglingAction = "link left empty; the id is kept in extras.danglingReferences"

    /// Keeps the id of a link that names no record in `extras.danglingReferences`.
    public static func keepDangling(_ extras: inout JSONObject, _ field: String, _ id: String) {
        var dangling = extras["danglingReferences"]?.object ?? JSONObject()
        dangling[field] = .string(id)
        extras["danglingReferences"] = .object(dangling)
    }

    /// Undoes ``keepDangling(_:_:_:)`` once the record came.
    public static func forgetDangling(_ extras: inout JSONObject, _ field: String) {
        guard var dangling = extras["danglingReferences"]?.object else { return }
        dangling[field] = Optional<JSONValue>.none
        if dangling.isEmpty {
            extras["danglingReferences"] = Optional<JSONValue>.none
        } else {
            extras["danglingReferences"] = .object(dangling)
        }
    }

    /// Copies into `snapshot` what it lacks; returns the names of the fields it filled.
    private static func fill(_ snapshot: inout LogSnapshot, from current: LogSnapshot) -> [String] {
        var filled: [String] = []
        if snapshot.title == nil, let title = current.title { snapshot.title = title; filled.append("title") }
        if snapshot.method == nil, let method = current.method { snapshot.method = method; filled.append("method") }
        if snapshot.kind == nil, let kind = current.kind { snapshot.kind = kind; filled.append("kind") }
        for member in current.parameters where snapshot.parameters[member.key] == nil {
            snapshot.parameters[member.key] = member.value
            filled.append("parameters." + member.key)
        }
        return filled
    }

    public static func snapshot(of recipe: Recipe) -> LogSnapshot {
        var snapshot = LogSnapshot(sourceType: "recipe", sourceID: recipe.id, title: recipe.title, method: recipe.method, kind: recipe.kind)
        snapshot.parameters = LogSnapshot.parameters(of: recipe.parameters)
        return snapshot
    }

    /// A project's category stands where a recipe's method does.
    public static func snapshot(of project: Project) -> LogSnapshot {
        LogSnapshot(sourceType: "project", sourceID: project.id, title: project.title, method: project.category, kind: project.kind)
    }
}
