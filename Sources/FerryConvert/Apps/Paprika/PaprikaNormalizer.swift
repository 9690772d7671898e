import FerryCanonical
import FerryCoreData
import FerryJSON
import Foundation

/// Paprika's recipes: one JSON object each, gzip'd. The current schema (`uid`, `hash`,
/// `photo_data`, `photos`, `categories`, `created` as `YYYY-MM-DD HH:MM:SS`) and the older one
/// (no `uid`; `scale`). Ingredients and directions are text, a line each; times are free text,
/// minutes where they read as a duration and kept as written where not. Photos become
/// attachments with their bytes. Format notes: `Formats/paprika.md`.
struct PaprikaNormalizer {
    let context: ConversionContext

    /// A recipe's JSON, decompressed, is bounded: photos are base64 inside it.
    static let recipeBytes = 128 << 20

    func convertRecipeFile(_ path: String) throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ConversionError(.unreadable((error as NSError).localizedDescription), at: RecordLocation(file: path))
        }
        try convert(data, file: (path as NSString).lastPathComponent, location: RecordLocation(file: path))
    }

    func convertExport(_ path: String) throws {
        var found = 0
        try ZipEntries.read(path, context: context) { name, data in
            guard name.lowercased().hasSuffix(".paprikarecipe") else {
                context.report.warning("\((path as NSString).lastPathComponent): entry \"\(name)\" is not a .paprikarecipe; not converted")
                return
            }
            found += 1
            try convert(data, file: (path as NSString).lastPathComponent, location: RecordLocation(file: "\(path)!\(name)"))
        }
        guard found > 0 else { throw ConversionError(.notRecognized("a zip without .paprikarecipe entries"), at: RecordLocation(file: path)) }
    }

    private func convert(_ compressed: Data, file: String, location: RecordLocation) throws {
        let json: Data
        do {
            json = Gzip.isGzip(compressed) ? try Gzip.decompress(compressed, maximumOutput: Self.recipeBytes) : compressed
        } catch {
            throw ConversionError(.unreadable("not a gzip'd Paprika recipe: \(error)"), at: location)
        }
        let documents = try JSONDocuments.parse(json, path: location.file)
        for (number, value) in documents.records {
            var here = location
            here.record = documents.records.count > 1 ? number : nil
            try context.record {
                guard let object = value.object else {
                    throw ConversionError(.wrongType(expected: "a recipe object", found: value.shortDescription), at: here)
                }
                try recipe(object, file: file, location: here)
            }
            try context.flushIfNeeded()
        }
    }

    private func recipe(_ object: JSONObject, file: String, location: RecordLocation) throws {
        var fields = FieldReader(object, at: location, dates: context.dates)
        let uid = try fields.string("uid")
        let title = try fields.string("name") ?? ""
        let createdText = try fields.string("created")
        // The older schema has no uid: the recipe is known by its name and creation time.
        let id = uid.flatMap(StableID.normalized) ?? StableID.make(["paprika", uid ?? title, uid == nil ? createdText ?? "" : ""])
        var here = location
        here.key = uid ?? title
        try context.claim(id, table: "recipe", at: here)
        let time = try context.fileTime(location.file)
        var recipe = Recipe(id: id, source: SourceRef(app: .paprika, entity: "Recipe", key: uid, file: file), kind: "meal",
                            createdAt: time, modifiedAt: time)
        recipe.title = title
        if let created = createdText.flatMap(Self.time) {
            recipe.createdAt = created
            recipe.modifiedAt = created
            context.synthesized([SynthesizedTimes.modifiedAt], table: "recipe", from: "the creation date (Paprika keeps no modification date)",
                                marking: &recipe.synthesizedTimes)
        } else {
            if let createdText { throw fields.error(.invalidValue("\"\(createdText)\" is not a time as Paprika writes it (YYYY-MM-DD HH:MM:SS)"), "created") }
            context.synthesized([SynthesizedTimes.createdAt, SynthesizedTimes.modifiedAt], table: "recipe",
                                from: "modification time of \(file)", marking: &recipe.synthesizedTimes)
        }
        recipe.summary = nonEmpty(try fields.string("description"))
        recipe.difficulty = nonEmpty(try fields.string("difficulty"))
        recipe.sourceURL = nonEmpty(try fields.string("source_url"))   // Paprika's own field names
        recipe.tags = try fields.strings("categories")
        var kept = JSONObject()
        if let servings = nonEmpty(try fields.string("servings")) {
            recipe.servings = Self.leadingNumber(servings)
            // "6 servings" is 6, and its words are kept; a bare number is the value alone.
            if Double(servings.trimmingCharacters(in: .whitespaces)) == nil { kept["servings"] = .string(servings) }
        }
        for (key, keyPath) in [("prep_time", \Recipe.prepMinutes), ("cook_time", \Recipe.cookMinutes), ("total_time", \Recipe.estimatedMinutes)] {
            guard let text = nonEmpty(try fields.string(key)) else { continue }
            if let minutes = TextDuration.minutes(text) { recipe[keyPath: keyPath] = minutes } else { kept[key] = .string(text) }
        }
        if let directions = nonEmpty(try fields.string("directions")) {
            recipe.instructions = directions
            recipe.steps = Self.lines(directions).enumerated().map { position, text in
                var step = RecipeStep(id: StableID.make(id, "step", String(position)), position: position)
                step.instruction = text
                return step
            }
        }
        recipe.materials = Self.lines(try fields.string("ingredients") ?? "").enumerated().map { position, text in
            var line = MaterialLine(id: StableID.make(id, "ingredient", String(position)), position: position)
            line.description = text
            return line
        }
        recipe.attachments = try photos(&fields, recipeID: id)
        var extras = fields.extras
        for (key, value) in kept { extras[key] = value }
        recipe.extras = extras
        context.report.extras(app: .paprika, entity: "Recipe", extras)
        context.batch.recipes.append(recipe)
    }

    /// `photo_data` (the main photo, base64, named by `photo`) and `photos` (each with its
    /// `filename` and `data`): attachments with their bytes.
    private func photos(_ fields: inout FieldReader, recipeID: String) throws -> [Attachment] {
        var attachments: [Attachment] = []
        if let encoded = nonEmpty(try fields.string("photo_data")) {
            let name = try fields.string("photo") ?? "photo.jpg"
            guard let data = Data(base64Encoded: encoded, options: .ignoreUnknownCharacters) else {
                throw fields.error(.invalidValue("is not base64"), "photo_data")
            }
            attachments.append(attachment(data, name: name, position: 0, recipeID: recipeID, tag: "hero"))
        }
        for (index, element) in (try fields.array("photos") ?? []).enumerated() {
            guard let object = element.object else {
                throw fields.error(.wrongType(expected: "a photo object", found: element.shortDescription), "photos[\(index)]")
            }
            var photo = fields.nested(object, field: "photos[\(index)]")
            let name = try photo.string("filename", "name") ?? "photo-\(index + 1).jpg"
            guard let encoded = try photo.string("data"), let data = Data(base64Encoded: encoded, options: .ignoreUnknownCharacters) else {
                throw photo.error(.invalidValue("has no base64 data"), "data")
            }
            var attachment = attachment(data, name: name, position: attachments.count, recipeID: recipeID, tag: nil)
            attachment.extras = photo.extras
            attachments.append(attachment)
        }
        return attachments
    }

    private func attachment(_ data: Data, name: String, position: Int, recipeID: String, tag: String?) -> Attachment {
        var attachment = Attachment(id: StableID.make(recipeID, "photo", name, String(position)), position: position)
        attachment.name = name
        attachment.mediaType = AttachmentFiles.mediaType(ofExtension: (name as NSString).pathExtension)
        attachment.tag = tag
        AttachmentFiles.attach(data, to: &attachment, context: context)
        return attachment
    }

    /// `2023-10-30 17:05:38` as Paprika writes it (the device's time, no zone: read as UTC).
    static func time(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.count == 19, bytes[10] == UInt8(ascii: " ") else { return nil }
        let iso = String(text.prefix(10)) + "T" + String(text.suffix(8)) + "Z"
        return CanonicalTime.unixSeconds(iso) != nil ? iso : nil
    }

    /// `6`, `6 servings`, `4-6` (the first number); nil when the text does not start with one.
    static func leadingNumber(_ text: String) -> Double? {
        let digits = text.trimmingCharacters(in: .whitespaces).prefix { $0.isNumber || $0 == "." }
        return Double(digits)
    }

    /// The non-empty lines of a text, trimmed.
    static func lines(_ text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).map(\.trimmedWhitespace).filter { !$0.isEmpty }
    }

    private func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.trimmedWhitespace.isEmpty else { return nil }
        return text
    }
}
