import FerryJSON

/// Records already in the target store, for links and snapshots that reach outside the batch.
public protocol ExistingRecords {
    func recipeExists(_ id: String) -> Bool
    func projectExists(_ id: String) -> Bool
    /// What a log made from the recipe now would snapshot: title, method, kind, parameters.
    func recipeSnapshot(_ id: String) -> LogSnapshot?
    func projectSnapshot(_ id: String) -> LogSnapshot?
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

    public func link(_ context: ConversionContext, existing: ExistingRecords) {
        let recipes = Dictionary(context.batch.recipes.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let projects = Dictionary(context.batch.projects.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let hasRecipe = { (id: String) in recipes[id] != nil || existing.recipeExists(id) }
        let hasProject = { (id: String) in projects[id] != nil || existing.projectExists(id) }

        for index in context.batch.projects.indices {
            var project = context.batch.projects[index]
            if let parent = project.parentID, !hasProject(parent) {
                dangle(&project.extras, "parent_id", parent, source: project.source, report: context.report)
                project.parentID = nil
            }
            if let recipe = project.recipeID, !hasRecipe(recipe) {
                dangle(&project.extras, "recipe_id", recipe, source: project.source, report: context.report)
                project.recipeID = nil
            }
            context.batch.projects[index] = project
        }
        for index in context.batch.logs.indices {
            var log = context.batch.logs[index]
            if let recipe = log.recipeID, !hasRecipe(recipe) {
                dangle(&log.extras, "recipe_id", recipe, source: log.source, report: context.report)
                log.recipeID = nil
            }
            if let project = log.projectID, !hasProject(project) {
                dangle(&log.extras, "project_id", project, source: log.source, report: context.report)
                log.projectID = nil
            }
            if var snapshot = log.snapshot, let sourceID = snapshot.sourceID {
                let current: LogSnapshot? = snapshot.sourceType == "recipe"
                    ? recipes[sourceID].map(Self.snapshot(of:)) ?? existing.recipeSnapshot(sourceID)
                    : projects[sourceID].map(Self.snapshot(of:)) ?? existing.projectSnapshot(sourceID)
                if let current {
                    let filled = fill(&snapshot, from: current)
                    if !filled.isEmpty {
                        snapshot.isReconstructed = true
                        snapshot.reconstructedFields = filled
                        context.report.reconstructed(log: log.id, from: "\(snapshot.sourceType) \(sourceID)", fields: filled)
                    }
                }
                if log.title == nil { log.title = snapshot.title }
                log.snapshot = snapshot
            }
            context.batch.logs[index] = log
        }
    }

    private func dangle(_ extras: inout JSONObject, _ field: String, _ id: String, source: SourceRef, report: ReportBuilder) {
        var dangling = extras["danglingReferences"]?.object ?? JSONObject()
        dangling[field] = .string(id)
        extras["danglingReferences"] = .object(dangling)
        report.dangling(file: source.file, record: "\(source.entity) \(source.key ?? "")", field: field, value: id,
                        action: "link left empty; the id is kept in extras.danglingReferences")
    }

    /// Copies into `snapshot` what it lacks; returns the names of the fields it filled.
    private func fill(_ snapshot: inout LogSnapshot, from current: LogSnapshot) -> [String] {
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
        var snapshot = LogSnapshot(sourceType: "recipe", sourceID: recipe.id)
        snapshot.title = recipe.title
        snapshot.method = recipe.method
        snapshot.kind = recipe.kind
        snapshot.parameters = BrewGuideNormalizer.snapshotParameters(recipe.parameters)
        return snapshot
    }

    public static func snapshot(of project: Project) -> LogSnapshot {
        var snapshot = LogSnapshot(sourceType: "project", sourceID: project.id)
        snapshot.title = project.title
        snapshot.kind = project.kind
        snapshot.method = project.category
        return snapshot
    }
}
