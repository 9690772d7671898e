import FerryCanonical
import FerryJSON
import FerryCoreData
import Foundation

/// The glass catalog: `glassitems.json` (`{version, generated, item_count, glassitems}`), the
/// app's sample `{colors}` file, and the store's catalog rows (`GlassItem`, `CatalogItem`).
/// Material lines name catalog items by natural key, as the app does.
extension MoltenNormalizer {
    /// The app's own rule: `stable_id` when the item has one, else
    /// `<manufacturer, lower-cased>-<code>-<sequence>` with sequence 0.
    static func naturalKey(manufacturer: String, code: String, sequence: Int = 0) -> String {
        "\(manufacturer.lowercased())-\(code)-\(sequence)"
    }

    func convertCatalog(_ documents: JSONDocuments) throws {
        let file = documents.path
        guard case .object(let top)? = documents.document else {
            throw ConversionError(.wrongType(expected: "an object with glassitems or colors", found: documents.document?.kindName ?? "several values"),
                                  at: RecordLocation(file: file))
        }
        var fields = FieldReader(top, at: RecordLocation(file: file), dates: context.dates)
        let key = fields.has("glassitems") ? "glassitems" : "colors"
        let items = try fields.array(key) ?? []
        let declared = try fields.integer("item_count")
        if let declared, declared != items.count {
            context.report.warning("\((file as NSString).lastPathComponent): item_count says \(declared) but \(items.count) items are listed")
        }
        // Which catalog an item came from (its version and date) stays with the item.
        var header = fields.extras
        if let declared { header["item_count"] = .integer(declared) }
        let name = (file as NSString).lastPathComponent
        for (index, value) in items.enumerated() {
            try context.record {
                let location = RecordLocation(file: file, field: "\(key)[\(index)]")
                guard let object = value.object else {
                    throw ConversionError(.wrongType(expected: "an object", found: value.shortDescription), at: location)
                }
                var item = try catalogItem(FieldReader(object, at: location, dates: context.dates), entity: "GlassItem", file: name)
                if !header.isEmpty {
                    item.extras["catalogFile"] = .object(header)
                    context.report.extras(app: .molten, entity: "GlassItem", JSONObject([("catalogFile", .object(header))]))
                }
                try context.claim(item.naturalKey, table: "catalog_item", at: location)
                context.batch.catalog.append(item)
            }
        }
    }

    /// One catalog item from a JSON object or a store row.
    func catalogItem(_ fields: FieldReader, entity: String, file: String) throws -> CatalogItem {
        var fields = fields
        let manufacturer = try fields.string("manufacturer")
        let code = try fields.string("code", "sku")
        let stored = try fields.string("stable_id", "natural_key", "naturalKey")   // Molten's own field names
        let key: String
        if let stored, !stored.isEmpty {
            key = stored
        } else {
            guard let code, !code.isEmpty else { throw fields.error(.missingField, "code") }
            let maker = manufacturer ?? code.split(separator: "-").first.map(String.init)
            guard let maker, !maker.isEmpty else { throw fields.error(.missingField, "manufacturer") }
            key = Self.naturalKey(manufacturer: maker, code: code)
        }
        var item = CatalogItem(naturalKey: key, source: SourceRef(app: .molten, entity: entity, key: key, file: file))
        item.name = try fields.string("name")
        item.manufacturer = manufacturer
        item.code = code
        item.extras = fields.extras
        context.report.extras(app: .molten, entity: entity, item.extras)
        return item
    }
}
