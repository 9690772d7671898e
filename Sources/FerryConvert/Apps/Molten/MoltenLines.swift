import FerryCanonical
import Crypto
import FerryJSON
import FerryCoreData
import Foundation

/// The child rows of Molten plans and logs, in every shape the app has written them: JSON
/// arrays in Transformable blobs (model versions up to 5), the export's `plan.json`, and the
/// child entities that replaced the blobs (versions 6–9), whose field names changed again.
extension MoltenNormalizer {
    static let units = EnumNormalizer(known: ["rods", "grams", "oz"])

    /// A child's legacy id and its position: its order field (the first of `order` it has), else
    /// its place among its siblings.
    static func placed(_ item: inout FieldReader, index: Int,
                       order: [String] = ["orderIndex", "order_index", "order"]) throws -> (legacyID: String?, position: Int) {
        let legacyID = try item.uuid("id")
        return (legacyID, Int(try item.integer(item.resolve(order)) ?? Int64(index)))
    }

    /// Glass items `{id, naturalKey | stableId, quantity, unit, notes, freeformDescription}` as
    /// material lines. Line ids derive from the owner: the app copies a plan's items into its
    /// logs with the same ids.
    func materials(_ children: [FieldReader], ownerID: String) throws -> [MaterialLine] {
        var lines: [MaterialLine] = []
        for (index, child) in children.enumerated() {
            var item = child
            let (legacyID, position) = try Self.placed(&item, index: index)
            var line = MaterialLine(id: StableID.make("molten", ownerID, "material", legacyID ?? String(index)), position: position)
            // The natural key names the catalog item; a stable id only when there is no natural key
            // (a different one stays in the extras under its own name).
            let natural = try item.string("naturalKey", "itemNaturalKey", "item_natural_key", "natural_key")   // Molten's own field names
            let stableKeys = ["stableId", "item_stable_id", "stable_id"]
            if natural == nil {
                line.catalogKey = try item.string(stableKeys[0], stableKeys[1], stableKeys[2])
            } else {
                line.catalogKey = natural
                if item.peek(stableKeys[0], stableKeys[1], stableKeys[2])?.string == natural { item.skip(stableKeys[0], stableKeys[1], stableKeys[2]) }
            }
            line.description = try item.string("freeformDescription", "freeform_description")
            line.quantity = try item.decimal("quantity")
            line.unit = try item.string("unit").map { Self.units.normalize($0, file: item.location.file, field: "unit", report: context.report) }
            line.notes = try item.string("notes")
            line.sourceKey = legacyID
            item.skip("plan", "log", "step")
            line.extras = item.extras
            context.report.extras(app: .molten, entity: "GlassItem", line.extras)
            lines.append(line)
        }
        return lines.sorted { $0.position < $1.position }
    }

    /// Reference URLs `{id, url, title, description | urlDescription, dateAdded}`.
    func references(_ children: [FieldReader], ownerID: String) throws -> [ReferenceLink] {
        var links: [ReferenceLink] = []
        for (index, child) in children.enumerated() {
            var item = child
            let (legacyID, position) = try Self.placed(&item, index: index)
            var link = ReferenceLink(id: StableID.make("molten", ownerID, "reference", legacyID ?? String(index)), position: position,
                                     url: try item.requiredString("url"))
            link.title = try item.string("title")
            link.description = try item.string("description", "urlDescription", "reference_description")
            link.addedAt = try item.date("dateAdded", "date_added")
            link.sourceKey = legacyID
            item.skip("plan")
            link.extras = item.extras
            context.report.extras(app: .molten, entity: "ReferenceUrl", link.extras)
            links.append(link)
        }
        return links.sorted { $0.position < $1.position }
    }

    /// Images `{id, fileExtension, order, dateAdded, caption}`; their bytes when an export holds
    /// them (`images/<id>.<ext>`). The hero image is tagged `hero`.
    func images(_ children: [FieldReader], ownerID: String, heroID: String?, files: [String: Data]) throws -> [Attachment] {
        var result: [Attachment] = []
        var named: Set<String> = []
        for (index, child) in children.enumerated() {
            var item = child
            let (legacyID, position) = try Self.placed(&item, index: index, order: ["order", "order_index", "orderIndex"])
            var attachment = Attachment(id: legacyID ?? StableID.make("molten", ownerID, "image", String(index)), position: position)
            // The extension only shapes the file name: it stays in the extras as the app wrote it.
            let fileExtension = item.peek("fileExtension", "file_extension")?.string ?? "jpg"
            let name = try item.string("file_name", "fileName") ?? legacyID.map { "\($0).\(fileExtension)" }
            attachment.name = name
            attachment.mediaType = AttachmentFiles.mediaType(ofExtension: fileExtension)
            attachment.addedAt = try item.date("dateAdded", "date_added")
            if let legacyID, legacyID == heroID { attachment.tag = "hero" }
            attachment.sourceKey = legacyID
            if let name, let data = files[name] ?? files[name.lowercased()] {
                attach(data, to: &attachment)
                named.insert(name)
            }
            item.skip("plan", "log")
            attachment.extras = item.extras
            context.report.extras(app: .molten, entity: "ProjectImage", attachment.extras)
            result.append(attachment)
        }
        // Image files no image record names are kept too.
        for (name, data) in files.sorted(by: { $0.key < $1.key }) where !named.contains(name) {
            var attachment = Attachment(id: StableID.make("molten", ownerID, "image-file", name), position: result.count)
            attachment.name = name
            attachment.mediaType = AttachmentFiles.mediaType(ofExtension: (name as NSString).pathExtension)
            attach(data, to: &attachment)
            result.append(attachment)
        }
        return result.sorted { $0.position < $1.position }
    }

    private func attach(_ data: Data, to attachment: inout Attachment) {
        AttachmentFiles.attach(data, to: &attachment, context: context)
    }
}
