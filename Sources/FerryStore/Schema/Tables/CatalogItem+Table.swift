import FerryCanonical
import FerryJSON

/// `catalog_item`: a material by its natural key (manufacturer and code), shared by every
/// record whose material lines name it.
package enum CatalogItemTable {
    package static let table = "catalog_item"
    package static let naturalKey = CanonicalColumn("natural_key", .text, required: true)
    package static let sourceApp = SharedColumns.sourceApp
    package static let sourceFile = SharedColumns.sourceFile
    package static let name = CanonicalColumn("name", .text)
    package static let manufacturer = CanonicalColumn("manufacturer", .text)
    package static let code = CanonicalColumn("code", .text)
    package static let extras = SharedColumns.extras

    static let row = TableRow<CatalogItem>(table, [
        fill(naturalKey) { $0.add($1.naturalKey) },
        fill(sourceApp) { $0.add($1.source.app.rawValue) },
        fill(sourceFile) { $0.add($1.source.file) },
        fill(name) { $0.add($1.name) },
        fill(manufacturer) { $0.add($1.manufacturer) },
        fill(code) { $0.add($1.code) },
        fill(extras) { $0.add(json: .object($1.extras)) },
    ])
}

/// `import_run`: each conversion or import into the store, with its inputs and counts.
package enum ImportRunTable {
    package static let table = "import_run"
    package static let id = SharedColumns.id
    package static let ferryVersion = CanonicalColumn("ferry_version", .text, required: true)
    package static let inputs = CanonicalColumn("inputs", .text, required: true, rule: .json)
    package static let counts = CanonicalColumn("counts", .text, required: true, rule: .json)

    /// The run's id, Ferry's version, and its inputs and counts as JSON text.
    typealias Run = (id: String, version: String, inputs: String, counts: String)

    static let row = TableRow<Run>(table, [
        fill(id) { $0.add($1.id) },
        fill(ferryVersion) { $0.add($1.version) },
        fill(inputs) { $0.add($1.inputs) },
        fill(counts) { $0.add($1.counts) },
    ])
}
