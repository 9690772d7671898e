import FerryCanonical
import FerryJSON
import Foundation

/// `material_line`: what a recipe, step, project, project step or log uses, each line held by
/// exactly one of them.
package enum MaterialLineTable {
    package static let table = "material_line"
    package static let id = SharedColumns.id
    package static let recipeID = CanonicalColumn("recipe_id", .text, rule: .owner)
    package static let recipeStepID = CanonicalColumn("recipe_step_id", .text, rule: .owner)
    package static let projectID = CanonicalColumn("project_id", .text, rule: .owner)
    package static let projectStepID = CanonicalColumn("project_step_id", .text, rule: .owner)
    package static let logID = CanonicalColumn("log_id", .text, rule: .owner)
    package static let position = CanonicalColumn("position", .integer, required: true)
    package static let catalogKey = CanonicalColumn("catalog_key", .text)
    package static let description = CanonicalColumn("description", .text)
    package static let quantity = CanonicalColumn("quantity", .text)
    package static let unit = CanonicalColumn("unit", .text)
    package static let notes = CanonicalColumn("notes", .text)
    package static let sourceKey = SharedColumns.sourceKey
    package static let extras = SharedColumns.extras

    package static let owners = [recipeID, recipeStepID, projectID, projectStepID, logID]
    static var columns: [CanonicalColumn] { [id] + owners + values.map(\.column) }

    /// The row of a line held by `owner`, one of ``owners``.
    static func row(owner: CanonicalColumn) -> TableRow<Owned<MaterialLine>> {
        TableRow(table, [fill(id) { $0.add($1.part.id) }, fill(owner) { $0.add($1.owner) }] + values)
    }

    private static let values: [TableRow<Owned<MaterialLine>>.Field] = [
        fill(position) { $0.add($1.part.position) },
        fill(catalogKey) { $0.add($1.part.catalogKey) },
        fill(description) { $0.add($1.part.description) },
        fill(quantity) { $0.add($1.part.quantity) },
        fill(unit) { $0.add($1.part.unit) },
        fill(notes) { $0.add($1.part.notes) },
        fill(sourceKey) { $0.add($1.part.sourceKey) },
        fill(extras) { $0.add(json: .object($1.part.extras)) },
    ]
}

/// `reference_link`: a web page a recipe or project links to.
package enum ReferenceLinkTable {
    package static let table = "reference_link"
    package static let id = SharedColumns.id
    package static let recipeID = CanonicalColumn("recipe_id", .text, rule: .owner)
    package static let projectID = CanonicalColumn("project_id", .text, rule: .owner)
    package static let position = CanonicalColumn("position", .integer, required: true)
    package static let url = CanonicalColumn("url", .text, required: true)
    package static let title = CanonicalColumn("title", .text)
    package static let description = CanonicalColumn("description", .text)
    package static let addedAt = CanonicalColumn("added_at", .text)
    package static let sourceKey = SharedColumns.sourceKey
    package static let extras = SharedColumns.extras

    package static let owners = [recipeID, projectID]
    static var columns: [CanonicalColumn] { [id] + owners + values.map(\.column) }

    static func row(owner: CanonicalColumn) -> TableRow<Owned<ReferenceLink>> {
        TableRow(table, [fill(id) { $0.add($1.part.id) }, fill(owner) { $0.add($1.owner) }] + values)
    }

    private static let values: [TableRow<Owned<ReferenceLink>>.Field] = [
        fill(position) { $0.add($1.part.position) },
        fill(url) { $0.add($1.part.url) },
        fill(title) { $0.add($1.part.title) },
        fill(description) { $0.add($1.part.description) },
        fill(addedAt) { $0.add($1.part.addedAt) },
        fill(sourceKey) { $0.add($1.part.sourceKey) },
        fill(extras) { $0.add(json: .object($1.part.extras)) },
    ]
}

/// `attachment`: a file a recipe, project or log holds; its bytes, when the input had them, in
/// `attachment_content` by their SHA-256.
package enum AttachmentTable {
    package static let table = "attachment"
    package static let id = SharedColumns.id
    package static let recipeID = CanonicalColumn("recipe_id", .text, rule: .owner)
    package static let projectID = CanonicalColumn("project_id", .text, rule: .owner)
    package static let logID = CanonicalColumn("log_id", .text, rule: .owner)
    package static let position = CanonicalColumn("position", .integer, required: true)
    package static let name = CanonicalColumn("name", .text)
    package static let mediaType = CanonicalColumn("media_type", .text)
    package static let localURL = CanonicalColumn("local_url", .text)
    package static let sha256 = CanonicalColumn("sha256", .text)
    package static let byteCount = CanonicalColumn("byte_count", .integer)
    package static let addedAt = CanonicalColumn("added_at", .text)
    package static let tag = CanonicalColumn("tag", .text)
    package static let sourceKey = SharedColumns.sourceKey
    package static let extras = SharedColumns.extras

    package static let owners = [recipeID, projectID, logID]
    static var columns: [CanonicalColumn] { [id] + owners + values.map(\.column) }

    static func row(owner: CanonicalColumn) -> TableRow<Owned<Attachment>> {
        TableRow(table, [fill(id) { $0.add($1.part.id) }, fill(owner) { $0.add($1.owner) }] + values)
    }

    private static let values: [TableRow<Owned<Attachment>>.Field] = [
        fill(position) { $0.add($1.part.position) },
        fill(name) { $0.add($1.part.name) },
        fill(mediaType) { $0.add($1.part.mediaType) },
        fill(localURL) { $0.add($1.part.localURL) },
        fill(sha256) { $0.add($1.part.sha256) },
        fill(byteCount) { $0.add($1.part.byteCount) },
        fill(addedAt) { $0.add($1.part.addedAt) },
        fill(tag) { $0.add($1.part.tag) },
        fill(sourceKey) { $0.add($1.part.sourceKey) },
        fill(extras) { $0.add(json: .object($1.part.extras)) },
    ]
}

/// `attachment_content`: an attachment's bytes, once per content.
package enum AttachmentContentTable {
    package static let table = "attachment_content"
    package static let sha256 = CanonicalColumn("sha256", .text, required: true, rule: .sha256)
    package static let data = CanonicalColumn("data", .blob, required: true)

    static let row = TableRow<(sha256: String, data: Data)>(table, [
        fill(sha256) { $0.add($1.sha256) },
        fill(data) { $0.add($1.data) },
    ])
}
