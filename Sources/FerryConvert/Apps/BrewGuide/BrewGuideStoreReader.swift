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
        try index.forEachRecord(of: ["BrewLog"]) { record in
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
}
