import FerryStore

/// The shared parts of one page's records (tags, techniques, materials, attachments, links),
/// asked of the snapshot once per page and grouped by their owner's id.
struct OwnedParts {
    enum Owner: String {
        case recipe, recipeStep = "recipe_step", project, projectStep = "project_step", log

        var column: String { "\(rawValue)_id" }
        /// Records of these kinds have tags and techniques of their own.
        var hasTags: Bool { self == .recipe || self == .project || self == .log }
        var hasTechniques: Bool { self == .project || self == .log }
        var hasAttachments: Bool { self == .recipe || self == .project || self == .log }
        var hasLinks: Bool { self == .recipe || self == .project }
    }

    var tags: [String: [String]] = [:]
    var techniques: [String: [String]] = [:]
    /// catalog_key, description, quantity, unit, notes.
    var materials: [String: [[String?]]] = [:]
    /// id, name, media_type, sha256, local_url, tag, byte_count, whether the bundle has its bytes.
    var attachments: [String: [[String?]]] = [:]
    /// url, title, description.
    var links: [String: [[String?]]] = [:]

    init() {}

    init(of owner: Owner, ids: [String], session: FrozenStoreSession) throws {
        guard !ids.isEmpty else { return }
        let column = owner.column
        let page = Self.inPage
        let arguments = [RecordPlaces.jsonArray(ids)]
        if owner.hasTags {
            tags = try Self.names(session, "SELECT j.\(column), t.name FROM \(owner.rawValue)_tag j JOIN tag t ON t.id = j.tag_id WHERE j.\(column) \(page) ORDER BY j.\(column), j.position, t.name", arguments)
        }
        if owner.hasTechniques {
            techniques = try Self.names(session, "SELECT j.\(column), t.name FROM \(owner.rawValue)_technique j JOIN technique t ON t.id = j.technique_id WHERE j.\(column) \(page) ORDER BY j.\(column), j.position, t.name", arguments)
        }
        materials = try Self.grouped(session, "SELECT \(column), catalog_key, description, quantity, unit, notes FROM material_line WHERE \(column) \(page) ORDER BY \(column), position, id", arguments)
        if owner.hasAttachments {
            attachments = try Self.grouped(session, """
                SELECT a.\(column), a.id, a.name, a.media_type, a.sha256, a.local_url, a.tag, a.byte_count,
                       EXISTS (SELECT 1 FROM attachment_content c WHERE c.sha256 = a.sha256)
                FROM attachment a WHERE a.\(column) \(page) ORDER BY a.\(column), a.position, a.id
                """, arguments)
        }
        if owner.hasLinks {
            links = try Self.grouped(session, "SELECT \(column), url, title, description FROM reference_link WHERE \(column) \(page) ORDER BY \(column), position, id", arguments)
        }
    }

    /// `… IN` the ids of one page, given as ``RecordPlaces/jsonArray(_:)``, the statement's one argument.
    static let inPage = "IN (SELECT value FROM json_each(?1))"

    /// A page's records of `table` by id (their first column), every column as text.
    static func records(_ session: FrozenStoreSession, _ table: String, columns: String, ids: [String]) throws -> [String: [String?]] {
        var rows: [String: [String?]] = [:]
        for row in try session.texts("SELECT \(columns) FROM \(table) WHERE id \(inPage)", [RecordPlaces.jsonArray(ids)]) { rows[row[0] ?? ""] = row }
        return rows
    }

    /// Rows by the owner in their first column, the other columns as text.
    static func grouped(_ session: FrozenStoreSession, _ sql: String, _ arguments: [String]) throws -> [String: [[String?]]] {
        var result: [String: [[String?]]] = [:]
        try session.select(sql, arguments) { row in
            guard let owner = row.text(0) else { return }
            result[owner, default: []].append((1..<row.columnCount).map { row.text($0) })
        }
        return result
    }

    private static func names(_ session: FrozenStoreSession, _ sql: String, _ arguments: [String]) throws -> [String: [String]] {
        try grouped(session, sql, arguments).mapValues { $0.compactMap { $0.first ?? nil } }
    }

    /// Whether any row of the store's shared parts belongs to a record of this kind: a page of
    /// logs asks for its parts only when some log has any.
    static func exist(for owner: Owner, session: FrozenStoreSession) throws -> Bool {
        var tables = ["material_line"]
        if owner.hasTags { tables.append("\(owner.rawValue)_tag") }
        if owner.hasTechniques { tables.append("\(owner.rawValue)_technique") }
        if owner.hasAttachments { tables.append("attachment") }
        for table in tables {
            if try session.count("SELECT EXISTS (SELECT 1 FROM \(table) WHERE \(owner.column) IS NOT NULL)") > 0 { return true }
        }
        return false
    }
}
