import FerryCanonical
import FerryJSON
import Foundation

extension SourceApp {
    public static let schemaOrg = SourceApp("schema-org")
}

/// schema.org recipes as JSON-LD: `.json`/`.jsonld` files holding Recipe nodes (alone, in a
/// list, in `@graph`), and web pages (`.html`) carrying them in `<script type="application/ld+json">`.
/// A page without a Recipe in its JSON-LD is refused by name; microdata is not read.
struct SchemaOrgReader: SourceReader {
    let about = ReaderInfo(.schemaOrg, "schema.org", reads: ["schema.org Recipe JSON-LD (.json, .jsonld, web pages)"])

    func recognize(_ file: CandidateFile) -> RecognizedFile? {
        let name = file.lowercasedName
        if name.hasSuffix(".html") || name.hasSuffix(".htm") {
            return RecognizedFile(app: app, kind: "web page") { path, context in try SchemaOrgFiles(context: context, app: .schemaOrg).page(path) }
        }
        guard file.isNamedJSON || name.hasSuffix(".jsonld"), case .record(let first, _) = file.firstRecord,
              !JSONLDBlocks.recipes(in: first).isEmpty || Self.isJSONLD(first) || first.object?[JSONDocuments.graph]?.array != nil
        else { return nil }
        return RecognizedFile(app: app, kind: "Recipe JSON-LD") { path, context in try SchemaOrgFiles(context: context, app: .schemaOrg).json(path) }
    }

    /// A JSON-LD document (`@context` naming schema.org), whatever its first node is.
    static func isJSONLD(_ value: JSONValue) -> Bool {
        guard let context = value.object?["@context"] else { return false }
        return JSONWriter.string(context).contains("schema.org")
    }
}

/// Reads the files a schema.org reader takes: JSON-LD documents and web pages, each recipe
/// node in it a canonical recipe.
struct SchemaOrgFiles {
    let context: ConversionContext
    let app: SourceApp

    /// A JSON-LD file read record by record (an array's elements, an NDJSON file's lines, the
    /// nodes of a document's `@graph`), so that a file of a hundred thousand recipes is never
    /// held whole.
    func json(_ path: String, images: [(name: String, data: Data)] = [], file name: String? = nil) throws {
        let stream = try JSONDocuments.stream(path, elementsOf: JSONDocuments.graph)
        let file = name ?? (path as NSString).lastPathComponent
        var found = 0
        func convert(_ nodes: [JSONObject], numbered: Bool) throws {
            for (index, node) in nodes.enumerated() {
                found += 1
                let location = RecordLocation(file: path, record: numbered || nodes.count > 1 ? found : nil)
                try context.record {
                    try SchemaOrgNormalizer(context: context, app: app).recipe(node, file: file, location: location,
                                                                              images: index == 0 && found == 1 ? images : [])
                }
                try context.flushIfNeeded()
            }
        }
        while let record = try JSONDocuments.next(stream) {
            try convert(JSONLDBlocks.recipes(in: record.value), numbered: stream.isArray || record.number > 1)
        }
        // A graph's document may hold a recipe beside the graph too (`mainEntity`).
        if stream.isEnclosed { try convert(JSONLDBlocks.recipes(in: .object(stream.enclosingMembers)), numbered: true) }
        guard found > 0 else {
            throw ConversionError(.notRecognized("no recipe found: no schema.org Recipe node in it"), at: RecordLocation(file: path))
        }
    }

    func json(_ data: Data, path: String, file: String, images: [(name: String, data: Data)]) throws {
        let documents = try JSONDocuments.parse(data, path: path)
        try recipes(in: documents.records.map(\.value), path: path, file: file, images: images)
    }

    func page(_ path: String) throws {
        let location = RecordLocation(file: path)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size <= JSONLDBlocks.maximumPage else {
            throw ConversionError(.unreadable("a page larger than \(JSONLDBlocks.maximumPage) bytes"), at: location)
        }
        let bytes: [UInt8]
        do {
            bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw ConversionError(.unreadable((error as NSError).localizedDescription), at: location)
        }
        var values: [JSONValue] = []
        for block in JSONLDBlocks.blocks(in: bytes) {
            switch block.value {
            case .success(let value): values.append(value)
            case .failure(let error):
                context.report.warning("\((path as NSString).lastPathComponent): JSON-LD block \(block.number) does not read as JSON (\(error)); passed over")
            }
        }
        guard values.contains(where: { !JSONLDBlocks.recipes(in: $0).isEmpty }) else {
            let microdata = String(decoding: bytes, as: UTF8.self).contains("schema.org/Recipe")
            throw ConversionError(.notRecognized(microdata
                ? "no recipe found: the page has a schema.org Recipe only as microdata, which Ferry does not read (JSON-LD only)"
                : "no recipe found: no schema.org Recipe in the page's JSON-LD (\(values.count) block\(values.count == 1 ? "" : "s"))"),
                                  at: location)
        }
        try recipes(in: values, path: path, file: (path as NSString).lastPathComponent, images: [])
    }

    private func recipes(in values: [JSONValue], path: String, file: String, images: [(name: String, data: Data)]) throws {
        let nodes = values.flatMap { JSONLDBlocks.recipes(in: $0) }
        guard !nodes.isEmpty else {
            throw ConversionError(.notRecognized("no recipe found: no schema.org Recipe node in it"), at: RecordLocation(file: path))
        }
        for (index, node) in nodes.enumerated() {
            let location = RecordLocation(file: path, record: nodes.count > 1 ? index + 1 : nil)
            try context.record {
                try SchemaOrgNormalizer(context: context, app: app).recipe(node, file: file, location: location, images: images)
            }
            try context.flushIfNeeded()
        }
    }
}
