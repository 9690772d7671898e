import FerryCanonical
import FerryCoreData
import FerryModel
import FerryStore
import Foundation

/// Molten's data into Molten's model 9, where ordered child entities replace model 5's
/// Transformable blobs (a migration Core Data cannot infer): plans become `Project` with
/// `ProjectGlassItem`, `ProjectReferenceUrl` and `ProjectStep` (with `ProjectStepGlassItem`)
/// rows ordered by their index; project logs become `Logbook` with `LogbookGlassItem` and
/// `ProjectTechnique` rows; images `ProjectImage`; tags `UserTags` rows naming their owner.
/// The canonical records hold the blobs' contents already decoded and ordered, so the
/// mapping reads those, whichever form the input had (model 5 store, model 6, `.molten` export).
struct MoltenModelMapping: AppModelMapping {
    private typealias Plan = RecipeTable
    private typealias Step = RecipeStepTable
    private typealias Parameter = RecipeParameterTable
    private typealias Material = MaterialLineTable
    private typealias Link = ReferenceLinkTable
    private typealias File = AttachmentTable
    let app = "Molten (model 9)"
    let entities = ["Project", "ProjectGlassItem", "ProjectStep", "ProjectStepGlassItem", "Logbook", "LogbookGlassItem", "ProjectTechnique", "UserTags"]

    // Objects are made with absentIsNull: a migration carries a store's null over; defaults are for new objects.
    private typealias Key = (entity: String, primaryKey: Int64)

    func write(_ rows: CanonicalRows, model: DataModel, into writer: CoreDataStoreWriter, notMapped: inout NotMappedTally,
               attempts: RecordAttempts) throws -> [String: Int] {
        var written: [String: Key] = [:]
        var counts: [String: Int] = [:]
        var tally = notMapped
        defer { notMapped = tally }
        /// Writes the object; remembers its key by its row's id when others may name it.
        func insert(_ object: MappedObject, toOne: [String: Key] = [:], named: Bool = true) throws {
            let values = try object.completedValues()
            let key = try writer.insert(object.entity.name, attributes: values, toOne: toOne)
            for name in object.leftovers { tally.add(name, reason: "no attribute of \(object.entity.name) holds it") }
            if named, let id = object.row.text(SharedColumns.id) { written[id] = (object.entity.name, key) }
            counts[object.entity.name, default: 0] += 1
        }
        /// The first of `owners` (column, relationship, entity) the row names a written object through.
        func owner(of row: CanonicalRows.Row, _ owners: [(column: CanonicalColumn, relationship: String, entity: String)]) -> (relationship: String, key: Key)? {
            for candidate in owners {
                if let id = row.text(candidate.column), let key = written[id], key.entity == candidate.entity { return (candidate.relationship, key) }
            }
            return nil
        }

        // Plans, with their price and COE parameters folded back into attributes.
        var parameters: [String: [CanonicalRows.Row]] = [:]
        try rows.each(Parameter.table) { row in if let recipe = row.text(Parameter.recipeID) { parameters[recipe, default: []].append(row) } }
        var heroes: [String: String] = [:]
        try rows.each(File.table, where: File.tag, isOneOf: ["hero"]) { row in
            if let owner = row.text(File.recipeID) ?? row.text(File.logID), let id = row.text(File.id) { heroes[owner] = id }
        }
        let molten = SourceApp.molten.rawValue
        try rows.each(Plan.table) { row in
            try attempts.run(row) {
                guard row.text(Plan.sourceApp) == molten else { return tally.add("recipe of \(row.text(Plan.sourceApp) ?? "?")", reason: "not Molten's") }
                var object = try MappedObject(row, as: "Project", in: model, absentIsNull: true)
                try plan(&object, parameters: parameters[row.text(Plan.id) ?? ""] ?? [], hero: heroes[row.text(Plan.id) ?? ""])
                try insert(object)
            }
        }
        try rows.each(LogTable.table) { row in
            try attempts.run(row) {
                guard row.text(LogTable.sourceApp) == molten else { return tally.add("log of \(row.text(LogTable.sourceApp) ?? "?")", reason: "not Molten's") }
                var object = try MappedObject(row, as: "Logbook", in: model, absentIsNull: true)
                try log(&object, hero: heroes[row.text(LogTable.id) ?? ""])
                try insert(object)
            }
        }
        try rows.each(Step.table) { row in
            try attempts.run(row) {
                var object = try MappedObject(row, as: "ProjectStep", in: model, absentIsNull: true)
                guard let plan = owner(of: row, [(Step.recipeID, "plan", "Project")]) else { return tally.add(Step.table, reason: "its plan is not Molten's") }
                object.use(Step.recipeID)
                try object.columns([Step.id: "id", Step.title: "title", Step.instruction: "step_description",
                                    Step.estimatedMinutes: "estimated_minutes", Step.imageID: "image_id", Step.position: "order_index"])   // Molten's own field names
                object.use(Step.sourceKey)
                try insert(object, toOne: [plan.relationship: plan.key])
            }
        }
        try rows.each(Material.table) { row in
            try attempts.run(row) {
                // Each owner's glass items are an entity of their own in model 9.
                let itemEntities = ["plan": "ProjectGlassItem", "step": "ProjectStepGlassItem", "log": "LogbookGlassItem"]
                guard let owner = owner(of: row, [(Material.recipeID, "plan", "Project"), (Material.recipeStepID, "step", "ProjectStep"),
                                                  (Material.logID, "log", "Logbook")]),
                      let itemEntity = itemEntities[owner.relationship] else {
                    return tally.add(Material.table, reason: "its owner is not one of Molten's plans, steps or logs")
                }
                var object = try MappedObject(row, as: itemEntity, in: model, absentIsNull: true)
                object.use(Material.recipeID, Material.recipeStepID, Material.logID, Material.projectID, Material.projectStepID)
                try glassItem(&object)
                try insert(object, toOne: [owner.relationship: owner.key])
            }
        }
        try rows.each(Link.table) { row in
            try attempts.run(row) {
                guard let plan = owner(of: row, [(Link.recipeID, "plan", "Project")]) else { return tally.add(Link.table, reason: "its plan is not Molten's") }
                var object = try MappedObject(row, as: "ProjectReferenceUrl", in: model, absentIsNull: true)
                object.use(Link.recipeID, Link.projectID)
                try legacyID(&object)
                try object.columns([Link.url: "url", Link.title: "title", Link.description: "urlDescription", Link.addedAt: "dateAdded",
                                    Link.position: "orderIndex"])
                try insert(object, toOne: [plan.relationship: plan.key])
            }
        }
        try rows.each(File.table) { row in
            try attempts.run(row) {
                guard let owner = owner(of: row, [(File.recipeID, "plan", "Project"), (File.logID, "log", "Logbook")]) else {
                    return tally.add(File.table, reason: "its owner is not one of Molten's plans or logs")
                }
                var object = try MappedObject(row, as: "ProjectImage", in: model, absentIsNull: true)
                object.use(File.recipeID, File.logID, File.projectID, File.sourceKey, File.mediaType, File.tag)   // the type follows the extension; "hero" is the owner's hero_image_id
                try object.column(File.id, to: "id")
                try object.column(File.name, to: "file_name")
                try object.extra(object.extras["fileExtension"] != nil ? "fileExtension" : "file_extension", to: "file_extension")
                try object.extra("caption", to: "caption")
                try object.column(File.addedAt, to: "date_added")
                try object.column(File.position, to: "order_index")
                if object.row[File.sha256] != .null {
                    object.use(File.sha256, File.byteCount)
                    tally.add("\(File.table).\(File.sha256)", reason: "ProjectImage keeps no bytes (Molten keeps image files beside its store); the bytes stay in the canonical store")
                }
                try insert(object, toOne: [owner.relationship: owner.key])
            }
        }
        var names: [String: String] = [:]
        for join in [NameTables.logTag, NameTables.logTechnique] {
            try rows.each(join.kind) { row in if let id = row.text(NameTables.id), let name = row.text(NameTables.name) { names[id] = name } }
        }
        let techniques = NameTables.logTechnique
        try rows.each(techniques.table) { row in
            try attempts.run(row) {
                guard let log = owner(of: row, [(techniques.owner, "log", "Logbook")]), let logID = row.text(techniques.owner),
                      let name = row.text(techniques.name).flatMap({ names[$0] }) else { return tally.add(techniques.table, reason: "its log is not Molten's") }
                var object = try MappedObject(row, as: "ProjectTechnique", in: model, absentIsNull: true)
                object.use(techniques.owner, techniques.name, NameTables.position)   // model 9 keeps techniques unordered
                try object.set("id", .text(StableID.make("molten", logID, "technique", name)), from: techniques.name.name)
                try object.set("technique", .text(name), from: techniques.name.name)
                try insert(object, toOne: [log.relationship: log.key], named: false)
            }
        }
        for (join, ownerType) in [(NameTables.recipeTag, "project"), (NameTables.logTag, "logbook")] {
            try rows.each(join.table) { row in
                try attempts.run(row) {
                    guard let ownerID = row.text(join.owner), written[ownerID] != nil, let name = row.text(join.name).flatMap({ names[$0] }) else {
                        return tally.add(join.table, reason: "its owner is not Molten's")
                    }
                    var object = try MappedObject(row, as: "UserTags", in: model, absentIsNull: true)
                    object.use(join.owner, join.name, NameTables.position)
                    try object.set("owner_id", .text(ownerID), from: join.owner.name)
                    try object.set("owner_type", .text(ownerType), from: join.owner.name)
                    try object.set("tag", .text(name), from: join.name.name)
                    try insert(object, named: false)
                }
            }
        }
        for table in [ProjectTable.table, ProjectStepTable.table, CatalogItemTable.table, LogSnapshotTable.table, NameTables.projectTag.table,
                      NameTables.projectTechnique.table] {
            var count = 0
            try rows.each(table) { _ in count += 1 }
            if count > 0 { tally.add(table, reason: "Molten's model 9 has no entity these records go into", count: count) }
        }
        return counts
    }

    private func plan(_ object: inout MappedObject, parameters: [CanonicalRows.Row], hero: String?) throws {
        try object.columns([Plan.id: "id", Plan.title: "title", Plan.summary: "summary", Plan.category: "project_type",
                            Plan.difficulty: "difficulty_level"])
        let minutes = object.row[Plan.estimatedMinutes]
        try object.set("estimated_time", { if case .real(let value) = minutes { return .real(value * 60) }; return .null }(), from: Plan.estimatedMinutes.name)   // seconds
        object.use(Plan.estimatedMinutes)
        try object.columns([Plan.isArchived: "is_archived", Plan.lastUsedAt: "last_used_date", Plan.usageCount: "times_used",   // Molten's own field names
                            Plan.createdAt: "date_created", Plan.modifiedAt: "date_modified"])
        if let hero { try object.set("hero_image_id", .text(hero), from: "\(File.table).\(File.tag)") } else { try object.extra("heroImageId", to: "hero_image_id") }
        for parameter in parameters {
            let name = parameter.text(Parameter.name)
            switch name {
            case "coe": try object.set("coe", parameter[Parameter.textValue], from: "\(Parameter.table).coe")
            case "priceMin": try object.set("proposed_price_min", parameter[Parameter.value], from: "\(Parameter.table).priceMin")
            case "priceMax": try object.set("proposed_price_max", parameter[Parameter.value], from: "\(Parameter.table).priceMax")
            default: continue
            }
            if parameter[Parameter.unit] != .null, name != "coe" {
                try object.set("price_currency", parameter[Parameter.unit], from: "\(Parameter.table).\(Parameter.unit)")
            }
        }
    }

    private func log(_ object: inout MappedObject, hero: String?) throws {
        typealias Log = LogTable
        try object.columns([Log.id: "id", Log.title: "title", Log.note: "notes", Log.startedAt: "project_date", Log.outcome: "status"])
        let seconds = object.row[Log.durationSeconds]
        try object.set("hours_spent", { if case .real(let value) = seconds { return .real(value / 3600) }; return .null }(), from: Log.durationSeconds.name)
        object.use(Log.durationSeconds, Log.title)
        try object.column(Log.createdAt, to: "date_created")
        try object.column(Log.modifiedAt, to: "date_modified")
        // The plan it was made from, kept even when the plan itself is gone.
        if object.row.text(Log.recipeID) != nil {
            try object.column(Log.recipeID, to: "based_on_plan_id")
        } else if let dangling = object.extras["danglingReferences"]?.object?[Log.recipeID.name]?.string {
            try object.set("based_on_plan_id", .text(dangling), from: "extras.danglingReferences")
        }
        object.use(Log.recipeID)
        object.use(extras: "danglingReferences")
        if let hero { try object.set("hero_image_id", .text(hero), from: "\(File.table).\(File.tag)") } else { try object.extra("hero_image_id", to: "hero_image_id") }
        try object.extras(["price_point", "sale_date", "buyer_info", "coe", "inventory_deduction_recorded", "type"])
    }

    /// The app's own id where the record had one: Ferry derives the canonical id of a part from
    /// its owner (the same item may sit in two lists), and keeps the legacy id as `source_key`.
    private func legacyID(_ object: inout MappedObject) throws {
        if let key = object.row.text(SharedColumns.sourceKey), UUID(uuidString: key) != nil {
            try object.column(SharedColumns.sourceKey, to: "id")
            object.use(SharedColumns.id)
        } else {
            try object.column(SharedColumns.id, to: "id")
            object.use(SharedColumns.sourceKey)
        }
    }

    private func glassItem(_ object: inout MappedObject) throws {
        try legacyID(&object)
        try object.column(Material.catalogKey, to: "itemNaturalKey")
        if case .text(let quantity) = object.row[Material.quantity] {
            guard let value = Double(quantity) else {
                throw CoreDataWriteError(kind: .refused("quantity \"\(quantity)\" is not a number", record: object.location), file: object.file)
            }
            try object.set("quantity", .real(value), from: Material.quantity.name)
        }
        object.use(Material.quantity)
        try object.columns([Material.unit: "unit", Material.notes: "notes", Material.description: "freeformDescription", Material.position: "orderIndex"])
        for key in ["item_stable_id", "stableId", "stable_id"] where object.extras[key] != nil {
            try object.extra(key, to: "item_stable_id")
        }
    }
}
