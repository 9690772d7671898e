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
            if named, let id = object.row.text("id") { written[id] = (object.entity.name, key) }
            counts[object.entity.name, default: 0] += 1
        }
        /// The first of `owners` (column, relationship, entity) the row names a written object through.
        func owner(of row: CanonicalRows.Row, _ owners: [(column: String, relationship: String, entity: String)]) -> (relationship: String, key: Key)? {
            for candidate in owners {
                if let id = row.text(candidate.column), let key = written[id], key.entity == candidate.entity { return (candidate.relationship, key) }
            }
            return nil
        }

        // Plans, with their price and COE parameters folded back into attributes.
        var parameters: [String: [CanonicalRows.Row]] = [:]
        try rows.each("recipe_parameter") { row in if let recipe = row.text("recipe_id") { parameters[recipe, default: []].append(row) } }
        var heroes: [String: String] = [:]
        try rows.each("attachment", where: "tag", isOneOf: ["hero"]) { row in
            if let owner = row.text("recipe_id") ?? row.text("log_id"), let id = row.text("id") { heroes[owner] = id }
        }
        try rows.each("recipe") { row in
            try attempts.run(row) {
                guard row.text("source_app") == "molten" else { return tally.add("recipe of \(row.text("source_app") ?? "?")", reason: "not Molten's") }
                var object = try MappedObject(row, as: "Project", in: model, absentIsNull: true)
                try plan(&object, parameters: parameters[row.text("id") ?? ""] ?? [], hero: heroes[row.text("id") ?? ""])
                try insert(object)
            }
        }
        try rows.each("log") { row in
            try attempts.run(row) {
                guard row.text("source_app") == "molten" else { return tally.add("log of \(row.text("source_app") ?? "?")", reason: "not Molten's") }
                var object = try MappedObject(row, as: "Logbook", in: model, absentIsNull: true)
                try log(&object, hero: heroes[row.text("id") ?? ""])
                try insert(object)
            }
        }
        try rows.each("recipe_step") { row in
            try attempts.run(row) {
                var object = try MappedObject(row, as: "ProjectStep", in: model, absentIsNull: true)
                guard let plan = owner(of: row, [("recipe_id", "plan", "Project")]) else { return tally.add("recipe_step", reason: "its plan is not Molten's") }
                object.use("recipe_id")
                try object.columns(["id": "id", "title": "title", "instruction": "step_description",
                                    "estimated_minutes": "estimated_minutes", "image_id": "image_id", "position": "order_index"])
                object.use("source_key")
                try insert(object, toOne: [plan.relationship: plan.key])
            }
        }
        try rows.each("material_line") { row in
            try attempts.run(row) {
                // Each owner's glass items are an entity of their own in model 9.
                let itemEntities = ["plan": "ProjectGlassItem", "step": "ProjectStepGlassItem", "log": "LogbookGlassItem"]
                guard let owner = owner(of: row, [("recipe_id", "plan", "Project"), ("recipe_step_id", "step", "ProjectStep"), ("log_id", "log", "Logbook")]),
                      let itemEntity = itemEntities[owner.relationship] else {
                    return tally.add("material_line", reason: "its owner is not one of Molten's plans, steps or logs")
                }
                var object = try MappedObject(row, as: itemEntity, in: model, absentIsNull: true)
                object.use("recipe_id", "recipe_step_id", "log_id", "project_id", "project_step_id")
                try glassItem(&object)
                try insert(object, toOne: [owner.relationship: owner.key])
            }
        }
        try rows.each("reference_link") { row in
            try attempts.run(row) {
                guard let plan = owner(of: row, [("recipe_id", "plan", "Project")]) else { return tally.add("reference_link", reason: "its plan is not Molten's") }
                var object = try MappedObject(row, as: "ProjectReferenceUrl", in: model, absentIsNull: true)
                object.use("recipe_id", "project_id")
                try legacyID(&object)
                try object.columns(["url": "url", "title": "title", "description": "urlDescription", "added_at": "dateAdded",
                                    "position": "orderIndex"])
                try insert(object, toOne: [plan.relationship: plan.key])
            }
        }
        try rows.each("attachment") { row in
            try attempts.run(row) {
                guard let owner = owner(of: row, [("recipe_id", "plan", "Project"), ("log_id", "log", "Logbook")]) else {
                    return tally.add("attachment", reason: "its owner is not one of Molten's plans or logs")
                }
                var object = try MappedObject(row, as: "ProjectImage", in: model, absentIsNull: true)
                object.use("recipe_id", "log_id", "project_id", "source_key", "media_type", "tag")   // the type follows the extension; "hero" is the owner's hero_image_id
                try object.column("id", to: "id")
                try object.column("name", to: "file_name")
                try object.extra(object.extras["fileExtension"] != nil ? "fileExtension" : "file_extension", to: "file_extension")
                try object.extra("caption", to: "caption")
                try object.column("added_at", to: "date_added")
                try object.column("position", to: "order_index")
                if object.row["sha256"] != .null {
                    object.use("sha256", "byte_count")
                    tally.add("attachment.sha256", reason: "ProjectImage keeps no bytes (Molten keeps image files beside its store); the bytes stay in the canonical store")
                }
                try insert(object, toOne: [owner.relationship: owner.key])
            }
        }
        var names: [String: String] = [:]
        for table in ["tag", "technique"] {
            try rows.each(table) { row in if let id = row.text("id"), let name = row.text("name") { names[id] = name } }
        }
        try rows.each("log_technique") { row in
            try attempts.run(row) {
                guard let log = owner(of: row, [("log_id", "log", "Logbook")]), let logID = row.text("log_id"),
                      let name = row.text("technique_id").flatMap({ names[$0] }) else { return tally.add("log_technique", reason: "its log is not Molten's") }
                var object = try MappedObject(row, as: "ProjectTechnique", in: model, absentIsNull: true)
                object.use("log_id", "technique_id", "position")   // model 9 keeps techniques unordered
                try object.set("id", .text(StableID.make("molten", logID, "technique", name)), from: "technique_id")
                try object.set("technique", .text(name), from: "technique_id")
                try insert(object, toOne: [log.relationship: log.key], named: false)
            }
        }
        for (table, column, ownerType) in [("recipe_tag", "recipe_id", "project"), ("log_tag", "log_id", "logbook")] {
            try rows.each(table) { row in
                try attempts.run(row) {
                    guard let ownerID = row.text(column), written[ownerID] != nil, let name = row.text("tag_id").flatMap({ names[$0] }) else {
                        return tally.add(table, reason: "its owner is not Molten's")
                    }
                    var object = try MappedObject(row, as: "UserTags", in: model, absentIsNull: true)
                    object.use(column, "tag_id", "position")
                    try object.set("owner_id", .text(ownerID), from: column)
                    try object.set("owner_type", .text(ownerType), from: column)
                    try object.set("tag", .text(name), from: "tag_id")
                    try insert(object, named: false)
                }
            }
        }
        for table in ["project", "project_step", "catalog_item", "log_snapshot", "project_tag", "project_technique"] {
            var count = 0
            try rows.each(table) { _ in count += 1 }
            if count > 0 { tally.add(table, reason: "Molten's model 9 has no entity these records go into", count: count) }
        }
        return counts
    }

    private func plan(_ object: inout MappedObject, parameters: [CanonicalRows.Row], hero: String?) throws {
        try object.columns(["id": "id", "title": "title", "summary": "summary", "category": "project_type",
                            "difficulty": "difficulty_level"])
        let minutes = object.row["estimated_minutes"]
        try object.set("estimated_time", { if case .real(let value) = minutes { return .real(value * 60) }; return .null }(), from: "estimated_minutes")   // seconds
        object.use("estimated_minutes")
        try object.columns(["is_archived": "is_archived", "last_used_at": "last_used_date", "usage_count": "times_used",
                            "created_at": "date_created", "modified_at": "date_modified"])
        if let hero { try object.set("hero_image_id", .text(hero), from: "attachment.tag") } else { try object.extra("heroImageId", to: "hero_image_id") }
        for parameter in parameters {
            switch parameter.text("name") {
            case "coe": try object.set("coe", parameter["text_value"], from: "recipe_parameter.coe")
            case "priceMin": try object.set("proposed_price_min", parameter["value"], from: "recipe_parameter.priceMin")
            case "priceMax": try object.set("proposed_price_max", parameter["value"], from: "recipe_parameter.priceMax")
            default: continue
            }
            if parameter["unit"] != .null, parameter.text("name") != "coe" { try object.set("price_currency", parameter["unit"], from: "recipe_parameter.unit") }
        }
    }

    private func log(_ object: inout MappedObject, hero: String?) throws {
        try object.columns(["id": "id", "title": "title", "note": "notes", "started_at": "project_date", "outcome": "status"])
        let seconds = object.row["duration_seconds"]
        try object.set("hours_spent", { if case .real(let value) = seconds { return .real(value / 3600) }; return .null }(), from: "duration_seconds")
        object.use("duration_seconds", "title")
        try object.column("created_at", to: "date_created")
        try object.column("modified_at", to: "date_modified")
        // The plan it was made from, kept even when the plan itself is gone.
        if object.row.text("recipe_id") != nil {
            try object.column("recipe_id", to: "based_on_plan_id")
        } else if let dangling = object.extras["danglingReferences"]?.object?["recipe_id"]?.string {
            try object.set("based_on_plan_id", .text(dangling), from: "extras.danglingReferences")
        }
        object.use("recipe_id", "extras.danglingReferences")
        if let hero { try object.set("hero_image_id", .text(hero), from: "attachment.tag") } else { try object.extra("hero_image_id", to: "hero_image_id") }
        try object.extras(["price_point", "sale_date", "buyer_info", "coe", "inventory_deduction_recorded", "type"])
    }

    /// The app's own id where the record had one: Ferry derives the canonical id of a part from
    /// its owner (the same item may sit in two lists), and keeps the legacy id as `source_key`.
    private func legacyID(_ object: inout MappedObject) throws {
        if let key = object.row.text("source_key"), UUID(uuidString: key) != nil {
            try object.column("source_key", to: "id")
            object.use("id")
        } else {
            try object.column("id", to: "id")
            object.use("source_key")
        }
    }

    private func glassItem(_ object: inout MappedObject) throws {
        try legacyID(&object)
        try object.column("catalog_key", to: "itemNaturalKey")
        if case .text(let quantity) = object.row["quantity"] {
            guard let value = Double(quantity) else {
                throw CoreDataWriteError(kind: .refused("quantity \"\(quantity)\" is not a number", record: object.location), file: object.file)
            }
            try object.set("quantity", .real(value), from: "quantity")
        }
        object.use("quantity")
        try object.columns(["unit": "unit", "notes": "notes", "description": "freeformDescription", "position": "orderIndex"])
        for key in ["item_stable_id", "stableId", "stable_id"] where object.extras[key] != nil {
            try object.extra(key, to: "item_stable_id")
        }
    }
}
