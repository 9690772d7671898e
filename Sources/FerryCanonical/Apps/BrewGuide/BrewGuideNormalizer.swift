import FerryJSON
import FerryLegacy
import Foundation

/// BrewGuide (SwiftData, V60 coffee): recipe detail and brew log detail DTOs as JSON, or its
/// SwiftData store's `Recipe`, `RecipeStep` and `BrewLog` rows. Brew logs keep their snapshot
/// (recipe name, dose, yield, temperature, grind at brew time); missing snapshot values are
/// filled from the recipe later by ``SnapshotLinker`` and marked reconstructed.
/// Format notes: `Formats/legacy/brewguide.md`.
struct BrewGuideNormalizer {
    let context: ConversionContext

    static let origins = EnumNormalizer(known: ["starter_template", "custom", "conflicted_copy"])
    static let grinds = EnumNormalizer(known: ["fine", "medium", "coarse"])
    static let stepKinds = EnumNormalizer(known: ["preparation", "bloom", "pour", "wait", "agitate"])
    static let tastes = EnumNormalizer(known: ["too_bitter", "too_sour", "too_weak", "too_strong"])
    static let methods = EnumNormalizer(known: ["v60"])

    /// Whether a JSON record looks like one of BrewGuide's DTOs.
    static func recognizes(_ value: JSONValue) -> Bool {
        guard let object = value.object else { return false }
        if object["recipe"]?.object?["defaultDose"] != nil { return true }
        if object["summary"]?.object?["recipeNameAtBrew"] != nil { return true }
        return object["recipeNameAtBrew"] != nil || (object["defaultDose"] != nil && object["method"] != nil)
    }

    /// Converts every record of a DTO file, streaming: records are read one at a time and handed
    /// to the context's sink as batches fill.
    func convert(streaming path: String) throws {
        let stream = try JSONDocuments.stream(path)
        let time = context.fileTime(path)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        var records = 0
        context.progress?(ConversionProgress(file: path, records: 0, bytesRead: 0, totalBytes: size))
        defer { context.progress?(ConversionProgress(file: path, records: records, bytesRead: stream.bytesRead, totalBytes: size)) }
        // The brew log last read in place.
        var log: BrewLogInPlace?
        while true {
            let next: JSONRecordStream.InPlace?
            do {
                next = try JSONDocuments.next(stream) { bytes in
                    guard let (read, length) = BrewLogInPlace.read(bytes) else { return nil }
                    log = read
                    return length
                }
            } catch {
                // With keepGoing a malformed record is rejected and the records after it are still
                // read; where the file's structure breaks, the records before the break are kept.
                guard context.keepGoing else { throw error }
                context.report.rejected(error)
                if stream.isFinished { break } else { continue }
            }
            guard let next else { break }
            records += 1
            if records & 0x0FFF == 0 {
                context.progress?(ConversionProgress(file: path, records: records, bytesRead: stream.bytesRead, totalBytes: size))
            }
            switch next {
            case .readInPlace(let number, _):
                let read = log.take()!
                try context.record { () throws in try brewLog(read, location: RecordLocation(file: path, record: number), time: time) }
            case .record(let record):
                try context.record { () throws in try convert(record.value, location: RecordLocation(file: path, record: record.number), time: time) }
            }
            try context.flushIfNeeded()
        }
    }

    /// Converts every record of a DTO file read whole.
    func convert(_ documents: JSONDocuments) throws {
        let time = context.fileTime(documents.path)
        for (number, value) in documents.records {
            try context.record { () throws in try convert(value, location: RecordLocation(file: documents.path, record: number), time: time) }
        }
    }

    private func convert(_ value: JSONValue, location: RecordLocation, time: String) throws {
        guard let object = value.object else {
            throw ConversionError(.wrongType(expected: "an object", found: value.shortDescription), at: location)
        }
        if let recipe = object["recipe"]?.object {
            try recipeDetail(object, recipe: recipe, location: location, time: time)
        } else if let summary = object["summary"]?.object {
            try brewLog(object, summary: summary, location: location, time: time)
        } else if object["recipeNameAtBrew"] != nil {
            try brewLog(JSONObject(), summary: object, location: location, time: time)
        } else if object["defaultDose"] != nil {
            try recipeDetail(JSONObject(), recipe: object, location: location, time: time)
        } else {
            throw ConversionError(.notRecognized("not a BrewGuide recipe or brew log DTO (keys: \(object.keys.prefix(6).joined(separator: ", ")))"), at: location)
        }
    }

    private func recipeDetail(_ detail: JSONObject, recipe fields: JSONObject, location: RecordLocation, time: String) throws {
        var outer = FieldReader(detail, at: location, dates: context.dates)
        outer.skip("recipe")
        var inner = outer.nested(fields, field: detail.isEmpty ? "" : "recipe")
        if detail.isEmpty { inner.location.field = nil }
        let id = try inner.uuid("id") ?? StableID.make("brewguide", "recipe", location.file, String(location.record ?? 0))
        var here = location
        here.key = id
        try context.claim(id, table: "recipe", at: here)
        var steps: [FieldReader] = []
        for (index, value) in (try outer.array("steps") ?? inner.array("steps") ?? []).enumerated() {
            guard let object = value.object else {
                throw outer.error(.wrongType(expected: "an object", found: value.shortDescription), "steps[\(index)]")
            }
            steps.append(outer.nested(object, field: "steps[\(index)]"))
        }
        context.batch.recipes.append(try recipe(inner, outer: outer, id: id, steps: steps, entity: "Recipe", time: time))
    }

    /// A recipe from its fields (a DTO's `recipe` object or a store row), the detail around it
    /// and its steps.
    func recipe(_ fields: FieldReader, outer: FieldReader, id: String, steps stepFields: [FieldReader], entity: String,
                time: String) throws -> Recipe {
        var fields = fields
        var outer = outer
        let file = fields.location.file
        fields.location.key = id
        fields.skip("id")
        var recipe = Recipe(id: id, source: SourceRef(app: .brewguide, entity: entity, key: id, file: context.fileName(file)),
                            kind: "coffee", createdAt: time, modifiedAt: time)
        recipe.title = try fields.string("name") ?? ""
        recipe.method = try enumValue(&fields, "method", Self.methods)
        recipe.isStarter = try fields.bool("isStarter") ?? false
        recipe.origin = try enumValue(&fields, "origin", Self.origins)
        recipe.isValid = try fields.bool("isValid")
        recipe.parameters = try parameters(&fields, names: ("defaultDose", "defaultTargetYield", "defaultWaterTemperature", "defaultGrindLabel"))
        if let descriptor = try outer.string("grindTactileDescriptor") ?? fields.string("grindTactileDescriptor") {
            recipe.parameters.append(RecipeParameter(name: "grindDescriptor", text: descriptor))
        }
        if let bloom = try fields.double("bloomRatio") ?? outer.double("bloomRatio") {
            recipe.parameters.append(RecipeParameter(name: "bloomRatio", value: bloom, unit: "ratio"))
        }
        if let created = try fields.date("createdAt") { recipe.createdAt = created } else { context.report.synthesized(table: "recipe", field: "created_at", from: "modification time of \(context.fileName(file))") }
        if let modified = try fields.date("modifiedAt") { recipe.modifiedAt = modified } else { context.report.synthesized(table: "recipe", field: "modified_at", from: "modification time of \(context.fileName(file))") }
        var steps: [RecipeStep] = []
        for (index, stepFields) in stepFields.enumerated() {
            steps.append(try step(stepFields, recipeID: id, index: index))
        }
        recipe.steps = steps.sorted { $0.position < $1.position }
        recipe.extras = Self.merged(outer.extras, fields.extras)
        context.report.extras(app: .brewguide, entity: entity, recipe.extras)
        return recipe
    }

    /// An enum raw value: text, or, as SwiftData may store a Codable enum, an object holding it.
    func enumValue(_ fields: inout FieldReader, _ key: String, _ known: EnumNormalizer) throws -> String? {
        let raw: String?
        if case .object(let object)? = fields.value(key) {
            guard let text = object["rawValue"]?.string ?? (object.count == 1 ? object.members[0].value.string : nil) else {
                throw fields.error(.wrongType(expected: "an enum raw value", found: "object"), key)
            }
            raw = text
        } else {
            raw = try fields.string(key)
        }
        return raw.map { known.normalize($0, file: fields.location.file, field: key, report: context.report) }
    }

    /// dose, yield, water temperature and grind, as parameters with units.
    func parameters(_ fields: inout FieldReader, names: (String, String, String, String)) throws -> [RecipeParameter] {
        let dose = try fields.double(names.0), yield = try fields.double(names.1), temperature = try fields.double(names.2)
        return Self.parameters(dose: dose, yield: yield, temperature: temperature, grind: try enumValue(&fields, names.3, Self.grinds))
    }

    /// The brew parameters present, in this order, with their units; `grind` already normalized.
    static func parameters(dose: Double?, yield: Double?, temperature: Double?, grind: String?) -> [RecipeParameter] {
        var result: [RecipeParameter] = []
        result.reserveCapacity(4)
        if let dose { result.append(RecipeParameter(name: "dose", value: dose, unit: "g")) }
        if let yield { result.append(RecipeParameter(name: "yield", value: yield, unit: "g")) }
        if let temperature { result.append(RecipeParameter(name: "waterTemperature", value: temperature, unit: "°C")) }
        if let grind { result.append(RecipeParameter(name: "grind", text: grind)) }
        return result
    }

    func step(_ fields: FieldReader, recipeID: String, index: Int) throws -> RecipeStep {
        var fields = fields
        let position = Int(try fields.integer("orderIndex") ?? Int64(index))
        let id = try fields.uuid("stepId") ?? fields.uuid("id") ?? StableID.make("brewguide", recipeID, "step", String(position))
        var step = RecipeStep(id: id, position: position)
        step.instruction = try fields.string("instructionText")
        step.kind = try enumValue(&fields, "stepKind", Self.stepKinds)
        step.durationSeconds = try fields.double("durationSeconds") ?? fields.double("timerDurationSeconds")
        step.waterGrams = try fields.double("waterAmountGrams")
        step.isCumulative = try fields.bool("isCumulativeWaterTarget")
        step.sourceKey = id
        fields.skip("recipe")
        step.extras = fields.extras
        context.report.extras(app: .brewguide, entity: "RecipeStep", step.extras)
        return step
    }

    private func brewLog(_ detail: JSONObject, summary: JSONObject, location: RecordLocation, time: String) throws {
        var outer = FieldReader(detail, at: location, dates: context.dates)
        outer.skip("summary")
        var fields = outer.nested(summary, field: detail.isEmpty ? "" : "summary")
        if detail.isEmpty { fields.location.field = nil }
        let id = try fields.uuid("id") ?? StableID.make("brewguide", "log", location.file, String(location.record ?? 0))
        var here = location
        here.key = id
        try context.claim(id, table: "log", at: here)
        var log = try brewLog(fields, outer: outer, id: id, entity: "BrewLog", time: time)
        log.recipeID = log.snapshot?.sourceID
        context.batch.logs.append(log)
    }

    /// A brew log from its fields (a DTO's summary or a store row) and the detail around it. Its
    /// snapshot holds what the log itself recorded; the linker adds what it lacks.
    func brewLog(_ fields: FieldReader, outer: FieldReader, id: String, entity: String, time: String) throws -> Log {
        var fields = fields
        var outer = outer
        let file = fields.location.file
        fields.location.key = id
        outer.location.key = id
        fields.skip("id")
        var log = Log(id: id, source: SourceRef(app: .brewguide, entity: entity, key: id, file: context.fileName(file)),
                      kind: "brew", createdAt: time, modifiedAt: time)
        log.startedAt = try fields.date("timestamp")
        if let started = log.startedAt {
            log.createdAt = started
            log.modifiedAt = started
        } else {
            context.report.synthesized(table: "log", field: "created_at", from: "modification time of \(context.fileName(file))")
        }
        if let rating = try fields.integer("rating") {
            guard (1...5).contains(rating) else {
                throw fields.error(.invalidValue("rating \(rating) is not between 1 and 5"), "rating")
            }
            log.rating = Double(rating)
        }
        log.outcome = try enumValue(&fields, "tasteTag", Self.tastes)
        log.note = try outer.string("note") ?? fields.string("note")
        var snapshot = LogSnapshot(sourceType: "recipe", sourceID: try fields.uuid("recipeId"))
        snapshot.kind = "coffee"
        snapshot.title = try fields.string("recipeNameAtBrew")
        snapshot.method = try enumValue(&fields, "method", Self.methods)
        // Detail DTOs carry the brew parameters beside the summary; store rows carry them inline.
        let parametersInOuter = outer.has("doseGrams")
        var source = parametersInOuter ? outer : fields
        let parameters = try self.parameters(&source, names: ("doseGrams", "targetYieldGrams", "waterTemperatureCelsius", "grindLabel"))
        if parametersInOuter { outer = source } else { fields = source }
        snapshot.parameters = Self.snapshotParameters(parameters)
        log.snapshot = snapshot
        log.title = snapshot.title
        log.extras = Self.merged(outer.extras, fields.extras)
        context.report.extras(app: .brewguide, entity: entity, log.extras)
        return log
    }

    /// A brew log read in place (``BrewLogInPlace``): what ``brewLog(_:summary:location:time:)``
    /// makes of the same record, with the same reports in the same order.
    private func brewLog(_ read: BrewLogInPlace, location: RecordLocation, time: String) throws {
        var here = location
        here.key = read.id
        try context.claim(read.id, table: "log", at: here)
        let file = location.file
        var log = Log(id: read.id, source: SourceRef(app: .brewguide, entity: "BrewLog", key: read.id, file: context.fileName(file)),
                      kind: "brew", createdAt: time, modifiedAt: time)
        if let timestamp = read.timestamp, let seconds = context.dates.unixSeconds(number: timestamp) {
            let started = CanonicalTime.string(unixSeconds: seconds)
            log.startedAt = started
            log.createdAt = started
            log.modifiedAt = started
        } else {
            context.report.synthesized(table: "log", field: "created_at", from: "modification time of \(context.fileName(file))")
        }
        log.rating = read.rating.map(Double.init)
        log.outcome = read.tasteTag.map { Self.tastes.normalize($0, file: file, field: "tasteTag", report: context.report) }
        log.note = read.note
        var snapshot = LogSnapshot(sourceType: "recipe", sourceID: read.recipeID)
        snapshot.kind = "coffee"
        snapshot.title = read.recipeName
        snapshot.method = read.method.map { Self.methods.normalize($0, file: file, field: "method", report: context.report) }
        let grind = read.grind.map { Self.grinds.normalize($0, file: file, field: "grindLabel", report: context.report) }
        snapshot.parameters = Self.snapshotParameters(Self.parameters(dose: read.dose, yield: read.yield, temperature: read.temperature, grind: grind))
        log.snapshot = snapshot
        log.title = snapshot.title
        log.recipeID = snapshot.sourceID
        context.batch.logs.append(log)
    }

    static func snapshotParameters(_ parameters: [RecipeParameter]) -> JSONObject {
        // Members gathered into arrays of their exact size, then made objects: growing small
        // objects member by member, each looked up by key first, was a sixth of reading a log.
        var members: [(key: String, value: JSONValue)] = []
        members.reserveCapacity(parameters.count)
        // Each entry's members in key order, as the store writes them: the writer need not sort
        // them. The parameters keep the recipe's order, which `reconstructed_fields` follows.
        for parameter in parameters {
            var entry: [(key: String, value: JSONValue)] = []
            entry.reserveCapacity((parameter.text == nil ? 0 : 1) + (parameter.unit == nil ? 0 : 1) + (parameter.value == nil ? 0 : 1))
            if let text = parameter.text { entry.append(("text", .string(text))) }
            if let unit = parameter.unit { entry.append(("unit", .string(unit))) }
            if let value = parameter.value { entry.append(("value", .double(value))) }
            // A name given twice keeps its first place and its last value, as setting a member does.
            if let index = members.firstIndex(where: { $0.key == parameter.name }) {
                members[index].value = .object(JSONObject(entry))
            } else {
                members.append((parameter.name, .object(JSONObject(entry))))
            }
        }
        return JSONObject(members)
    }

    static func merged(_ a: JSONObject, _ b: JSONObject) -> JSONObject {
        var result = a
        for member in b { result[member.key] = member.value }
        return result
    }
}
