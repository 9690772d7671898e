import FerryCanonical
import FerryJSON
import FerryCoreData
import Foundation

extension BrewGuideNormalizer {
    /// A brew log read in place (``BrewLogInPlace``): what ``brewLog(_:summary:location:time:)``
    /// makes of the same record, with the same reports in the same order.
    func brewLog(_ read: BrewLogInPlace, location: RecordLocation, time: String) throws {
        var here = location
        here.key = read.id
        try context.claim(read.id, table: "log", at: here)
        let file = location.file
        var log = Log(id: read.id, source: SourceRef(app: .brewguide, entity: "BrewLog", key: read.id, file: context.fileName(file)),
                      kind: "brew", createdAt: time, modifiedAt: time)
        if let seconds = read.unixTime ?? read.timestamp.flatMap({ context.dates.unixSeconds(number: $0) }) {
            let started = CanonicalTime.string(unixSeconds: seconds)
            log.startedAt = started
            log.createdAt = started
            log.modifiedAt = started
        } else {
            fileTimeStandsIn(for: &log, file: file)
        }
        log.rating = read.rating.map(Double.init)
        log.outcome = read.tasteTag.map { Self.tastes.normalize($0, file: file, field: "tasteTag", report: context.report) }
        log.note = read.note
        var snapshot = LogSnapshot(sourceType: "recipe", sourceID: read.recipeID)
        snapshot.kind = "coffee"
        snapshot.title = read.recipeName
        snapshot.method = read.method.map { Self.methods.normalize($0, file: file, field: "method", report: context.report) }
        let grind = read.grind.map { Self.grinds.normalize($0, file: file, field: "grindLabel", report: context.report) }
        snapshot.parameters = LogSnapshot.parameters(of: Self.parameters(dose: read.dose, yield: read.yield, temperature: read.temperature, grind: grind))
        log.snapshot = snapshot
        log.title = snapshot.title
        log.recipeID = snapshot.sourceID
        context.batch.logs.append(log)
    }
}
