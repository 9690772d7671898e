import FerryCanonical
import FerryJSON
import FerryCoreData
import Foundation

/// `courses.json`: `{semesters, courses, outlineNodes, courseFiles, currentSemesterId}`.
/// Enum raw values are display strings ("Summer I", "Thesis/Dissertation") and are kept verbatim.
extension RootsNormalizer {
    func courses(_ documents: JSONDocuments, time: String) throws {
        let file = documents.path
        var top = try topFields(documents)
        let currentSemester = try top.uuid("currentSemesterId")
        try eachObject(under: "semesters", in: &top) { fields, _ in
            try semester(fields, time: time, isAppSelection: { $0 == currentSemester })
        }
        try eachObject(under: "courses", in: &top) { fields, _ in try course(fields, time: time) }
        try eachObject(under: "outlineNodes", in: &top) { fields, _ in
            try outlineNode(fields, time: time)
        }
        try eachObject(under: "courseFiles", in: &top) { fields, _ in try courseFile(fields) }
        if !top.extras.isEmpty {
            context.report.warning("\((file as NSString).lastPathComponent): top-level fields \(top.extras.keys.joined(separator: ", ")) kept on no record")
        }
    }

    func semester(_ fields: FieldReader, time: String, isAppSelection: (String) -> Bool) throws {
        var fields = fields
        var project = try newProject(&fields, entity: "Semester", kind: "semester", time: time)
        project.startAt = try fields.date("startDate")
        project.endAt = try fields.date("endDate")
        project.category = try fields.string("semesterTerm")
        if try fields.bool("isCurrent") == true { project.status = "current" }
        project.isArchived = try fields.bool("isArchived") ?? false
        project.deletedAt = try fields.date("deletedAt")
        project.notes = try fields.string("notes")
        // The app shows "<term> <start year>"; the file has no title.
        let year = project.startAt.map { String($0.prefix(4)) }
        project.title = [project.category ?? "Semester", year].compactMap { $0 }.joined(separator: " ")
        context.report.synthesized(table: "project", field: "title", from: "semester term and start year (semesters have no title)")
        try recordTimes(&fields, &project.createdAt, &project.modifiedAt, table: "project", marking: &project.synthesizedTimes)
        var extras = fields.extras
        if isAppSelection(project.id) { extras["currentSemesterId"] = true }
        finish(extras, entity: "Semester", &project, keyPath: \.extras)
        context.batch.projects.append(project)
    }

    func course(_ fields: FieldReader, time: String) throws {
        var fields = fields
        var project = try newProject(&fields, entity: "Course", kind: "course", time: time)
        project.parentID = try fields.uuid("semesterId", "semester")
        project.title = try fields.string("title") ?? ""
        project.code = try fields.string("code")
        project.category = try fields.string("courseType")
        project.isArchived = try fields.bool("isArchived") ?? false
        project.notes = try fields.string("notes")
        project.deletedAt = try fields.date("deletedAt")
        project.attachments = try attachments(&fields, key: "attachments", ownerID: project.id)
        try recordTimes(&fields, &project.createdAt, &project.modifiedAt, table: "project", marking: &project.synthesizedTimes)
        finish(fields.extras, entity: "Course", &project, keyPath: \.extras)
        context.batch.projects.append(project)
    }

    func outlineNode(_ fields: FieldReader, time: String) throws {
        var fields = fields
        var project = try newProject(&fields, entity: "CourseOutlineNode", kind: "outline-node", time: time)
        let course = try fields.uuid("courseId")
        project.parentID = try fields.uuid("parentId") ?? course
        project.title = try fields.string("title") ?? ""
        project.category = try fields.string("type")
        project.position = try fields.integer("sortIndex").map { Int($0) }
        // Each time the node lacks is the file's, and says so; one it has is its own.
        let created = try fields.date("createdAt"), updated = try fields.date("updatedAt")
        if let created { project.createdAt = created }
        if let updated { project.modifiedAt = updated }
        let standIns = (created == nil ? [SynthesizedTimes.createdAt] : []) + (updated == nil ? [SynthesizedTimes.modifiedAt] : [])
        if !standIns.isEmpty { syntheticTimes("project", file: fields.location.file, fields: standIns, marking: &project.synthesizedTimes) }
        var extras = fields.extras
        if let course, project.parentID != course { extras["courseId"] = .string(course) }
        finish(extras, entity: "CourseOutlineNode", &project, keyPath: \.extras)
        context.batch.projects.append(project)
    }

    /// Course files become attachments of their course (or outline node).
    func courseFile(_ fields: FieldReader) throws {
        var fields = fields
        let id = try fields.requiredUUID("id")
        try context.claim(id, table: "attachment", at: fields.location)
        let course = try fields.uuid("courseId")
        let node = try fields.uuid("nodeId")
        guard let ownerID = node ?? course else { throw fields.error(.missingField, "courseId") }
        guard let index = context.batch.projects.firstIndex(where: { $0.id == ownerID }) else {
            throw fields.error(.invalidValue("\(node == nil ? "course" : "outline node") \(ownerID) is not in this conversion; convert the whole courses.json"), node == nil ? "courseId" : "nodeId")
        }
        var attachment = Attachment(id: id, position: context.batch.projects[index].attachments.count)
        attachment.name = try fields.string("filename", "fileName")
        attachment.mediaType = try fields.string("fileType")
        attachment.localURL = try fields.string("localURL")
        attachment.addedAt = try fields.date("createdAt")
        attachment.sourceKey = id
        var extras = fields.extras
        if node != nil, let course { extras["courseId"] = .string(course) }
        finish(extras, entity: "CourseFile", &attachment, keyPath: \.extras)
        context.batch.projects[index].attachments.append(attachment)
    }

    /// `{id, name, localURL, dateAdded, tag, moduleNumber}` attachments of tasks and courses.
    func attachments(_ fields: inout FieldReader, key: String, ownerID: String) throws -> [Attachment] {
        var result: [Attachment] = []
        for (index, value) in (try fields.array(key) ?? []).enumerated() {
            guard let object = value.object else {
                throw fields.error(.wrongType(expected: "an object", found: value.shortDescription), "\(key)[\(index)]")
            }
            var item = fields.nested(object, field: "\(key)[\(index)]")
            let id = try item.uuid("id") ?? StableID.make("roots", ownerID, "attachment", String(index))
            var attachment = Attachment(id: id, position: index)
            attachment.name = try item.string("name")
            attachment.localURL = try item.string("localURL")
            attachment.addedAt = try item.date("dateAdded")
            attachment.tag = try item.string("tag")
            attachment.sourceKey = id
            finish(item.extras, entity: "Attachment", &attachment, keyPath: \.extras)
            result.append(attachment)
        }
        return result
    }

    /// Created and modified times: the record's own (`createdAt`, `updatedAt`, which Roots' Core
    /// Data store keeps), else the input file's modification time, reported as synthesized.
    func recordTimes(_ fields: inout FieldReader, _ created: inout String, _ modified: inout String, table: String,
                     marking marks: inout [String: String]) throws {
        let createdAt = try fields.date("createdAt"), updatedAt = try fields.date("updatedAt")
        guard let first = createdAt ?? updatedAt else {
            syntheticTimes(table, file: fields.location.file, marking: &marks)
            return
        }
        created = first
        modified = updatedAt ?? first
    }

    /// Roots' JSON has no created or modified times: the file's modification time stands in.
    /// - Parameter fields: the time columns the file's time stands in for (both unless the
    ///   record had one of its own).
    func syntheticTimes(_ table: String, file: String, fields: [String] = [SynthesizedTimes.createdAt, SynthesizedTimes.modifiedAt],
                        marking marks: inout [String: String]) {
        context.synthesized(fields, table: table, from: "modification time of \((file as NSString).lastPathComponent) (Roots keeps no timestamps)",
                            marking: &marks)
    }
}
