import FerryCanonical
import FerryJSON
import FerryCoreData
import Foundation

/// Brew logs, read from their DTO JSON: each a snapshot of the recipe it was brewed with.
extension BrewGuideNormalizer {
    func brewLog(_ detail: JSONObject, summary: JSONObject, location: RecordLocation, time: String) throws {
        let (outer, fields, id) = try nestedRecord(summary, in: detail, under: "summary", table: "log", location: location)
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
            fileTimeStandsIn(for: &log, file: file)
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
        snapshot.parameters = LogSnapshot.parameters(of: parameters)
        log.snapshot = snapshot
        log.title = snapshot.title
        log.extras = Self.merged(outer.extras, fields.extras)
        context.report.extras(app: .brewguide, entity: entity, log.extras)
        return log
    }
}

extension BrewGuideNormalizer {
    /// A brew log without a timestamp keeps the input file's time as its created and modified
    /// times: reported, and marked on the row.
    func fileTimeStandsIn(for log: inout Log, file: String) {
        context.synthesized([SynthesizedTimes.createdAt, SynthesizedTimes.modifiedAt], table: "log", from: "modification time of \(context.fileName(file))",
                            marking: &log.synthesizedTimes)
    }
}
