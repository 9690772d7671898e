import FerryCanonical
import FerryJSON
import FerryCoreData

/// BrewGuide's SwiftData store: `Recipe` rows with their `RecipeStep`s, and `BrewLog` rows,
/// whose fields are named as the app's DTOs name them. Without a model cache the schema is
/// inferred and names are lower case; the readers match them regardless of case. Logs are
/// streamed from the store and flushed in batches: a store of millions of logs converts in flat memory.
struct BrewGuideStoreReader {
    /// Nothing looks a log up: it is read in its turn and let go.
    static let streamedEntities: Set<String> = ["BrewLog"]

    let context: ConversionContext
    let index: CoreDataRecordIndex
    let time: String
    var typedRows = true

    func convert() throws {
        try index.require(.brewguide, anyOf: ["Recipe", "BrewLog"])
        let normalizer = BrewGuideNormalizer(context: context)
        let empty = JSONObject()
        for record in index.records(of: ["Recipe"]) {
            try context.record {
                var (id, fields) = try context.take(record, from: index, app: .brewguide, claiming: "recipe")
                let steps = try fields.children(["steps"], entity: "RecipeStep", ownerKey: record.id, resolver: index)
                fields.skip("brewLogs")
                let outer = FieldReader(empty, at: fields.location, dates: context.dates)
                context.batch.recipes.append(try normalizer.recipe(fields, outer: outer, id: id, steps: steps, entity: record.entity, time: time))
            }
        }
        try index.forEachRecord(of: ["BrewLog"], typed: typedLogs(normalizer)) { record in
            try context.record {
                var (id, fields) = try context.take(record, from: index, app: .brewguide, claiming: "log")
                let recipe = try fields.string("recipe").flatMap { index.canonicalID(ofRowID: $0, app: .brewguide) }
                let outer = FieldReader(empty, at: fields.location, dates: context.dates)
                var log = try normalizer.brewLog(fields, outer: outer, id: id, entity: record.entity, time: time)
                if let recipe {
                    log.recipeID = recipe
                    log.snapshot?.sourceID = recipe
                }
                context.batch.logs.append(log)
            }
            try context.flushIfNeeded()
        }
    }

    /// The attributes a BrewGuide log row has, in the order ``typedLogs(_:)`` reads them.
    static let logAttributes = ["id", "timestamp", "method", "recipeNameAtBrew", "rating", "tasteTag", "note",
                                "doseGrams", "targetYieldGrams", "waterTemperatureCelsius", "grindLabel"]

    /// Log rows read typed, as the DTO files' logs are read in place: no record object, no field
    /// reader. Only for a log entity of exactly these attributes and the recipe (anything else
    /// would be extras); a row whose values the general reading would judge differently (a
    /// non-canonical id, a rating out of range, a value of another type, a date out of range)
    /// goes the general way, so the result is the same either way.
    private func typedLogs(_ normalizer: BrewGuideNormalizer) -> TypedRows? {
        guard typedRows, let entity = index.reader.mapping.entity(named: "BrewLog"),
              Set(entity.attributes.filter { $0.column != nil }.map { $0.attribute.name.lowercased() }) == Set(Self.logAttributes.map { $0.lowercased() }),
              entity.relationships.map({ $0.relationship.name.lowercased() }) == ["recipe"] else { return nil }
        let path = index.reader.path
        return TypedRows(entity: "BrewLog", attributes: Self.logAttributes, toOnes: ["recipe"]) { row in
            guard var read = BrewLogRow(row).log else { return false }
            read.recipeID = row.targets[0].flatMap { index.canonicalID(ofRowID: $0, app: .brewguide) }
            index.takeStreamed("BrewLog")
            try context.record { try normalizer.brewLog(read, location: RecordLocation(file: path), time: time) }
            try context.flushIfNeeded()
            return true
        }
    }
}

/// A store's log row as ``BrewLogInPlace``, or nil when the general reading must judge it.
private struct BrewLogRow {
    let log: BrewLogInPlace?

    init(_ row: TypedRow) {
        let cells = row.cells
        func text(_ index: Int) -> String?? {
            switch cells[index] {
            case .null: return .some(nil)
            case .text(let value): return .some(value)
            default: return nil
            }
        }
        func number(_ index: Int) -> Double?? {
            switch cells[index] {
            case .null: return .some(nil)
            case .real(let value): return .some(value)
            case .integer(let value): return .some(Double(value))
            default: return nil
            }
        }
        var rating: Int64?
        switch cells[4] {
        case .null: rating = nil
        case .integer(let value) where (1...5).contains(value): rating = value
        default: log = nil; return
        }
        var unixTime: Double?
        switch cells[1] {
        case .null: unixTime = nil
        case .real, .integer:
            // The instant the dump's own text reads as, as the general reading takes it (to the microsecond).
            guard let seconds = number(1).flatMap({ $0 }), let unix = CoreDataDate.unixSeconds(secondsSince2001: seconds) else {
                log = nil
                return
            }
            unixTime = unix
        default: log = nil; return
        }
        guard StableID.normalized(row.id) == row.id, let method = text(2), let recipeName = text(3), let tasteTag = text(5), let note = text(6),
              let dose = number(7), let yield = number(8), let temperature = number(9), let grind = text(10) else {
            log = nil
            return
        }
        log = BrewLogInPlace(id: row.id, timestamp: nil, method: method, recipeName: recipeName, rating: rating, tasteTag: tasteTag,
                             recipeID: nil, note: note, dose: dose, yield: yield, temperature: temperature, grind: grind, unixTime: unixTime)
    }
}
