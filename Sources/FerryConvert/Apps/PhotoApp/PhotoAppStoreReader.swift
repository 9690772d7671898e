import FerryCanonical
import FerryJSON
import FerryCoreData

/// PhotoApp's store (photo triage, in its planned model): each swipe session becomes a
/// project, each photo action a `photo-action` log of its session whose outcome is the action;
/// the user's preferences become an `app-settings` project.
struct PhotoAppStoreReader {
    let context: ConversionContext
    let index: CoreDataRecordIndex
    let time: String

    static let actions = EnumNormalizer(known: ["favorite", "trash", "keep"])
    /// A library's actions, one a photo, are read in their turn and let go: nothing looks one up.
    static let streamedEntities: Set<String> = ["PhotoAction"]

    func convert() throws {
        try index.require(.photoapp, anyOf: ["PhotoAction", "SwipeSession", "UserPreferences"])
        var sessions: [String: String] = [:]
        for record in index.records(of: ["SwipeSession"]) {
            try context.record {
                index.take(record)
                var fields = index.fields(record, dates: context.dates)
                let id = try fields.uuid("sessionID") ?? index.canonicalID(record, app: .photoapp)
                try context.claim(id, table: "project", at: fields.location)
                sessions[record.id] = id
                var project = Project(id: id, source: index.source(record, app: .photoapp), kind: "photo-session", createdAt: time, modifiedAt: time)
                project.startAt = try fields.date("startTime")
                project.endAt = try fields.date("endTime")
                project.title = "Swipe session" + (project.startAt.map { " \($0.prefix(16).replacingOccurrences(of: "T", with: " "))" } ?? "")
                context.report.synthesized(table: "project", field: "title", from: "the session's start time (sessions have no title)")
                if let start = project.startAt {
                    project.createdAt = start
                    project.modifiedAt = project.endAt ?? start
                } else {
                    synthesizedTimes(marking: &project.synthesizedTimes)
                }
                fields.skip("actions")
                finish(project, fields, entity: record.entity)
            }
        }
        try index.forEachRecord(of: Self.streamedEntities) { record in
            try context.record {
                var (id, fields) = try context.take(record, from: index, app: .photoapp, claiming: "log")
                var log = Log(id: id, source: index.source(record, app: .photoapp), kind: "photo-action", createdAt: time, modifiedAt: time)
                log.title = try fields.requiredString("photoIdentifier")
                log.outcome = try Self.actions.normalize(fields.requiredString("action"), file: fields.location.file, field: "action",
                                                         report: context.report)
                log.startedAt = try fields.date("timestamp")
                if let timestamp = log.startedAt {
                    log.createdAt = timestamp
                    log.modifiedAt = timestamp
                } else {
                    synthesizedTimes(table: "log", marking: &log.synthesizedTimes)
                }
                if let session = try fields.string("session") {
                    let projectID = sessions[session] ?? index.canonicalID(ofRowID: session, app: .photoapp) ?? session
                    log.projectID = projectID
                    // An action records nothing of its session: the linker copies it and marks it reconstructed.
                    log.snapshot = LogSnapshot(sourceType: "project", sourceID: projectID)
                }
                log.extras = fields.extras
                context.report.extras(app: .photoapp, entity: record.entity, log.extras)
                context.batch.logs.append(log)
            }
            try context.flushIfNeeded()
        }
        for record in index.records(of: ["UserPreferences"]) {
            try context.record {
                let (id, fields) = try context.take(record, from: index, app: .photoapp, claiming: "project")
                var project = Project(id: id, source: index.source(record, app: .photoapp), kind: "app-settings", createdAt: time, modifiedAt: time)
                project.title = "PhotoApp preferences"
                context.report.synthesized(table: "project", field: "title", from: "the entity (preferences have no title)")
                synthesizedTimes(marking: &project.synthesizedTimes)
                finish(project, fields, entity: record.entity)
            }
        }
    }

    /// Keeps the fields nothing read in the project's extras, reports them, and adds the project.
    private func finish(_ project: Project, _ fields: FieldReader, entity: String) {
        var project = project
        project.extras = fields.extras
        context.report.extras(app: .photoapp, entity: entity, project.extras)
        context.batch.projects.append(project)
    }

    private func synthesizedTimes(table: String = "project", marking marks: inout [String: String]) {
        context.synthesized([SynthesizedTimes.createdAt, SynthesizedTimes.modifiedAt], table: table, from: "modification time of \(index.fileName)", marking: &marks)
    }
}
