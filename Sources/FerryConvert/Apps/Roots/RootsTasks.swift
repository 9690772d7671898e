import FerryCanonical
import FerryJSON
import FerryCoreData
import Foundation

/// `tasks.json`: an array of tasks (`AppTask`) that become assignment projects under their course.
/// Legacy type raw values are normalized as the app itself does: `problemSet` and
/// `practiceHomework` → homework, `examPrep` → exam, `meeting` → project, unknown → homework.
extension RootsNormalizer {
    static let taskTypes = EnumNormalizer(known: ["project", "exam", "quiz", "homework", "reading", "review", "study"],
                                          aliases: ["problemSet": "homework", "practiceHomework": "homework",
                                                    "examPrep": "exam", "meeting": "project"],
                                          fallback: "homework")

    func tasks(_ documents: JSONDocuments, time: String) throws {
        guard documents.document?.array != nil else {
            throw ConversionError(.wrongType(expected: "an array of tasks", found: documents.document?.kindName ?? "several values"),
                                  at: RecordLocation(file: documents.path))
        }
        try eachObject(documents.records.map(\.value), file: documents.path) { fields, _ in try task(fields, time: time) }
    }

    func task(_ fields: FieldReader, time: String) throws {
        var fields = fields
        let file = fields.location.file
        var project = try newProject(&fields, entity: "AppTask", kind: "assignment", time: time)
        project.title = try fields.requiredString("title")
        project.parentID = try fields.uuid("courseId", "course")
        let type = try fields.string("type").map { Self.taskTypes.normalize($0, file: file, field: "type", report: context.report) }
        let category = try fields.string("category").map { Self.taskTypes.normalize($0, file: file, field: "category", report: context.report) }
        project.category = category ?? type
        let due = try fields.value(fields.resolve(["due", "dueDate"])).map { value -> Double in
            guard let seconds = context.dates.unixSeconds(value) else {
                throw fields.error(.wrongType(expected: "a date", found: value.shortDescription), "due")
            }
            return seconds
        }
        project.dueTimeMinutes = try fields.integer("dueTimeMinutes")
        if let due {
            project.dueAt = CanonicalTime.string(unixSeconds: due + Double(project.dueTimeMinutes ?? 0) * 60)
        }
        project.estimatedMinutes = try fields.double("estimatedMinutes")
        project.minBlockMinutes = try fields.double("minBlockMinutes")
        project.maxBlockMinutes = try fields.double("maxBlockMinutes")
        project.difficulty = try fields.double("difficulty")
        project.importance = try fields.double("importance")
        project.isLocked = try fields.bool("locked") ?? false
        let rawRecurrence = fields.object["recurrence"]
        project.recurrence = try recurrence(&fields)
        project.status = try fields.bool("isCompleted") == true ? "completed" : "open"
        project.gradeWeightPercent = try fields.double("gradeWeightPercent")
        project.gradePossible = try fields.double("gradePossiblePoints")
        project.gradeEarned = try fields.double("gradeEarnedPoints")
        project.notes = try fields.string("notes")
        project.attachments = try attachments(&fields, key: "attachments", ownerID: project.id)
        try recordTimes(&fields, &project.createdAt, &project.modifiedAt, table: "project", marking: &project.synthesizedTimes)
        var extras = fields.extras
        // The day the task is due on, as stored, when a time of day was added to it.
        if let due, project.dueTimeMinutes != nil { extras["due"] = .string(CanonicalTime.string(unixSeconds: due)) }
        if let type, type != project.category { extras["type"] = .string(type) }
        if project.recurrence == nil, let rawRecurrence, !rawRecurrence.isNull { extras["recurrence"] = rawRecurrence }
        finish(extras, entity: "AppTask", &project, keyPath: \.extras)
        context.batch.projects.append(project)
    }

    /// `{frequency, interval, end: {"never": {}} | {"afterOccurrences": {"_0": n}} | {"until": {"_0": date}}, skipPolicy}`,
    /// or a legacy string `daily|weekly|biweekly|monthly|yearly`, as canonical
    /// `{frequency, interval, end: {kind, count?, date?}, skipPolicy}`.
    func recurrence(_ fields: inout FieldReader) throws -> JSONValue? {
        guard let value = fields.value("recurrence") else { return nil }
        let presets: [String: (String, Int)] = ["daily": ("daily", 1), "weekly": ("weekly", 1), "biweekly": ("weekly", 2),
                                                "monthly": ("monthly", 1), "yearly": ("yearly", 1)]
        if case .string(let legacy) = value {
            guard let (frequency, interval) = presets[legacy] else {
                context.report.unknownEnum(file: fields.location.file, field: "recurrence", value: legacy, mappedTo: "no recurrence (kept in extras)")
                return nil
            }
            return ["frequency": .string(frequency), "interval": .integer(interval), "end": ["kind": "never"], "legacy": .string(legacy)]
        }
        guard let object = value.object else {
            throw fields.error(.wrongType(expected: "an object or a string", found: value.shortDescription), "recurrence")
        }
        var rule = fields.nested(object, field: "recurrence")
        let frequency = try rule.requiredString("frequency")
        guard ["daily", "weekly", "monthly", "yearly"].contains(frequency) else {
            throw rule.error(.invalidValue("unknown frequency \"\(frequency)\""), "frequency")
        }
        var result = JSONObject()
        result["frequency"] = .string(frequency)
        result["interval"] = .integer(max(1, try rule.integer("interval") ?? 1))
        if let end = try rule.object("end") {
            result["end"] = try recurrenceEnd(end, rule.nested(end, field: "end"))
        } else {
            result["end"] = ["kind": "never"]
        }
        if let skip = try rule.object("skipPolicy") { result["skipPolicy"] = .object(skip) }
        for member in rule.extras { result[member.key] = member.value }
        return .object(result)
    }

    private func recurrenceEnd(_ end: JSONObject, _ fields: FieldReader) throws -> JSONValue {
        guard end.count == 1, let (key, payload) = end.members.first.map({ ($0.key, $0.value) }) else {
            throw ConversionError(.invalidValue("expected exactly one case, found \(end.count)"), at: fields.location)
        }
        let argument = payload.object?["_0"]
        switch key {
        case "never":
            return ["kind": "never"]
        case "afterOccurrences":
            guard let count = argument?.number?.int64 else {
                throw fields.error(.wrongType(expected: "a count", found: argument?.shortDescription ?? "nothing"), "afterOccurrences._0")
            }
            return ["kind": "afterOccurrences", "count": .integer(count)]
        case "until":
            guard let argument, let seconds = context.dates.unixSeconds(argument) else {
                throw fields.error(.wrongType(expected: "a date", found: argument?.shortDescription ?? "nothing"), "until._0")
            }
            return ["kind": "until", "date": .string(CanonicalTime.string(unixSeconds: seconds))]
        default:
            throw ConversionError(.invalidValue("unknown case \"\(key)\""), at: fields.location)
        }
    }

    /// `grades.json`: `[{courseId, percent, letter, updatedAt}]`, one grade per course.
    func grades(_ documents: JSONDocuments) throws {
        try eachObject(documents.records.map(\.value), file: documents.path) { fields, _ in try grade(fields) }
    }

    /// One course's grade, onto the course.
    func grade(_ fields: FieldReader) throws {
        var fields = fields
        let course = try fields.requiredUUID("courseId")
        fields.location.key = course
        guard let index = context.batch.projects.firstIndex(where: { $0.id == course && $0.kind == "course" }) else {
            throw fields.error(.invalidValue("course \(course) is not in this conversion; convert courses.json with grades.json"), "courseId")
        }
        context.batch.projects[index].gradePercent = try fields.double("percent")
        context.batch.projects[index].gradeLetter = try fields.string("letter")
        if let updated = try fields.date("updatedAt") {
            context.batch.projects[index].modifiedAt = max(context.batch.projects[index].modifiedAt, updated)
            context.batch.projects[index].extras["gradeUpdatedAt"] = .string(updated)
        }
        for member in fields.extras { context.batch.projects[index].extras["grade." + member.key] = member.value }
        context.report.extras(app: .roots, entity: "GradeEntry", fields.extras)
    }
}
