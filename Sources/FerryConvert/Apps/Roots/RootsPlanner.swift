import FerryCanonical
import FerryJSON
import FerryCoreData
import Foundation

/// `planner.json` (`{scheduled, overflow}` study sessions) and `assignment_plans.json`
/// (`{plans}` with ordered steps): projects under their assignment.
extension RootsNormalizer {
    func planner(_ documents: JSONDocuments, time: String) throws {
        let file = documents.path
        var top = try topFields(documents)
        for (key, kind) in [("scheduled", "study-session"), ("overflow", "unscheduled-session")] {
            try eachObject(under: key, in: &top) { fields, index in
                try session(fields, kind: kind, time: time)
            }
        }
        if !top.extras.isEmpty {
            context.report.warning("\((file as NSString).lastPathComponent): top-level fields \(top.extras.keys.joined(separator: ", ")) kept on no record")
        }
    }

    private func session(_ fields: FieldReader, kind: String, time: String) throws {
        var fields = fields
        let file = fields.location.file
        var project = try newProject(&fields, entity: kind == "study-session" ? "StoredScheduledSession" : "StoredOverflowSession", kind: kind, time: time)
        project.parentID = try fields.uuid("assignmentId")
        project.title = try fields.string("title") ?? ""
        project.position = try fields.integer("sessionIndex").map { Int($0) }
        project.dueAt = try fields.date("dueDate")
        project.estimatedMinutes = try fields.double("estimatedMinutes")
        project.category = try fields.string("category").map { Self.taskTypes.normalize($0, file: file, field: "category", report: context.report) }
        project.startAt = try fields.date("start")
        project.endAt = try fields.date("end")
        project.isLocked = try fields.bool("isLocked") ?? false
        let edited = try fields.date("userEditedAt")
        if let edited { project.modifiedAt = edited }
        syntheticTimes("project", file: file, fields: edited == nil ? [SynthesizedTimes.createdAt, SynthesizedTimes.modifiedAt] : [SynthesizedTimes.createdAt], marking: &project.synthesizedTimes)
        finish(fields.extras, entity: kind == "study-session" ? "StoredScheduledSession" : "StoredOverflowSession", &project, keyPath: \.extras)
        context.batch.projects.append(project)
    }

    /// Each plan is a project under its assignment, its steps in sequence order.
    func assignmentPlans(_ documents: JSONDocuments, time: String) throws {
        var top = try topFields(documents)
        try eachObject(under: "plans", in: &top) { fields, _ in
            var fields = fields
            var project = try newProject(&fields, entity: "AssignmentPlan", kind: "study-plan", time: time)
            project.parentID = try fields.requiredUUID("assignmentId")
            let version = try fields.integer("version")
            project.title = "Study plan" + (version.map { " v\($0)" } ?? "")
            context.report.synthesized(table: "project", field: "title", from: "\"Study plan\" and the plan version (plans have no title)")
            project.status = try fields.string("status")
            if let generated = try fields.date("generatedAt") { project.createdAt = generated; project.modifiedAt = generated } else {
                syntheticTimes("project", file: documents.path, marking: &project.synthesizedTimes)
            }
            for (index, value) in (try fields.array("steps") ?? []).enumerated() {
                guard let object = value.object else {
                    throw fields.error(.wrongType(expected: "an object", found: value.shortDescription), "steps[\(index)]")
                }
                project.steps.append(try planStep(fields.nested(object, field: "steps[\(index)]"), index: index, planID: project.id))
            }
            project.steps.sort { $0.position < $1.position }
            var extras = fields.extras
            if let version { extras["version"] = .integer(version) }
            finish(extras, entity: "AssignmentPlan", &project, keyPath: \.extras)
            context.batch.projects.append(project)
        }
    }

    private func planStep(_ fields: FieldReader, index: Int, planID: String) throws -> ProjectStep {
        var fields = fields
        let id = try fields.uuid("id") ?? StableID.make("roots", planID, "step", String(index))
        var step = ProjectStep(id: id, position: Int(try fields.integer("sequenceIndex") ?? Int64(index)))
        step.title = try fields.string("title")
        step.kind = try fields.string("stepType")
        step.estimatedMinutes = try fields.double("estimatedDuration").map { $0 / 60 }
        step.startAt = try fields.date("recommendedStartDate")
        step.dueAt = try fields.date("dueBy")
        step.isCompleted = try fields.bool("isCompleted") ?? false
        step.completedAt = try fields.date("completedAt")
        step.notes = try fields.string("notes")
        step.sourceKey = id
        fields.skip("planId")
        finish(fields.extras, entity: "PlanStep", &step, keyPath: \.extras)
        return step
    }
}
