import FerryCanonical
import FerryJSON
import Foundation

/// Beanconqueror's brews into canonical `brew` logs. A brew's own values (grind size, dose,
/// water, temperature, brew time) are its snapshot's parameters as they were at brew time; the
/// names of what it was made with (bean, roaster, roast date, preparation, grinder) come from
/// those records as the backup holds them, and are marked reconstructed. Preparations become
/// `brew` recipes (what a log follows); beans, grinders and waters become catalog items (what a
/// log uses). Format notes: `Formats/apps/beanconqueror.md`.
struct BeanconquerorNormalizer {
    let context: ConversionContext

    /// The records brews name, by their uuid, as the backup holds them.
    struct Library {
        var beans: [String: JSONObject] = [:]
        var preparations: [String: JSONObject] = [:]
        var mills: [String: JSONObject] = [:]
        var waters: [String: JSONObject] = [:]
    }

    func convertZip(_ path: String) throws {
        var documents: [JSONDocuments] = []
        try ZipEntries.read(path, context: context) { name, data in
            let base = (name as NSString).lastPathComponent
            guard base.hasPrefix("Beanconqueror") && base.hasSuffix(".json") else { return }
            documents.append(try JSONDocuments.parse(data, path: "\(path)!\(name)"))
        }
        try convertBackup(documents, path: path)
    }

    /// The main file first (its beans and preparations), then brews however they are split.
    func convertBackup(_ documents: [JSONDocuments], path: String) throws {
        let file = (path as NSString).lastPathComponent
        var library = Library()
        var brews: [(JSONObject, RecordLocation)] = []
        for document in documents {
            // The app splits large backups: `Beanconqueror_Brews_1.json` is a bare list of brews.
            if let records = document.document?.array {
                let name = (document.path as NSString).lastPathComponent.lowercased()
                let key = ["brews": "BREWS", "beans": "BEANS", "mill": "MILL", "preparation": "PREPARATION", "water": "WATER"]
                    .first { name.contains("_\($0.key)") }?.value
                guard let key else {
                    throw ConversionError(.notRecognized("a list of records whose kind its name does not say"), at: RecordLocation(file: document.path))
                }
                try split(key: key, records: records, document: document, file: file, library: &library, brews: &brews)
                continue
            }
            guard let object = document.document?.object else {
                throw ConversionError(.wrongType(expected: "a Beanconqueror backup object", found: document.document?.shortDescription ?? "nothing"),
                                      at: RecordLocation(file: document.path))
            }
            for (key, value) in object {
                try split(key: key, records: value.array ?? [], document: document, file: file, library: &library, brews: &brews)
            }
        }
        for (brew, location) in brews {
            try context.record { try self.brew(brew, library: library, location: location, file: file) }
            try context.flushIfNeeded()
        }
    }

    /// One collection of a backup, whichever file it came in.
    private func split(key: String, records: [JSONValue], document: JSONDocuments, file: String, library: inout Library,
                       brews: inout [(JSONObject, RecordLocation)]) throws {
                switch key {
                case "BEANS": try catalog(records, kind: "bean", path: document.path, file: file, into: &library.beans)
                case "MILL": try catalog(records, kind: "grinder", path: document.path, file: file, into: &library.mills)
                case "WATER": try catalog(records, kind: "water", path: document.path, file: file, into: &library.waters)
                case "PREPARATION": try preparations(records, path: document.path, file: file, into: &library.preparations)
                case "BREWS":
                    for (index, brew) in records.enumerated() {
                        let location = RecordLocation(file: document.path, record: index + 1, field: nil)
                        guard let brew = brew.object else {
                            throw ConversionError(.wrongType(expected: "a brew object", found: brew.shortDescription), at: location)
                        }
                        brews.append((brew, location))
                    }
                case "SETTINGS", "VERSION":
                    context.report.warning("\(file): \(key) (\(records.count) record\(records.count == 1 ? "" : "s")) is the app's own state; not converted")
                default:
                    // Green beans, roasting machines and what later versions add: the person's, with no canonical home yet.
                    if !records.isEmpty {
                        context.report.warning("\(file): \(records.count) \(key) record\(records.count == 1 ? "" : "s") not converted: no canonical home yet")
                    }
                }
    }

    /// A single brew shared from the app: the brew with the records it names inlined.
    func convertShare(_ documents: JSONDocuments, path: String) throws {
        let file = (path as NSString).lastPathComponent
        guard let object = documents.document?.object, let brew = object["brew"]?.object else {
            throw ConversionError(.notRecognized("a Beanconqueror brew share without its brew"), at: RecordLocation(file: path))
        }
        var library = Library()
        let brewKey = brew["config"]?.object?["uuid"]?.string ?? file
        var named = brew
        for (key, kind) in [("bean", "bean"), ("mill", "grinder"), ("water", "water"), ("preparation", "preparation")] {
            guard var record = object[key]?.object else { continue }
            // A share carries no ids of its records: each is known by its brew and its kind.
            let uuid = record["config"]?.object?["uuid"]?.string ?? StableID.make("beanconqueror", brewKey, kind)
            if record["config"] == nil { record["config"] = .object(JSONObject([("uuid", .string(uuid))])) }
            switch key {
            case "bean": try catalog([.object(record)], kind: kind, path: path, file: file, into: &library.beans)
            case "mill": try catalog([.object(record)], kind: kind, path: path, file: file, into: &library.mills)
            case "water": try catalog([.object(record)], kind: kind, path: path, file: file, into: &library.waters)
            default: try preparations([.object(record)], path: path, file: file, into: &library.preparations)
            }
            named[key == "preparation" ? "method_of_preparation" : key] = .string(uuid)
        }
        if let flow = object["brewFlow"] { named["brewFlow"] = flow }
        try context.record { try self.brew(named, library: library, location: RecordLocation(file: path), file: file) }
    }

    private static func uuid(_ record: JSONObject) -> String? {
        record["config"]?.object?["uuid"]?.string
    }

    private static func time(_ record: JSONObject) -> String? {
        guard let seconds = record["config"]?.object?["unix_timestamp"]?.number?.double, seconds >= 0,
              seconds <= Double(CanonicalTime.latestSeconds) else { return nil }
        return CanonicalTime.string(unixSeconds: seconds)
    }

    /// Beans, grinders and waters: catalog items keyed `beanconqueror:<kind>:<uuid>`.
    private func catalog(_ records: [JSONValue], kind: String, path: String, file: String, into library: inout [String: JSONObject]) throws {
        for (index, value) in records.enumerated() {
            let location = RecordLocation(file: path, record: index + 1, field: nil)
            guard let record = value.object, let uuid = Self.uuid(record) else {
                throw ConversionError(.missingField, at: RecordLocation(file: path, record: index + 1, field: "config.uuid"))
            }
            library[uuid] = record
            var fields = FieldReader(record, at: location, dates: context.dates)
            var item = CatalogItem(naturalKey: "beanconqueror:\(kind):\(uuid.lowercased())",
                                   source: SourceRef(app: .beanconqueror, entity: kind, key: uuid, file: file))
            item.name = try fields.string("name")
            if kind == "bean" { item.manufacturer = (try fields.string("roaster")).flatMap { $0.isEmpty ? nil : $0 } }
            item.extras = fields.extras
            item.extras["kind"] = .string(kind)
            context.report.extras(app: .beanconqueror, entity: kind, fields.extras)
            context.batch.catalog.append(item)
        }
    }

    /// Preparations (the brewing method and its tools): `brew` recipes, by their uuid.
    private func preparations(_ records: [JSONValue], path: String, file: String, into library: inout [String: JSONObject]) throws {
        for (index, value) in records.enumerated() {
            let location = RecordLocation(file: path, record: index + 1, field: nil)
            guard let record = value.object, let uuid = Self.uuid(record) else {
                throw ConversionError(.missingField, at: RecordLocation(file: path, record: index + 1, field: "config.uuid"))
            }
            library[uuid] = record
            let id = StableID.normalized(uuid) ?? StableID.make("beanconqueror", "preparation", uuid)
            try context.claim(id, table: "recipe", at: location)
            var fields = FieldReader(record, at: location, dates: context.dates)
            let time = try Self.time(record) ?? context.fileTime(path)
            var recipe = Recipe(id: id, source: SourceRef(app: .beanconqueror, entity: "Preparation", key: uuid, file: file), kind: "brew",
                                createdAt: time, modifiedAt: time)
            if Self.time(record) == nil {
                context.synthesized([SynthesizedTimes.createdAt, SynthesizedTimes.modifiedAt], table: "recipe", from: "modification time of \(file)",
                                    marking: &recipe.synthesizedTimes)
            } else {
                context.synthesized([SynthesizedTimes.modifiedAt], table: "recipe", from: "the creation time (Beanconqueror keeps no modification time)",
                                    marking: &recipe.synthesizedTimes)
            }
            recipe.title = try fields.string("name") ?? ""
            recipe.method = try fields.string("type")
            recipe.isArchived = try fields.bool("finished") ?? false
            recipe.extras = fields.extras
            context.report.extras(app: .beanconqueror, entity: "Preparation", recipe.extras)
            context.batch.recipes.append(recipe)
        }
    }

    private func brew(_ record: JSONObject, library: Library, location: RecordLocation, file: String) throws {
        var fields = FieldReader(record, at: location, dates: context.dates)
        guard let uuid = Self.uuid(record) else { throw fields.error(.missingField, "config.uuid") }
        let id = StableID.normalized(uuid) ?? StableID.make("beanconqueror", "brew", uuid)
        var here = location
        here.key = uuid
        fields.location.key = uuid
        try context.claim(id, table: "log", at: here)
        guard let time = Self.time(record) else { throw fields.error(.missingField, "config.unix_timestamp") }
        fields.skip("config")
        // The config's own two are the id and the time; anything a later version adds is kept.
        let config = JSONObject((record["config"]?.object?.members ?? []).filter { $0.key != "uuid" && $0.key != "unix_timestamp" })
        var log = Log(id: id, source: SourceRef(app: .beanconqueror, entity: "Brew", key: uuid, file: file), kind: "brew",
                      createdAt: time, modifiedAt: time)
        log.startedAt = time
        context.synthesized([SynthesizedTimes.modifiedAt], table: "log", from: "the brew's time (Beanconqueror keeps no modification time)",
                            marking: &log.synthesizedTimes)
        log.note = (try fields.string("note")).flatMap { $0.isEmpty ? nil : $0 }
        if let rating = fields.peek("rating")?.number?.double, rating > 0 { log.rating = try fields.double("rating") }
        if let seconds = fields.peek("brew_time")?.number?.double, seconds > 0 { log.durationSeconds = try fields.double("brew_time") }

        // What it was made with: the brew's own values, and the names of the records it names.
        var parameters = JSONObject()
        var reconstructed: [String] = []
        func number(_ key: String, as name: String, unit: String) throws {
            guard let value = fields.peek(key)?.number?.double, value > 0 else { return }
            parameters[name] = .object(JSONObject([("value", .double(try fields.double(key) ?? value)), ("unit", .string(unit))]))
        }
        try number("grind_weight", as: "dose", unit: "g")
        try number("brew_quantity", as: "water", unit: (fields.peek("brew_quantity_type")?.string ?? "GR") == "GR" ? "g" : "ml")
        try number("brew_temperature", as: "temperature", unit: "°C")
        try number("brew_time", as: "brewTime", unit: "s")
        if let size = fields.peek("grind_size")?.string, !size.isEmpty {
            parameters["grindSize"] = .object(JSONObject([("text", .string(try fields.string("grind_size") ?? size))]))
        }
        func named(_ key: String, in records: [String: JSONObject], _ take: (JSONObject) -> [(String, String?)]) {
            guard let reference = fields.peek(key)?.string, let record = records[reference] else { return }
            for (name, value) in take(record) {
                guard let value, !value.isEmpty else { continue }
                parameters[name] = .object(JSONObject([("text", .string(value))]))
                reconstructed.append("parameters.\(name)")
            }
        }
        named("bean", in: library.beans) { [("bean", $0["name"]?.string), ("roaster", $0["roaster"]?.string), ("roastDate", $0["roastingDate"]?.string)] }
        named("mill", in: library.mills) { [("grinder", $0["name"]?.string)] }
        named("water", in: library.waters) { [("waterName", $0["name"]?.string)] }
        let preparationKey = fields.peek("method_of_preparation")?.string
        let preparation = preparationKey.flatMap { library.preparations[$0] }
        if let preparationKey, preparation != nil {
            log.recipeID = StableID.normalized(preparationKey) ?? StableID.make("beanconqueror", "preparation", preparationKey)
        }
        var snapshot = LogSnapshot(sourceType: "recipe", sourceID: log.recipeID, title: preparation?["name"]?.string,
                                   method: preparation?["type"]?.string, kind: "brew")
        if snapshot.title != nil { reconstructed.append("title") }
        if snapshot.method != nil { reconstructed.append("method") }
        snapshot.parameters = parameters
        snapshot.isReconstructed = !reconstructed.isEmpty
        snapshot.reconstructedFields = reconstructed
        log.snapshot = snapshot
        log.title = parameters["bean"]?.object?["text"]?.string ?? snapshot.title
        if let bean = fields.peek("bean")?.string, library.beans[bean] != nil {
            var line = MaterialLine(id: StableID.make(id, "bean"), position: 0)
            line.catalogKey = "beanconqueror:bean:\(bean.lowercased())"
            line.description = parameters["bean"]?.object?["text"]?.string
            if let dose = parameters["dose"]?.object?["value"]?.number { line.quantity = dose.text; line.unit = "g" }
            log.materials = [line]
        }
        log.extras = fields.extras
        if !config.isEmpty { log.extras["config"] = .object(config) }
        context.report.extras(app: .beanconqueror, entity: "Brew", log.extras)
        context.batch.logs.append(log)
    }
}
