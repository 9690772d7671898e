import FerryJSON

/// A dated record of doing something: a brew, a glass-art project, a focus session, a photo
/// decision. It links to the recipe or project it used (the link becomes NULL when that is
/// deleted) and keeps its own ``LogSnapshot`` of what it was at that moment.
public struct Log: Sendable, Hashable {
    public var id: String
    public var source: SourceRef
    /// `brew`, `project`, `focus-session`, `photo-action`.
    public var kind: String
    public var title: String?
    public var startedAt, endedAt: String?
    public var durationSeconds, rating: Double?
    /// What came of it: a taste tag, a project status, a photo action.
    public var outcome: String?
    public var note, recipeID, projectID: String?
    public var createdAt, modifiedAt: String
    public var extras = JSONObject()
    /// The times Ferry made up, with what it took instead: written into `extras` (``SynthesizedTimes``).
    public var synthesizedTimes: [String: String] = [:]

    public var snapshot: LogSnapshot?
    public var tags: [String] = []
    public var techniques: [String] = []
    public var materials: [MaterialLine] = []
    public var attachments: [Attachment] = []

    public init(id: String, source: SourceRef, kind: String, createdAt: String, modifiedAt: String) {
        (self.id, self.source, self.kind) = (id, source, kind)
        (self.createdAt, self.modifiedAt) = (createdAt, modifiedAt)
    }
}

/// What the recipe or project a log used was when the log was made: its name and parameters.
/// Reconstructed snapshots were filled from the referenced record at conversion time because
/// the legacy log lacked its own values; `reconstructedFields` says which.
public struct LogSnapshot: Sendable, Hashable {
    /// `recipe` or `project`.
    public var sourceType: String
    /// The id of the recipe or project then; kept even after it is deleted.
    public var sourceID: String?
    public var title, method, kind: String?
    /// Name → `{value, unit}` or `{text}`.
    public var parameters = JSONObject()
    public var isReconstructed = false
    public var reconstructedFields: [String] = []

    public init(sourceType: String, sourceID: String?, title: String? = nil, method: String? = nil, kind: String? = nil) {
        (self.sourceType, self.sourceID) = (sourceType, sourceID)
        (self.title, self.method, self.kind) = (title, method, kind)
    }
}
