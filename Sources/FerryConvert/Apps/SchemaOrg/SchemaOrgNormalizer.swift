import FerryCanonical
import FerryJSON
import Foundation

/// A schema.org `Recipe` node (JSON-LD), as recipe sites publish it and Nextcloud Cookbook
/// stores it, into a canonical recipe. Fields come in many shapes (`recipeYield` a number, a
/// text or a list; `image` a URL, an object or a list; instructions a text, steps or sections):
/// each shape is read, and what has no column stays in `extras` as written. Format notes:
/// `Formats/apps/schema-org.md`.
struct SchemaOrgNormalizer {
    let context: ConversionContext
    let app: SourceApp

    /// Keys read into columns; the rest of a node goes to its extras.
    static let columns: Set<String> = ["@context", "@type", "name", "url", "description", "author", "recipeIngredient", "ingredients",
                                       "recipeInstructions", "prepTime", "cookTime", "totalTime", "recipeYield", "keywords",
                                       "recipeCategory", "dateCreated", "datePublished", "dateModified"]

    /// - Parameter images: image files that came with the node (Nextcloud's `full.jpg`), kept as attachments.
    func recipe(_ object: JSONObject, file: String, location: RecordLocation, images: [(name: String, data: Data)] = []) throws {
        var fields = FieldReader(object, at: location, dates: context.dates)
        fields.skip("@context", "@type")
        let nameValue = fields.value("name")
        let title = Self.text(nameValue) ?? ""
        let url = Self.text(fields.value("url"))
        let key = url ?? Self.text(fields.peek("@id")) ?? title
        // The file and the node's place are part of it: two nodes may share a URL (a page's
        // recipe and its sub-recipe), and two Nextcloud folders a name without one.
        let id = StableID.make(app.rawValue, key, "\(file)|\(location.record ?? 0)")
        var here = location
        here.key = key
        try context.claim(id, table: "recipe", at: here)
        let time = try context.fileTime(location.file)
        var recipe = Recipe(id: id, source: SourceRef(app: app, entity: "Recipe", key: url ?? Self.text(fields.peek("@id")), file: file),
                            kind: "meal", createdAt: time, modifiedAt: time)
        recipe.title = title
        recipe.sourceURL = url
        var kept = JSONObject()
        // Values in shapes the columns hold only part of are kept whole beside them.
        if let nameValue, nameValue.string == nil { kept["name"] = nameValue }
        let description = fields.value("description")
        recipe.summary = Self.text(description)
        if let description, description.string == nil { kept["description"] = description }
        let author = fields.value("author")
        recipe.author = Self.names(author)
        if let author, !Self.onlyNames(author) { kept["author"] = author }
        try times(&fields, &recipe, kept: &kept)
        recipe.materials = Self.strings(fields.value("recipeIngredient") ?? fields.value("ingredients")).enumerated().map { position, text in
            var line = MaterialLine(id: StableID.make(id, "ingredient", String(position)), position: position)
            line.description = text
            return line
        }
        let instructions = fields.value("recipeInstructions")
        let steps = Self.steps(instructions)
        // Steps carrying more than their text and name (an image, a link) are kept whole too.
        if let instructions, !Self.onlyText(instructions) { kept["recipeInstructions"] = instructions }
        recipe.steps = steps.enumerated().map { position, step in
            var made = RecipeStep(id: StableID.make(id, "step", String(position)), position: position)
            made.title = step.name
            made.instruction = step.text
            if let section = step.section { made.extras["section"] = .string(section) }
            return made
        }
        recipe.instructions = steps.isEmpty ? nil : steps.map(\.text).joined(separator: "\n")
        if let yield = fields.value("recipeYield") {
            let texts = Self.strings(yield)
            recipe.servings = texts.lazy.compactMap(PaprikaNormalizer.leadingNumber).first
            if !(texts.count == 1 && recipe.servings != nil && Double(texts[0].trimmingCharacters(in: .whitespaces)) == recipe.servings) { kept["recipeYield"] = yield }
        }
        let keywords = fields.value("keywords")
        recipe.tags = Self.keywords(keywords)
        if let keywords, keywords.string == nil, !(keywords.array?.allSatisfy { $0.string != nil } ?? false) { kept["keywords"] = keywords }
        if let category = fields.value("recipeCategory") {
            recipe.category = Self.strings(category).first
            if category.string == nil || Self.strings(category).count > 1 { kept["recipeCategory"] = category }
        }
        recipe.attachments = images.enumerated().map { position, image in
            AttachmentFiles.file(image.data, named: image.name, owner: id, position: position, hero: position == 0, context: context)
        }
        var extras = fields.extras
        for (key, value) in kept { extras[key] = value }
        recipe.extras = extras
        context.report.extras(app: app, entity: "Recipe", extras)
        context.batch.recipes.append(recipe)
    }

    /// ISO 8601 durations into minutes (kept as written where they do not read); dates into
    /// the record's times, made up from the file where the node has none.
    private func times(_ fields: inout FieldReader, _ recipe: inout Recipe, kept: inout JSONObject) throws {
        for (key, keyPath) in [("prepTime", \Recipe.prepMinutes), ("cookTime", \Recipe.cookMinutes), ("totalTime", \Recipe.estimatedMinutes)] {
            guard let value = fields.value(key) else { continue }
            if let text = value.string, let minutes = TextDuration.minutes(text) { recipe[keyPath: keyPath] = minutes } else { kept[key] = value }
        }
        var created: String?
        for key in ["dateCreated", "datePublished"] {
            guard let value = fields.value(key) else { continue }
            if created == nil, let time = Self.date(value) { created = time } else { kept[key] = value }
        }
        var modified: String?
        if let value = fields.value("dateModified") {
            if let time = Self.date(value) { modified = time } else { kept["dateModified"] = value }
        }
        let file = (ConversionContext.inputFile(fields.location.file) as NSString).lastPathComponent
        if let created { recipe.createdAt = created } else {
            context.synthesized([SynthesizedTimes.createdAt], table: "recipe", from: modified == nil ? "modification time of \(file)" : "dateModified",
                                marking: &recipe.synthesizedTimes)
        }
        if let stamp = modified ?? created { recipe.modifiedAt = stamp } else {
            context.synthesized([SynthesizedTimes.modifiedAt], table: "recipe", from: "modification time of \(file)", marking: &recipe.synthesizedTimes)
        }
        if created == nil, let modified { recipe.createdAt = modified }
    }

    /// ISO 8601 (`2019-03-16T20:15:47+00:00`, `2019-03-16`), or Unix seconds as Nextcloud
    /// Cookbook writes them (`"1607461134"`); `"0"`, its "unknown", is no date.
    static func date(_ value: JSONValue) -> String? {
        guard let text = value.string?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = CanonicalTime.unixSeconds(text), abs(seconds) <= Double(CanonicalTime.latestSeconds) { return CanonicalTime.string(unixSeconds: seconds) }
        guard text.count >= 9, text.allSatisfy(\.isASCII), let seconds = Int64(text), seconds > 0, seconds <= CanonicalTime.latestSeconds else { return nil }
        return CanonicalTime.string(unixSeconds: Double(seconds))
    }

    /// Text of a value that is one: a string, or a node's `@id` / `url` / `name`.
    static func text(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let text)?: return text.isEmpty ? nil : text
        case .object(let object)?: return text(object["@id"]) ?? text(object["url"]) ?? text(object["name"])
        case .array(let elements)?: return elements.lazy.compactMap { text($0) }.first
        default: return nil
        }
    }

    /// The texts of a value: a list's, or one text's non-empty lines.
    static func strings(_ value: JSONValue?) -> [String] {
        switch value {
        case .string(let text)?: return PaprikaNormalizer.lines(text)
        case .number(let number)?: return [number.text]
        case .array(let elements)?: return elements.flatMap { element -> [String] in
            if let text = element.string { return [text.trimmedWhitespace].filter { !$0.isEmpty } }
            return strings(element)
        }
        case .object?: return text(value).map { [$0] } ?? []
        default: return []
        }
    }

    /// People by name: `"Jane"`, `{"@type": "Person", "name": "Jane"}`, or a list of them.
    static func names(_ value: JSONValue?) -> String? {
        let found: [String]
        switch value {
        case .array(let elements)?: found = elements.compactMap { names($0) }
        case .object(let object)?: found = [object["name"]?.string].compactMap { $0 }
        case .string(let name)?: found = [name]
        default: found = []
        }
        return found.isEmpty ? nil : found.joined(separator: ", ")
    }

    /// Whether an author value is names alone (a text, or `Person`s with only a type and a name).
    static func onlyNames(_ value: JSONValue) -> Bool {
        switch value {
        case .string: return true
        case .array(let elements): return elements.allSatisfy(onlyNames)
        case .object(let object): return object["name"]?.string != nil && object.keys.allSatisfy { $0 == "@type" || $0 == "name" }
        default: return false
        }
    }

    /// `"a, b"` or `["a", "b"]`: tags in order, each once.
    static func keywords(_ value: JSONValue?) -> [String] {
        let raw: [String]
        switch value {
        case .string(let text)?: raw = text.split(separator: ",").map(String.init)
        case .array(let elements)?: raw = elements.compactMap(\.string)
        default: raw = []
        }
        var seen: Set<String> = []
        return raw.map { $0.trimmedWhitespace }.filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// Whether instructions hold nothing the steps do not: texts, and steps or sections of only
    /// a type, a name and a text.
    static func onlyText(_ value: JSONValue) -> Bool {
        switch value {
        case .string: return true
        case .array(let elements): return elements.allSatisfy(onlyText)
        case .object(let object):
            // A section holds its name and its steps; a step its name and its text.
            let isSection = object["itemListElement"] != nil
            if isSection, object["itemListElement"]?.array?.isEmpty ?? true { return false }
            return object.members.allSatisfy { member in
                switch member.key {
                case "@type", "name": return member.value.string != nil
                case "text": return !isSection && member.value.string != nil
                case "itemListElement": return onlyText(member.value)
                default: return false
                }
            }
        default: return false
        }
    }

    struct Step {
        var text: String
        var name: String?
        var section: String?
    }

    /// Instructions as a text (a step a line), a list of texts, `HowToStep`s, or
    /// `HowToSection`s of steps (the section's name kept with each of its steps).
    static func steps(_ value: JSONValue?, section: String? = nil, depth: Int = 0) -> [Step] {
        guard depth < 16 else { return [] }
        switch value {
        case .string(let text)?: return PaprikaNormalizer.lines(text).map { Step(text: $0, section: section) }
        case .array(let elements)?: return elements.flatMap { steps($0, section: section, depth: depth + 1) }
        case .object(let object)?:
            if let items = object["itemListElement"] {
                return steps(items, section: object["name"]?.string ?? section, depth: depth + 1)
            }
            guard let text = object["text"]?.string ?? object["name"]?.string else { return [] }
            let name = object["name"]?.string
            return [Step(text: text.trimmedWhitespace, name: name == text ? nil : name, section: section)]
        default: return []
        }
    }
}
