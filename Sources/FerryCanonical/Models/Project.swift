import FerryJSON

/// A unit of work that may nest: semester › course › assignment › study session; a
/// glass-art project log is a ``Log``, its plan a ``Recipe``. Stored in `project`.
public struct Project: Sendable, Hashable {
    public var id: String
    public var parentID: String?
    /// The recipe the project follows, if any.
    public var recipeID: String?
    public var source: SourceRef
    /// `semester`, `course`, `assignment`, `outline-node`, `study-session`, `activity`, `grocery-list`, …
    public var kind: String
    public var title: String = ""
    public var code, category, status: String?
    public var position: Int?
    public var startAt, endAt, dueAt: String?
    public var dueTimeMinutes: Int64?
    public var estimatedMinutes, minBlockMinutes, maxBlockMinutes: Double?
    public var difficulty, importance: Double?
    public var isLocked = false
    /// Normalized recurrence: `{frequency, interval, end: {never} | {afterOccurrences} | {until}, skipPolicy}`.
    public var recurrence: JSONValue?
    public var gradeWeightPercent, gradePossible, gradeEarned, gradePercent: Double?
    public var gradeLetter, notes: String?
    public var isArchived = false
    public var completedAt: String?
    public var createdAt, modifiedAt: String
    public var deletedAt: String?
    public var extras = JSONObject()
    /// The times Ferry made up, with what it took instead: written into `extras` (``SynthesizedTimes``).
    public var synthesizedTimes: [String: String] = [:]

    public var steps: [ProjectStep] = []
    public var materials: [MaterialLine] = []
    public var tags: [String] = []
    public var techniques: [String] = []
    public var references: [ReferenceLink] = []
    public var attachments: [Attachment] = []

    public init(id: String, source: SourceRef, kind: String, createdAt: String, modifiedAt: String) {
        (self.id, self.source, self.kind) = (id, source, kind)
        (self.createdAt, self.modifiedAt) = (createdAt, modifiedAt)
    }
}

/// One ordered step of a project, such as a step of an assignment's study plan.
public struct ProjectStep: Sendable, Hashable {
    public var id: String
    public var position: Int
    public var title, kind: String?
    public var estimatedMinutes: Double?
    public var startAt, dueAt: String?
    public var isCompleted = false
    public var completedAt, notes, sourceKey: String?
    public var extras = JSONObject()
    public var materials: [MaterialLine] = []

    public init(id: String, position: Int) {
        (self.id, self.position) = (id, position)
    }
}
