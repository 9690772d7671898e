import FerryCanonical
import FerryJSON

/// The `log` table (`Formats/canonical-schema.md`). Logs are bound where they lie (an
/// `UnsafePointer`): a log handed over by value was copied first, a retain and a release of each
/// of its strings, and a conversion writes millions (``LogRowTaker``).
package enum LogTable {
    package static let table = "log"
    package static let id = SharedColumns.id
    package static let sourceApp = SharedColumns.sourceApp
    package static let sourceEntity = SharedColumns.sourceEntity
    package static let sourceKey = SharedColumns.sourceKey
    package static let sourceFile = SharedColumns.sourceFile
    package static let kind = CanonicalColumn("kind", .text, required: true)
    package static let title = CanonicalColumn("title", .text)
    package static let startedAt = CanonicalColumn("started_at", .text)
    package static let endedAt = CanonicalColumn("ended_at", .text)
    package static let durationSeconds = CanonicalColumn("duration_seconds", .real)
    package static let rating = CanonicalColumn("rating", .real)
    package static let outcome = CanonicalColumn("outcome", .text)
    package static let note = CanonicalColumn("note", .text)
    package static let recipeID = CanonicalColumn("recipe_id", .text)
    package static let projectID = CanonicalColumn("project_id", .text)
    package static let createdAt = SharedColumns.createdAt
    package static let modifiedAt = SharedColumns.modifiedAt
    package static let extras = SharedColumns.extras

    static let row = TableRow<UnsafePointer<Log>>(table, [
        fill(id) { $0.add($1.pointee.id) },
        fill(sourceApp) { $0.add($1.pointee.source.app.rawValue) },
        fill(sourceEntity) { $0.add($1.pointee.source.entity) },
        fill(sourceKey) { $0.add($1.pointee.source.key) },
        fill(sourceFile) { $0.add($1.pointee.source.file) },
        fill(kind) { $0.add($1.pointee.kind) },
        fill(title) { $0.add($1.pointee.title) },
        fill(startedAt) { $0.add($1.pointee.startedAt) },
        fill(endedAt) { $0.add($1.pointee.endedAt) },
        fill(durationSeconds) { $0.add($1.pointee.durationSeconds) },
        fill(rating) { $0.add($1.pointee.rating) },
        fill(outcome) { $0.add($1.pointee.outcome) },
        fill(note) { $0.add($1.pointee.note) },
        fill(recipeID) { $0.add($1.pointee.recipeID) },
        fill(projectID) { $0.add($1.pointee.projectID) },
        fill(createdAt) { $0.add($1.pointee.createdAt) },
        fill(modifiedAt) { $0.add($1.pointee.modifiedAt) },
        fill(extras) { $0.add(json: .object(SynthesizedTimes.extras($1.pointee.extras, marking: $1.pointee.synthesizedTimes))) },
    ], direct: { bindDirectly(&$0, $1) })

    /// The fields above in one function (``TableRow``'s `direct`).
    private static func bindDirectly(_ row: inout RowBinder, _ log: UnsafePointer<Log>) {
        row.add(log.pointee.id)
        row.add(log.pointee.source.app.rawValue)
        row.add(log.pointee.source.entity)
        row.add(log.pointee.source.key)
        row.add(log.pointee.source.file)
        row.add(log.pointee.kind)
        row.add(log.pointee.title)
        row.add(log.pointee.startedAt)
        row.add(log.pointee.endedAt)
        row.add(log.pointee.durationSeconds)
        row.add(log.pointee.rating)
        row.add(log.pointee.outcome)
        row.add(log.pointee.note)
        row.add(log.pointee.recipeID)
        row.add(log.pointee.projectID)
        row.add(log.pointee.createdAt)
        row.add(log.pointee.modifiedAt)
        row.add(json: .object(SynthesizedTimes.extras(log.pointee.extras, marking: log.pointee.synthesizedTimes)))
    }
}

/// `log_snapshot`: what a log's recipe or project was when the log was made; one row per log
/// that has one, bound from the log (whose `snapshot` the writer has checked is there).
package enum LogSnapshotTable {
    package static let table = "log_snapshot"
    package static let logID = CanonicalColumn("log_id", .text, required: true)
    package static let sourceType = CanonicalColumn("source_type", .text, required: true, rule: .oneOf(["recipe", "project"]))
    package static let sourceID = CanonicalColumn("source_id", .text, rule: .uuid)
    package static let title = CanonicalColumn("title", .text)
    package static let method = CanonicalColumn("method", .text)
    package static let kind = CanonicalColumn("kind", .text)
    package static let parameters = CanonicalColumn("parameters", .text, required: true, rule: .json)
    package static let isReconstructed = CanonicalColumn("is_reconstructed", .integer, required: true)
    package static let reconstructedFields = CanonicalColumn("reconstructed_fields", .text, required: true, rule: .json)

    static let row = TableRow<UnsafePointer<Log>>(table, [
        fill(logID) { $0.add($1.pointee.id) },
        fill(sourceType) { $0.add($1.pointee.snapshot.unsafelyUnwrapped.sourceType) },
        fill(sourceID) { $0.add($1.pointee.snapshot.unsafelyUnwrapped.sourceID) },
        fill(title) { $0.add($1.pointee.snapshot.unsafelyUnwrapped.title) },
        fill(method) { $0.add($1.pointee.snapshot.unsafelyUnwrapped.method) },
        fill(kind) { $0.add($1.pointee.snapshot.unsafelyUnwrapped.kind) },
        fill(parameters) { $0.add(json: .object($1.pointee.snapshot.unsafelyUnwrapped.parameters)) },
        fill(isReconstructed) { $0.add($1.pointee.snapshot.unsafelyUnwrapped.isReconstructed) },
        fill(reconstructedFields) { $0.add(json: .array($1.pointee.snapshot.unsafelyUnwrapped.reconstructedFields.map { .string($0) })) },
    ], direct: { bindDirectly(&$0, $1) })

    /// The fields above in one function (``TableRow``'s `direct`).
    private static func bindDirectly(_ row: inout RowBinder, _ log: UnsafePointer<Log>) {
        row.add(log.pointee.id)
        row.add(log.pointee.snapshot.unsafelyUnwrapped.sourceType)
        row.add(log.pointee.snapshot.unsafelyUnwrapped.sourceID)
        row.add(log.pointee.snapshot.unsafelyUnwrapped.title)
        row.add(log.pointee.snapshot.unsafelyUnwrapped.method)
        row.add(log.pointee.snapshot.unsafelyUnwrapped.kind)
        row.add(json: .object(log.pointee.snapshot.unsafelyUnwrapped.parameters))
        row.add(log.pointee.snapshot.unsafelyUnwrapped.isReconstructed)
        row.add(json: .array(log.pointee.snapshot.unsafelyUnwrapped.reconstructedFields.map { .string($0) }))
    }
}
