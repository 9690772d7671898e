import FerryJSON

/// A reusable how-to: a coffee recipe, a meal recipe, a glass-art plan. Snapshots in logs keep
/// what a recipe was when it was used; editing or deleting it later never changes them.
/// Stored in `recipe` and its child tables (`Formats/canonical-schema.md`).
public struct Recipe: Sendable, Hashable {
    public var id: String
    public var source: SourceRef
    /// `coffee`, `meal` or `glass`.
    public var kind: String
    public var method: String?
    /// The app's own classification: a glass plan's type (`recipe`, `idea`, `tutorial`…), a meal category.
    public var category: String?
    public var title: String = ""
    public var summary, instructions: String?
    /// `starter_template`, `custom`, `conflicted_copy`, `imported`.
    public var origin: String?
    public var isStarter = false
    public var sourceURL, author, difficulty: String?
    public var servings: Double?
    public var prepMinutes, cookMinutes, estimatedMinutes: Double?
    public var usageCount: Int64?
    public var lastUsedAt: String?
    public var isFavorite = false, isArchived = false
    public var isValid: Bool?
    public var createdAt, modifiedAt: String
    public var deletedAt: String?
    public var extras = JSONObject()
    /// The times Ferry made up, each with what it took instead (`modification time of
    /// recipes.json`): written into `extras` under ``SynthesizedTimes/key``.
    public var synthesizedTimes: [String: String] = [:]

    public var parameters: [RecipeParameter] = []
    public var steps: [RecipeStep] = []
    public var materials: [MaterialLine] = []
    public var tags: [String] = []
    public var references: [ReferenceLink] = []
    public var attachments: [Attachment] = []

    public init(id: String, source: SourceRef, kind: String, createdAt: String, modifiedAt: String) {
        (self.id, self.source, self.kind) = (id, source, kind)
        (self.createdAt, self.modifiedAt) = (createdAt, modifiedAt)
    }
}

/// A named setting of a recipe with its unit: dose 15 g, water temperature 94 °C, grind "medium".
public struct RecipeParameter: Sendable, Hashable {
    public var name: String
    public var value: Double?
    public var text, unit: String?

    public init(name: String, value: Double? = nil, text: String? = nil, unit: String? = nil) {
        (self.name, self.value, self.text, self.unit) = (name, value, text, unit)
    }
}

/// One ordered step of a recipe.
public struct RecipeStep: Sendable, Hashable {
    public var id: String
    public var position: Int
    public var title, instruction, kind: String?
    public var durationSeconds, waterGrams: Double?
    public var isCumulative: Bool?
    public var estimatedMinutes: Double?
    public var imageID, sourceKey: String?
    public var extras = JSONObject()
    public var materials: [MaterialLine] = []

    public init(id: String, position: Int) {
        (self.id, self.position) = (id, position)
    }
}
