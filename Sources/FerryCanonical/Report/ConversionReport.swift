/// What a conversion did, for people (a summary on stderr) and scripts (`--report FILE`,
/// schema `Formats/json/conversion-report.schema.json`).
public struct ConversionReport: Sendable, Encodable {
    public struct Input: Sendable, Encodable, Hashable {
        public var path: String
        /// What Ferry took it for: `roots tasks`, `molten store`, `brewguide DTO JSON`, …
        public var detected: String
        public var records: Int
    }

    public struct Skipped: Sendable, Encodable, Hashable {
        public var path: String
        public var reason: String
    }

    public struct Synthesized: Sendable, Encodable, Hashable {
        public var table: String
        public var field: String
        /// How the value was made: `modification time of tasks.json`, `semester term and start year`.
        public var from: String
        public var count: Int
    }

    public struct Reconstructed: Sendable, Encodable, Hashable {
        public var log: String
        public var from: String
        public var fields: [String]
    }

    public struct Dangling: Sendable, Encodable, Hashable {
        public var file: String
        public var record: String
        public var field: String
        public var value: String
        /// What Ferry did: the link is left empty and the id kept in extras.
        public var action: String
    }

    public struct UnknownEnum: Sendable, Encodable, Hashable {
        public var file: String
        public var field: String
        public var value: String
        public var mappedTo: String
        public var count: Int
    }

    public struct Extra: Sendable, Encodable, Hashable {
        public var app: String
        public var entity: String
        public var field: String
        public var count: Int
    }

    public struct Rejected: Sendable, Encodable, Hashable {
        public var file: String
        public var record: Int?
        public var key: String?
        public var field: String?
        public var message: String
    }

    /// Recipes of the store that name the same page (``SourceURL/matchKey(_:)``): one recipe
    /// brought in from two apps (a Paprika export and the site's JSON-LD), or twice from one.
    public struct SameSource: Sendable, Encodable, Hashable {
        public struct Recipe: Sendable, Encodable, Hashable {
            public var id: String
            public var app: String
            public var title: String
            public var sourceURL: String

            public init(id: String, app: String, title: String, sourceURL: String) {
                (self.id, self.app, self.title, self.sourceURL) = (id, app, title, sourceURL)
            }
        }

        /// The page's key: host, path and query, as ``SourceURL/matchKey(_:)`` gives it.
        public var page: String
        public var recipes: [Recipe]

        public init(page: String, recipes: [Recipe]) {
            (self.page, self.recipes) = (page, recipes)
        }
    }

    public var format = "ferry.conversion/1"
    public var store: String
    public var dryRun: Bool
    public var inputs: [Input] = []
    public var skipped: [Skipped] = []
    /// Rows of the inputs per canonical table: written (or that would be, with --dry-run), or
    /// found in the store as they are.
    public var counts: [String: Int] = [:]
    /// Per record table (recipe, project, log): how many records were new to the store, changed
    /// (written again) or unchanged (found as they are, not written).
    public var changes: [String: RecordChanges] = [:]
    public var synthesized: [Synthesized] = []
    public var reconstructedSnapshots: [Reconstructed] = []
    public var danglingReferences: [Dangling] = []
    public var unknownEnumValues: [UnknownEnum] = []
    /// Legacy fields with no canonical column, kept in the rows' extras.
    public var extras: [Extra] = []
    public var rejected: [Rejected] = []
    public var sameSourceURL: [SameSource] = []
    public var backup: String?
    /// With `--as core-data`: the Core Data store written from the converted records.
    public var coreData: CoreDataOutput?
    public var warnings: [String] = []
    /// Entries past the first ``ReportBuilder/listLimit`` of a list, counted, not listed.
    public var omitted: [String: Int] = [:]

    public init(store: String, dryRun: Bool) {
        self.store = store
        self.dryRun = dryRun
    }

    /// A record set aside after the batch was written (one an app's model cannot take, with
    /// `--keep-going`), so that the report and the exit status say so.
    public mutating func reject(file: String, key: String?, message: String) {
        rejected.append(Rejected(file: file, record: nil, key: key, field: nil, message: message))
    }
}

/// What `ferry convert --as core-data` wrote into the Core Data store, and what it left out.
public struct CoreDataOutput: Sendable, Encodable {
    /// A value or record of the canonical store that no attribute of the app's model holds.
    public struct NotMapped: Sendable, Encodable, Equatable {
        /// `<table>.<column>`, `<table>.extras.<key>` or `<table> kind <kind>` (whole records).
        public var from: String
        public var count: Int
        public var reason: String
    }

    /// The model written for: its file, or `Ferry.xcdatamodeld` (built in).
    public var model: String
    /// Objects written per entity.
    public var objects: [String: Int]
    public var notMapped: [NotMapped]

    public init(model: String, objects: [String: Int], notMapped: [NotMapped] = []) {
        self.model = model
        self.objects = objects
        self.notMapped = notMapped
    }
}

/// Canonical values and records left out of an app's model, counted by where they come from.
public struct NotMappedTally: Sendable {
    public init() {}

    private var counts: [Pair: Int] = [:]

    private struct Pair: Hashable, Comparable, Sendable {
        var from: String
        var reason: String
        static func < (a: Pair, b: Pair) -> Bool { (a.from, a.reason) < (b.from, b.reason) }
    }

    public mutating func add(_ from: String, reason: String, count: Int = 1) {
        counts[Pair(from: from, reason: reason), default: 0] += count
    }

    public var entries: [CoreDataOutput.NotMapped] {
        counts.sorted { $0.key < $1.key }.map { CoreDataOutput.NotMapped(from: $0.key.from, count: $0.value, reason: $0.key.reason) }
    }
}

/// What one conversion did with one table's records, judged against the store it wrote into.
public struct RecordChanges: Sendable, Codable, Equatable {
    /// Records whose id the store did not hold.
    public var new = 0
    /// Records the store held with other rows: written again.
    public var changed = 0
    /// Records the store held with exactly these rows: not written.
    public var unchanged = 0

    public init(new: Int = 0, changed: Int = 0, unchanged: Int = 0) {
        (self.new, self.changed, self.unchanged) = (new, changed, unchanged)
    }

    public mutating func add(_ other: RecordChanges) {
        new += other.new
        changed += other.changed
        unchanged += other.unchanged
    }
}
