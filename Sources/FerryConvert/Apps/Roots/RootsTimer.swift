import FerryCanonical
import FerryJSON
import FerryCoreData
import Foundation

/// `TimerState.json`: activities (projects under their course), collections, past sessions
/// (focus-session logs linked to their activity), and the timer's settings.
extension RootsNormalizer {
    func timerState(_ documents: JSONDocuments, time: String) throws {
        let file = documents.path
        var top = try topFields(documents)
        try eachObject(under: "collections", in: &top) { fields, _ in
            var fields = fields
            var project = try newProject(&fields, entity: "ActivityCollection", kind: "activity-collection", time: time)
            project.title = try fields.string("name") ?? ""
            syntheticTimes("project", file: file, marking: &project.synthesizedTimes)
            finish(fields.extras, entity: "ActivityCollection", &project, keyPath: \.extras)
            context.batch.projects.append(project)
        }
        try eachObject(under: "activities", in: &top) { fields, _ in
            try activity(fields, time: time)
        }
        try eachObject(under: "pastSessions", in: &top) { fields, _ in
            try focusSession(fields, time: time)
        }
        // The rest is the timer's configuration: kept whole on one record rather than dropped.
        let settings = top.extras
        if !settings.isEmpty {
            let id = StableID.make("roots", "TimerState settings", (file as NSString).lastPathComponent)
            var project = Project(id: id, source: source("TimerState", id, file), kind: "app-settings", createdAt: time, modifiedAt: time)
            project.title = "Timer settings"
            syntheticTimes("project", file: file, marking: &project.synthesizedTimes)
            finish(settings, entity: "TimerState", &project, keyPath: \.extras)
            context.batch.projects.append(project)
        }
    }

    /// A timer activity: a project under its course (or assignment).
    func activity(_ fields: FieldReader, time: String) throws {
        var fields = fields
        var project = try newProject(&fields, entity: "TimerActivity", kind: "activity", time: time)
        project.title = try fields.string("name") ?? ""
        project.parentID = try fields.uuid("courseID") ?? fields.uuid("courseId") ?? fields.uuid("assignmentId")
        project.category = try fields.string("studyCategory")
        project.notes = try fields.string("note")
        try recordTimes(&fields, &project.createdAt, &project.modifiedAt, table: "project", marking: &project.synthesizedTimes)
        finish(fields.extras, entity: "TimerActivity", &project, keyPath: \.extras)
        context.batch.projects.append(project)
    }

    func focusSession(_ fields: FieldReader, time: String) throws {
        var fields = fields
        let file = fields.location.file
        let id = try fields.requiredUUID("id")
        try context.claim(id, table: "log", at: fields.location)
        var log = Log(id: id, source: source("FocusSession", id, file), kind: "focus-session", createdAt: time, modifiedAt: time)
        log.startedAt = try fields.date("startedAt")
        log.endedAt = try fields.date("endedAt")
        log.durationSeconds = try fields.double("actualDuration", "durationSeconds")
        log.outcome = try fields.string("state")
        // Roots' store keeps the assignment or course a session was for when it had no activity.
        log.projectID = try fields.uuid("activityID") ?? fields.uuid("activityId") ?? fields.uuid("assignmentId") ?? fields.uuid("courseId")
        if let started = log.startedAt { log.createdAt = started }
        if let ended = log.endedAt ?? log.startedAt { log.modifiedAt = ended }
        if log.startedAt == nil {
            syntheticTimes("log", file: file, fields: log.endedAt == nil ? [SynthesizedTimes.createdAt, SynthesizedTimes.modifiedAt] : [SynthesizedTimes.createdAt], marking: &log.synthesizedTimes)
        }
        // The session stores no copy of its activity: the linker fills the snapshot from it.
        if let activity = log.projectID { log.snapshot = LogSnapshot(sourceType: "project", sourceID: activity) }
        finish(fields.extras, entity: "FocusSession", &log, keyPath: \.extras)
        context.batch.logs.append(log)
    }
}
