import FerryJSON
import FerryStore

/// A recipe with what other apps' formats can carry of it, read from a frozen copy of the store.
package struct RecipeRecord {
    package struct Step {
        package var title, instruction: String?
        /// The section a step belongs to (schema.org's `HowToSection`), kept in the step's extras.
        package var section: String?
        /// What a format that has only a text per step shows: the instruction, else the title.
        package var text: String? { instruction ?? title }
    }

    package struct Image {
        package var name: String?
        package var mediaType: String?
        package var sha256: String?
        package var tag: String?
        /// Whether the store holds the file's bytes (`attachment_content`).
        package var hasBytes: Bool
    }

    package var row: TextRow
    /// The recipe's `extras`, read.
    package var extras = JSONObject()
    /// JSON columns of the recipe or its steps that do not read (a damaged row; the tables carry
    /// them as stored): the formats count them as dropped.
    package var unreadable: [String] = []
    package var ingredients: [String] = []
    package var steps: [Step] = []
    package var tags: [String] = []
    package var images: [Image] = []
    /// Parameters as lines (`dose: 15 g`, `grind: medium`): recipe formats have no place for named
    /// values, and a coffee recipe's dose and water are what its ingredients would be.
    package var parameters: [String] = []
    /// Reference links, which recipe formats have no place for.
    package var linkCount = 0

    package var id: String { row[RecipeTable.id] ?? "" }
    package var title: String { row[RecipeTable.title] ?? "" }
    package subscript(_ column: CanonicalColumn) -> String? { row[column] }
    /// A number column's value when it is one a format can write: finite, and below a billion
    /// (minutes, servings); nil otherwise, which the writers count as dropped.
    package func number(_ column: CanonicalColumn) -> Double? {
        guard let value = row[column].flatMap(Double.init), value.isFinite, abs(value) < 1e9 else { return nil }
        return value
    }

    /// Whether a column holds a value ``number(_:)`` cannot give.
    package func hasUnwritableNumber(_ column: CanonicalColumn) -> Bool { row[column] != nil && number(column) == nil }
}

/// JSON column text, read. Only a damaged row holds text that does not read (the schema's CHECK
/// keeps these columns valid JSON): nil then, which callers count as dropped, never as empty.
package enum StoredJSON {
    package static func read(_ text: String) -> JSONValue? {
        do {
            return try JSONReader().read(Array(text.utf8))
        } catch {
            return nil
        }
    }
}

/// Every recipe of a frozen copy in id order, a batch at a time, with its parts.
package enum RecipeRecords {
    private typealias Column = RecipeTable
    package static let columns = Selection([
        Column.id, Column.title, Column.kind, Column.sourceApp, Column.summary, Column.instructions, Column.sourceURL, Column.author,
        Column.difficulty, Column.category, Column.servings, Column.prepMinutes, Column.cookMinutes, Column.estimatedMinutes,
        Column.isFavorite, Column.createdAt, Column.modifiedAt, Column.deletedAt, Column.extras,
    ])
    private static let stepColumns = Selection([
        RecipeStepTable.recipeID, RecipeStepTable.id, RecipeStepTable.title, RecipeStepTable.instruction, RecipeStepTable.extras,
    ])
    static let batchSize = 500

    /// Calls `body` with each recipe not deleted in its app, in id order.
    /// - Returns: the recipes left out as deleted.
    @discardableResult
    package static func each(_ session: FrozenStoreSession, _ body: (RecipeRecord) throws -> Void) throws -> Int {
        var ids: [String] = []
        try session.select("SELECT \(Column.id) FROM \(Column.table) WHERE \(Column.deletedAt) IS NULL ORDER BY \(Column.id)") { row in ids.append(row.text(0) ?? "") }
        for start in stride(from: 0, to: ids.count, by: batchSize) {
            for record in try batch(Array(ids[start..<min(ids.count, start + batchSize)]), session: session) { try body(record) }
        }
        return try session.count("SELECT count(*) FROM \(Column.table) WHERE \(Column.deletedAt) IS NOT NULL")
    }

    /// The recipes with these ids, in the order given (ids not in the store are left out).
    /// - Parameter parts: their shared parts, when the caller has read them already (the view's page).
    package static func batch(_ ids: [String], session: FrozenStoreSession, parts given: OwnedParts? = nil) throws -> [RecipeRecord] {
        let rows = try OwnedParts.records(session, Column.table, columns: columns, ids: ids)
        let arguments = [OwnedParts.idList(ids)]
        let parts = try given ?? OwnedParts(of: .recipe, ids: ids, session: session)
        let steps = try OwnedParts.grouped(session, stepColumns, from: RecipeStepTable.table, page: OwnedParts.inPage, arguments,
                                           order: "\(RecipeStepTable.position), \(RecipeStepTable.id)")
        typealias Parameter = RecipeParameterTable
        var parameters: [String: [String]] = [:]
        try session.select("""
            SELECT \(Parameter.recipeID), \(Parameter.name), \(Parameter.value), \(Parameter.textValue), \(Parameter.unit) FROM \(Parameter.table)
            WHERE \(Parameter.recipeID) \(OwnedParts.inPage) ORDER BY \(Parameter.recipeID), \(Parameter.position), \(Parameter.name)
            """, arguments) { row in
            let value = [row.text(2) ?? row.text(3), row.text(4)].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
            parameters[row.text(0) ?? "", default: []].append("\(row.text(1) ?? ""): \(value)")
        }
        let names = try catalogNames(parts, session: session)
        return ids.compactMap { id in
            guard let row = rows[id] else { return nil }
            var record = RecipeRecord(row: row)
            if let text = row[Column.extras] {
                if let value = StoredJSON.read(text) { record.extras = value.object ?? JSONObject() } else { record.unreadable.append("\(Column.table).\(Column.extras.name)") }
            }
            record.ingredients = (parts.materials[id] ?? []).map { ingredientLine($0, names: names) }.filter { !$0.isEmpty }
            record.steps = (steps[id] ?? []).map { step in
                let text = step[RecipeStepTable.extras]
                let extras = text.flatMap(StoredJSON.read)?.object
                if text != nil, extras == nil { record.unreadable.append("\(RecipeStepTable.table).\(RecipeStepTable.extras.name)") }
                return RecipeRecord.Step(title: step[RecipeStepTable.title], instruction: step[RecipeStepTable.instruction],
                                         section: extras?["section"]?.string)
            }
            record.tags = parts.tags[id] ?? []
            record.images = (parts.attachments[id] ?? []).filter { isImage($0) }.map { file in
                RecipeRecord.Image(name: file[AttachmentTable.name], mediaType: file[AttachmentTable.mediaType], sha256: file[AttachmentTable.sha256],
                                   tag: file[AttachmentTable.tag], hasBytes: file.computed(0) == "1")
            }
            record.parameters = parameters[id] ?? []
            record.linkCount = parts.links[id]?.count ?? 0
            return record
        }
    }

    /// A material line as one line of text, as recipe apps keep ingredients: quantity, unit,
    /// what (the catalog item's name, else its key, else the description), notes after a comma.
    static func ingredientLine(_ line: TextRow, names: [String: String]) -> String {
        let what = line[MaterialLineTable.description] ?? line[MaterialLineTable.catalogKey].map { names[$0] ?? $0 }
        var text = [line[MaterialLineTable.quantity], line[MaterialLineTable.unit], what].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        if let notes = line[MaterialLineTable.notes], !notes.isEmpty { text += text.isEmpty ? notes : ", \(notes)" }
        return text
    }

    private static func catalogNames(_ parts: OwnedParts, session: FrozenStoreSession) throws -> [String: String] {
        let keys = Set(parts.materials.values.flatMap { $0.compactMap { $0[MaterialLineTable.catalogKey] } })
        guard !keys.isEmpty else { return [:] }
        var names: [String: String] = [:]
        try session.select("SELECT \(CatalogItemTable.naturalKey), \(CatalogItemTable.name) FROM \(CatalogItemTable.table) WHERE \(CatalogItemTable.naturalKey) \(OwnedParts.inPage)",
                           [OwnedParts.idList(keys.sorted())]) { row in
            if let key = row.text(0), let name = row.text(1) { names[key] = name }
        }
        return names
    }

    /// Images by media type or name, as the view shows them.
    static func isImage(_ file: TextRow) -> Bool {
        if let type = file[AttachmentTable.mediaType]?.lowercased(), type.hasPrefix("image/") { return true }
        let name = (file[AttachmentTable.name] ?? file[AttachmentTable.localURL] ?? "").lowercased()
        return [".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".avif", ".heic"].contains { name.hasSuffix($0) }
    }
}
