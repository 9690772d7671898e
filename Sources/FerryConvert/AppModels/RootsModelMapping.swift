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
            if let id = object.row.text("id") { written[id] = (object.entity.name, key) }
            counts[object.entity.name, default: 0] += 1
        }
        func owner(_ object: inout MappedObject, column: String, as relationship: String, entity: String) -> [String: (entity: String, primaryKey: Int64)] {
            object.use(column)
            guard let id = object.row.text(column) else { return [:] }
            guard let target = written[id], target.entity == entity else {
                tally.add("\(object.row.table).\(column)", reason: "\(object.entity.name).\(relationship) leads to a \(entity); this record's names another kind")
                return [:]
            }
            return [relationship: target]
        }

        var projectKinds: [String: String] = [:]
        try rows.each("project") { row in
            if let id = row.text("id"), let kind = row.text("kind") { projectKinds[id] = kind }
        }
        for (kind, entity) in Self.projectEntities {
            try rows.each("project", where: "kind", isOneOf: [kind]) { row in
                try attempts.run(row) {
                    guard row.text("source_app") == "roots" else { return }   // counted with the records not written, below
                    var object = try MappedObject(row, as: entity, in: model)
                    try common(&object)
                    switch entity {
                    case "Semester": try semester(&object); try insert(object)
                    case "Course":
                        try course(&object)
                        let semester = owner(&object, column: "parent_id", as: "semester", entity: "Semester")
                        try insert(object, toOne: semester)
                    default:
                        try assignment(&object, &tally)
                        let course = owner(&object, column: "parent_id", as: "course", entity: "Course")
                        try insert(object, toOne: course)
                    }
                }
            }
        }
        try rows.each("attachment") { row in
            try attempts.run(row) {
                var object = try MappedObject(row, as: "Attachment", in: model)
                let ownerID = row.text("project_id") ?? ""
                guard let target = written[ownerID] else {
                    tally.add("attachment of a \(projectKinds[ownerID] ?? (row.text("log_id") != nil ? "log" : "recipe"))",
                              reason: "Roots' model has attachments only for its own entities")
                    return
                }
                try attachment(&object, rows)
                object.use("project_id")
                if target.entity == "Assignment" {
                    try insert(object, toOne: ["assignment": target])
                } else {
                    tally.add("attachment.project_id", reason: "Roots' model links attachments to assignments only; this one's \(target.entity) is not kept")
                    try insert(object)
                }
            }
        }
        try rows.each("log") { row in
            try attempts.run(row) {
                guard row.text("kind") == "focus-session", row.text("source_app") == "roots" else {
                    tally.add("log kind \(row.text("kind") ?? "?")", reason: "Roots' model has no entity for these records")
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
        for table in ["recipe", "project_step", "material_line", "log_snapshot", "reference_link", "project_tag", "log_tag", "project_technique", "log_technique"] {
            var count = 0
            try rows.each(table) { _ in count += 1 }
            if count > 0 { tally.add(table, reason: "Roots' model has no entity for these records", count: count) }
        }
        return counts
    }

    /// What every project kind has: id and times; semesters and courses, notes and the archive flag.
    private func common(_ object: inout MappedObject) throws {
        try object.columns(["id": "id", "created_at": "createdAt", "modified_at": "updatedAt"])
        if object.entity.name == "Semester" { try object.column("deleted_at", to: "deletedAt") }
        // Assignments have neither (a set flag or a note is reported).
        if object.entity.name != "Assignment" {
            try object.column("is_archived", to: "isArchived")
            try object.column("notes", to: "notes")
        }
    }

    private func semester(_ object: inout MappedObject) throws {
        try object.columns(["category": "semesterTerm", "start_at": "startDate", "end_at": "endDate"])
        try object.extras(["academicYear", "educationLevel", "gradProgram"])
        // "current" is the courses file's currentSemesterId naming this semester.
        try object.set("isCurrent", .integer(object.row.text("status") == "current" ? 1 : 0), from: "status")
        object.use("status", "extras.currentSemesterId", "extras.isCurrent", "title")   // the title is Ferry's: term and year
    }

    private func course(_ object: inout MappedObject) throws {
        try object.columns(["code": "code", "title": "title", "category": "courseType"])
        try object.extras(["colorHex", "credits", "creditType", "instructor", "location", "meetingTimes", "syllabus"])
    }

    private func assignment(_ object: inout MappedObject, _ tally: inout NotMappedTally) throws {
        try object.column("title", to: "title")
        try object.column("category", to: "category")
        try object.set("isCompleted", .integer(object.row.text("status") == "completed" ? 1 : 0), from: "status")
        object.use("status")
        try object.column("is_locked", to: "locked")
        // The day it is due on, as stored, and the time of day apart (due_at is the two joined).
        if object.extras["due"] != nil { try object.extra("due", to: "dueDate") } else { try object.column("due_at", to: "dueDate") }
        object.use("due_at")
        try object.column("due_time_minutes", to: "dueTimeMinutes")
        try object.columns(["estimated_minutes": "estimatedMinutes", "min_block_minutes": "minBlockMinutes", "max_block_minutes": "maxBlockMinutes",
                            "difficulty": "difficulty", "importance": "importance",
                            "grade_earned": object.attribute("gradeEarnedPoints", "gradeEarned"),
                            "grade_possible": object.attribute("gradePossiblePoints", "gradePossible"), "grade_weight_percent": "gradeWeightPercent"])
        try object.extras(["calendarEventIdentifier", "recurrenceIndex", "recurrenceSeriesID"])
        // The legacy type, where it differs from the category it was normalized into.
        if object.extras["type"] != nil { try object.extra("type", to: "type") } else { try object.column("category", to: "type") }
        if object.row["recurrence"] != .null {
            object.use("recurrence")
            tally.add("project.recurrence", reason: "Assignment.recurrenceData is the app's own encoding of the rule, not seen in any file here; "
                + "the rule stays in the canonical store")
        }
    }

    private func attachment(_ object: inout MappedObject, _ rows: CanonicalRows) throws {
        // Roots' earlier model names them name, localURL, dateAdded and data.
        try object.columns(["id": "id", "name": object.attribute("fileName", "name"), "local_url": object.attribute("fileURL", "localURL"),
                            "media_type": "mimeType", "byte_count": "fileSize", "added_at": object.attribute("createdAt", "dateAdded")])
        if object.extras["updatedAt"] != nil {
            try object.extra("updatedAt", to: "updatedAt")
        } else if object.has("updatedAt") {
            try object.column("added_at", to: "updatedAt")
        }
        if let sha256 = object.row.text("sha256"), let data = try rows.attachmentData(sha256: sha256) {
            try object.set(object.attribute("fileData", "data"), .blob(data), from: "sha256")
        }
        object.use("sha256", "position")   // the place in the owner's list, which the model does not keep
    }

    private func timerSession(_ object: inout MappedObject, projectKinds: [String: String]) throws {
        try object.columns(["id": "id", "created_at": "createdAt", "modified_at": "updatedAt", "started_at": "startedAt",
                            "ended_at": "endedAt", "duration_seconds": object.attribute("durationSeconds", "duration")])
        try object.extra("mode", to: "mode")
        // What the session was for: an activity, an assignment or a course, by id.
        if let id = object.row.text("project_id") {
            let attribute = ["activity": "activityID", "assignment": "assignmentId", "course": "courseId"][projectKinds[id] ?? ""]
            if let attribute { try object.column("project_id", to: attribute) }
        }
        object.use("title")   // the activity's name, which Ferry copies onto the log
    }
}
