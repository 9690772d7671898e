import FerryCanonical
import FerryJSON
import FerryCoreData
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
        let time = try context.fileTime(path)
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
        let time = try context.fileTime(documents.path)
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

    /// A DTO's record: its fields nested under `key` of the detail object (or the detail is
    /// empty and the record stands alone), its id (or one made from where it is) claimed in `table`.
    func nestedRecord(_ record: JSONObject, in detail: JSONObject, under key: String, table: String,
                      location: RecordLocation) throws -> (outer: FieldReader, fields: FieldReader, id: String) {
        var outer = FieldReader(detail, at: location, dates: context.dates)
        outer.skip(key)
        var fields = outer.nested(record, field: detail.isEmpty ? "" : key)
        if detail.isEmpty { fields.location.field = nil }
        let id = try fields.uuid("id") ?? StableID.make("brewguide", table, location.file, String(location.record ?? 0))
        var here = location
        here.key = id
        try context.claim(id, table: table, at: here)
        return (outer, fields, id)
    }

    private func recipeDetail(_ detail: JSONObject, recipe fields: JSONObject, location: RecordLocation, time: String) throws {
        var (outer, inner, id) = try nestedRecord(fields, in: detail, under: "recipe", table: "recipe", location: location)
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
        for (key, field) in [("createdAt", SynthesizedTimes.createdAt), ("modifiedAt", SynthesizedTimes.modifiedAt)] {
            if let time = try fields.date(key) {
                if field == SynthesizedTimes.createdAt { recipe.createdAt = time } else { recipe.modifiedAt = time }
            } else {
                context.synthesized([field], table: "recipe", from: "modification time of \(context.fileName(file))", marking: &recipe.synthesizedTimes)
            }
        }
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

    static func merged(_ a: JSONObject, _ b: JSONObject) -> JSONObject {
        var result = a
        for member in b { result[member.key] = member.value }
        return result
    }
}
