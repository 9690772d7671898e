import FerryCanonical
import FerryCoreData
import FerryModel
import FerryStore

/// Roots' legacy JSON into Roots' own Core Data model (`Roots.xcdatamodeld`: Semester, Course,
/// Assignment, Attachment, TimerSession), from the canonical records the JSON became:
/// semesters, courses and assignment projects, focus-session logs, attachments. The other
/// records Roots keeps (activities, plans, scheduled sessions, outline nodes, settings) have no
/// entity in that model and are reported, as is every value no attribute holds.
struct RootsModelMapping: AppModelMapping {
    private typealias Project = ProjectTable
    private typealias File = AttachmentTable
    let app = "Roots"
    let entities = ["Semester", "Course", "Assignment", "Attachment", "TimerSession"]

    /// Project kinds written, parents first, so that a to-one names a key already given.
    private static let projectEntities: [(kind: String, entity: String)] = [("semester", "Semester"), ("course", "Course"), ("assignment", "Assignment")]

    func write(_ rows: CanonicalRows, model: DataModel, into writer: CoreDataStoreWriter, notMapped: inout NotMappedTally,
               attempts: RecordAttempts) throws -> [String: Int] {
        var written: [String: (entity: String, primaryKey: Int64)] = [:]
        var counts: [String: Int] = [:]
        var tally = notMapped
        defer { notMapped = tally }
        func insert(_ object: MappedObject, toOne: [String: (entity: String, primaryKey: Int64)] = [:]) throws {
            let values = try object.completedValues()
            let key = try writer.insert(object.entity.name, attributes: values, toOne: toOne)
            for name in object.leftovers { tally.add(name, reason: "no attribute of \(object.entity.name) holds it") }
            if let id = object.row.text(SharedColumns.id) { written[id] = (object.entity.name, key) }
            counts[object.entity.name, default: 0] += 1
        }
        func owner(_ object: inout MappedObject, column: CanonicalColumn, as relationship: String, entity: String) -> [String: (entity: String, primaryKey: Int64)] {
            object.use(column)
            guard let id = object.row.text(column) else { return [:] }
            guard let target = written[id], target.entity == entity else {
                tally.add("\(object.row.table).\(column.name)", reason: "\(object.entity.name).\(relationship) leads to a \(entity); this record's names another kind")
                return [:]
            }
            return [relationship: target]
        }

        var projectKinds: [String: String] = [:]
        try rows.each(Project.table) { row in
            if let id = row.text(Project.id), let kind = row.text(Project.kind) { projectKinds[id] = kind }
        }
        for (kind, entity) in Self.projectEntities {
            try rows.each(Project.table, where: Project.kind, isOneOf: [kind]) { row in
                try attempts.run(row) {
                    guard row.text(Project.sourceApp) == SourceApp.roots.rawValue else { return }   // counted with the records not written, below
                    var object = try MappedObject(row, as: entity, in: model)
                    try common(&object)
                    switch entity {
                    case "Semester": try semester(&object); try insert(object)
                    case "Course":
                        try course(&object)
                        let semester = owner(&object, column: Project.parentID, as: "semester", entity: "Semester")
                        try insert(object, toOne: semester)
                    default:
                        try assignment(&object, &tally)
                        let course = owner(&object, column: Project.parentID, as: "course", entity: "Course")
                        try insert(object, toOne: course)
                    }
                }
            }
        }
        try rows.each(File.table) { row in
            try attempts.run(row) {
                var object = try MappedObject(row, as: "Attachment", in: model)
                let ownerID = row.text(File.projectID) ?? ""
                guard let target = written[ownerID] else {
                    tally.add("attachment of a \(projectKinds[ownerID] ?? (row.text(File.logID) != nil ? "log" : "recipe"))",
                              reason: "Roots' model has attachments only for its own entities")
                    return
                }
                try attachment(&object, rows)
                object.use(File.projectID)
                if target.entity == "Assignment" {
                    try insert(object, toOne: ["assignment": target])
                } else {
                    tally.add("\(File.table).\(File.projectID)", reason: "Roots' model links attachments to assignments only; this one's \(target.entity) is not kept")
                    try insert(object)
                }
            }
        }
        try rows.each(LogTable.table) { row in
            try attempts.run(row) {
                guard row.text(LogTable.kind) == "focus-session", row.text(LogTable.sourceApp) == SourceApp.roots.rawValue else {
                    tally.add("log kind \(row.text(LogTable.kind) ?? "?")", reason: "Roots' model has no entity for these records")
                    return
                }
                var object = try MappedObject(row, as: "TimerSession", in: model)
                try timerSession(&object, projectKinds: projectKinds)
                try insert(object)
            }
        }
        for (id, kind) in projectKinds where written[id] == nil && !attempts.rejectedIDs.contains(id) {
            tally.add("project kind \(kind)", reason: "Roots' model has no entity for these records")
        }
        for table in [RecipeTable.table, ProjectStepTable.table, MaterialLineTable.table, LogSnapshotTable.table, ReferenceLinkTable.table,
                      NameTables.projectTag.table, NameTables.logTag.table, NameTables.projectTechnique.table, NameTables.logTechnique.table] {
            var count = 0
            try rows.each(table) { _ in count += 1 }
            if count > 0 { tally.add(table, reason: "Roots' model has no entity for these records", count: count) }
        }
        return counts
    }

    /// What every project kind has: id and times; semesters and courses, notes and the archive flag.
    private func common(_ object: inout MappedObject) throws {
        try object.columns([Project.id: "id", Project.createdAt: "createdAt", Project.modifiedAt: "updatedAt"])
        if object.entity.name == "Semester" { try object.column(Project.deletedAt, to: "deletedAt") }
        // Assignments have neither (a set flag or a note is reported).
        if object.entity.name != "Assignment" {
            try object.column(Project.isArchived, to: "isArchived")
            try object.column(Project.notes, to: "notes")
        }
    }

    private func semester(_ object: inout MappedObject) throws {
        try object.columns([Project.category: "semesterTerm", Project.startAt: "startDate", Project.endAt: "endDate"])
        try object.extras(["academicYear", "educationLevel", "gradProgram"])
        // "current" is the courses file's currentSemesterId naming this semester.
        try object.set("isCurrent", .integer(object.row.text(Project.status) == "current" ? 1 : 0), from: Project.status.name)
        object.use(Project.status, Project.title)   // the title is Ferry's: term and year
        object.use(extras: "currentSemesterId", "isCurrent")
    }

    private func course(_ object: inout MappedObject) throws {
        try object.columns([Project.code: "code", Project.title: "title", Project.category: "courseType"])
        try object.extras(["colorHex", "credits", "creditType", "instructor", "location", "meetingTimes", "syllabus"])
    }

    private func assignment(_ object: inout MappedObject, _ tally: inout NotMappedTally) throws {
        try object.column(Project.title, to: "title")
        try object.column(Project.category, to: "category")
        try object.set("isCompleted", .integer(object.row.text(Project.status) == "completed" ? 1 : 0), from: Project.status.name)
        object.use(Project.status)
        try object.column(Project.isLocked, to: "locked")
        // The day it is due on, as stored, and the time of day apart (due_at is the two joined).
        if object.extras["due"] != nil { try object.extra("due", to: "dueDate") } else { try object.column(Project.dueAt, to: "dueDate") }
        object.use(Project.dueAt)
        try object.column(Project.dueTimeMinutes, to: "dueTimeMinutes")
        try object.columns([Project.estimatedMinutes: "estimatedMinutes", Project.minBlockMinutes: "minBlockMinutes",
                            Project.maxBlockMinutes: "maxBlockMinutes", Project.difficulty: "difficulty", Project.importance: "importance",
                            Project.gradeEarned: object.attribute("gradeEarnedPoints", "gradeEarned"),
                            Project.gradePossible: object.attribute("gradePossiblePoints", "gradePossible"),
                            Project.gradeWeightPercent: "gradeWeightPercent"])
        try object.extras(["calendarEventIdentifier", "recurrenceIndex", "recurrenceSeriesID"])
        // The legacy type, where it differs from the category it was normalized into.
        if object.extras["type"] != nil { try object.extra("type", to: "type") } else { try object.column(Project.category, to: "type") }
        if object.row[Project.recurrence] != .null {
            object.use(Project.recurrence)
            tally.add("\(Project.table).\(Project.recurrence)", reason: "Assignment.recurrenceData is the app's own encoding of the rule, not seen in any file here; "
                + "the rule stays in the canonical store")
        }
    }

    private func attachment(_ object: inout MappedObject, _ rows: CanonicalRows) throws {
        // Roots' earlier model names them name, localURL, dateAdded and data.
        try object.columns([File.id: "id", File.name: object.attribute("fileName", "name"), File.localURL: object.attribute("fileURL", "localURL"),
                            File.mediaType: "mimeType", File.byteCount: "fileSize", File.addedAt: object.attribute("createdAt", "dateAdded")])
        if object.extras["updatedAt"] != nil {
            try object.extra("updatedAt", to: "updatedAt")
        } else if object.has("updatedAt") {
            try object.column(File.addedAt, to: "updatedAt")
        }
        if let sha256 = object.row.text(File.sha256), let data = try rows.attachmentData(sha256: sha256) {
            try object.set(object.attribute("fileData", "data"), .blob(data), from: File.sha256.name)
        }
        object.use(File.sha256, File.position)   // the place in the owner's list, which the model does not keep
    }

    private func timerSession(_ object: inout MappedObject, projectKinds: [String: String]) throws {
        try object.columns([LogTable.id: "id", LogTable.createdAt: "createdAt", LogTable.modifiedAt: "updatedAt", LogTable.startedAt: "startedAt",
                            LogTable.endedAt: "endedAt", LogTable.durationSeconds: object.attribute("durationSeconds", "duration")])
        try object.extra("mode", to: "mode")
        // What the session was for: an activity, an assignment or a course, by id.
        if let id = object.row.text(LogTable.projectID) {
            let attribute = ["activity": "activityID", "assignment": "assignmentId", "course": "courseId"][projectKinds[id] ?? ""]
            if let attribute { try object.column(LogTable.projectID, to: attribute) }
        }
        object.use(LogTable.title)   // the activity's name, which Ferry copies onto the log
    }
}
