import FerryCanonical
import FerryJSON
import Foundation

extension SourceApp {
    public static let cooklang = SourceApp("cooklang")
}

/// Cooklang's `.cook` recipes and `.menu` meal plans, by their names (plain text has no
/// signature of its own).
struct CooklangReader: SourceReader {
    let about = ReaderInfo(.cooklang, "Cooklang", reads: [".cook recipes and .menu plans"])

    func recognize(_ file: CandidateFile) -> RecognizedFile? {
        if file.lowercasedName.hasSuffix(".cook") {
            return RecognizedFile(app: app, kind: "recipe") { path, context in try CooklangNormalizer(context: context).recipe(path) }
        }
        if file.lowercasedName.hasSuffix(".menu") {
            return RecognizedFile(app: app, kind: "menu") { path, context in try CooklangNormalizer(context: context).menu(path) }
        }
        return nil
    }
}

/// Cooklang into canonical records: a `.cook` file a recipe (its steps, its ingredients in the
/// order they appear, cookware and timers kept with their steps), a `.menu` a `meal-plan`
/// project whose steps are its meals. Format notes: `Formats/apps/cooklang.md`.
struct CooklangNormalizer {
    let context: ConversionContext

    /// Text files larger than this are refused.
    static let maximumSize = 16 << 20

    private func text(_ path: String) throws -> String {
        let location = RecordLocation(file: path)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size <= Self.maximumSize else { throw ConversionError(.unreadable("larger than \(Self.maximumSize) bytes"), at: location) }
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            guard let text = String(data: data, encoding: .utf8) else { throw ConversionError(.unreadable("not UTF-8 text"), at: location) }
            return text
        } catch let error as ConversionError {
            throw error
        } catch {
            throw ConversionError(.unreadable((error as NSError).localizedDescription), at: location)
        }
    }

    func recipe(_ path: String) throws {
        let parsed = CooklangParser.parse(try text(path))
        let file = (path as NSString).lastPathComponent
        let name = (file as NSString).deletingPathExtension
        let id = StableID.make("cooklang", Self.place(path))
        let location = RecordLocation(file: path, key: name)
        try context.claim(id, table: "recipe", at: location)
        let time = try context.fileTime(path)
        var recipe = Recipe(id: id, source: SourceRef(app: .cooklang, entity: "Recipe", key: nil, file: file), kind: "meal",
                            createdAt: time, modifiedAt: time)
        context.synthesized([SynthesizedTimes.createdAt, SynthesizedTimes.modifiedAt], table: "recipe", from: "modification time of \(file)",
                            marking: &recipe.synthesizedTimes)
        var metadata = JSONObject()
        recipe.title = name
        for (key, value) in parsed.metadata {
            switch key.lowercased() {
            case "title": recipe.title = value
            case "description", "introduction": recipe.summary = value
            case "servings", "serves", "yield": recipe.servings = PaprikaNormalizer.leadingNumber(value); metadata[key] = .string(value)
            case "source", "source.url": recipe.sourceURL = value
            case "author", "source.author": recipe.author = value
            case "tags": recipe.tags = SchemaOrgNormalizer.keywords(.string(value.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))))
            case "difficulty": recipe.difficulty = value
            case "course", "category": recipe.category = value
            case "prep time", "time.prep", "prep_time":
                if let minutes = TextDuration.minutes(value) { recipe.prepMinutes = minutes } else { metadata[key] = .string(value) }
            case "cook time", "time.cook", "cook_time":
                if let minutes = TextDuration.minutes(value) { recipe.cookMinutes = minutes } else { metadata[key] = .string(value) }
            case "time", "duration", "time required":
                if let minutes = TextDuration.minutes(value) { recipe.estimatedMinutes = minutes } else { metadata[key] = .string(value) }
            default: metadata[key] = .string(value)
            }
        }
        var cookware: [String] = []
        for (position, step) in parsed.steps.enumerated() {
            var made = RecipeStep(id: StableID.make(id, "step", String(position)), position: position)
            made.instruction = step.items.map(Self.plainText).joined()
            var timers: [JSONValue] = []
            var seconds = 0.0
            var stepCookware: [JSONValue] = []
            for item in step.items {
                switch item {
                case .ingredient(let name, let quantity, let units, let note):
                    var line = MaterialLine(id: StableID.make(id, "ingredient", String(recipe.materials.count)), position: recipe.materials.count)
                    line.description = name
                    line.quantity = quantity.map(Self.text)
                    line.unit = units.isEmpty ? nil : units
                    line.notes = note
                    // `@./Shared/Pizza Dough{}`: another recipe, by its path.
                    if name.hasPrefix("./") || name.hasPrefix("../") { line.extras["recipe"] = .string(name) }
                    line.extras["step"] = .integer(position)
                    recipe.materials.append(line)
                case .cookware(let name, let quantity):
                    if !cookware.contains(name) { cookware.append(name) }
                    stepCookware.append(.object(JSONObject([("name", .string(name))] + (quantity.map { [("quantity", Self.json($0))] } ?? []))))
                case .timer(let name, let quantity, let units):
                    timers.append(.object(JSONObject([("name", .string(name)), ("quantity", quantity.map(Self.json) ?? .string("")), ("units", .string(units))])))
                    if case .number(let value)? = quantity, let minutes = TextDuration.minutes("\(value) \(units)") { seconds += minutes * 60 }
                case .text: break
                }
            }
            if seconds > 0 { made.durationSeconds = seconds }
            if !timers.isEmpty { made.extras["timers"] = .array(timers) }
            if !stepCookware.isEmpty { made.extras["cookware"] = .array(stepCookware) }
            if let section = step.section { made.extras["section"] = .string(section) }
            recipe.steps.append(made)
        }
        recipe.instructions = recipe.steps.compactMap(\.instruction).joined(separator: "\n\n")
        if !cookware.isEmpty { metadata["cookware"] = .array(cookware.map { .string($0) }) }
        if !parsed.notes.isEmpty {
            metadata["notes"] = .array(parsed.notes.map { note in
                .object(JSONObject([("text", .string(note.text)), ("afterStep", .integer(note.afterStep))] + (note.section.map { [("section", JSONValue.string($0))] } ?? [])))
            })
        }
        recipe.extras = metadata
        context.report.extras(app: .cooklang, entity: "Recipe", metadata)
        context.batch.recipes.append(recipe)
    }

    /// A `.menu`: `==Day 1==` sections, meal headings (`Breakfast:`), and the meals, each a
    /// recipe reference (`@./Risotto{}`) or an ingredient, lines joined by a trailing `\`.
    func menu(_ path: String) throws {
        let joined = try text(path).replacingOccurrences(of: "\\\n", with: "\n")
        let parsed = CooklangParser.parse(joined.replacingOccurrences(of: "\n- ", with: "\n\n"))
        let file = (path as NSString).lastPathComponent
        let id = StableID.make("cooklang", Self.place(path))
        try context.claim(id, table: "project", at: RecordLocation(file: path))
        let time = try context.fileTime(path)
        var project = Project(id: id, source: SourceRef(app: .cooklang, entity: "Menu", key: nil, file: file), kind: "meal-plan",
                              createdAt: time, modifiedAt: time)
        context.synthesized([SynthesizedTimes.createdAt, SynthesizedTimes.modifiedAt], table: "project", from: "modification time of \(file)",
                            marking: &project.synthesizedTimes)
        project.title = (file as NSString).deletingPathExtension
        project.extras = JSONObject(parsed.metadata.map { ($0.key, JSONValue.string($0.value)) })
        var meal: String?
        for step in parsed.steps {
            let text = step.items.map(Self.plainText).joined().trimmingCharacters(in: .whitespaces)
            // `Breakfast:` names the meal of the lines after it.
            if step.items.count == 1, case .text = step.items[0], text.hasSuffix(":") {
                meal = String(text.dropLast())
                continue
            }
            var made = ProjectStep(id: StableID.make(id, "meal", String(project.steps.count)), position: project.steps.count)
            made.title = text
            made.kind = meal?.lowercased()
            var references: [JSONValue] = []
            for case .ingredient(let name, let quantity, let units, let note) in step.items {
                references.append(.object(JSONObject([("name", .string(name)), ("quantity", quantity.map(Self.json) ?? .null), ("units", .string(units))]
                                                     + (note.map { [("note", JSONValue.string($0))] } ?? []))))
            }
            if !references.isEmpty { made.extras["items"] = .array(references) }
            if let section = step.section { made.extras["day"] = .string(section) }
            project.steps.append(made)
        }
        if !parsed.notes.isEmpty {
            project.extras["notes"] = .array(parsed.notes.map { .string($0.text) })
        }
        context.report.extras(app: .cooklang, entity: "Menu", project.extras)
        context.batch.projects.append(project)
    }

    /// What a file is known by: its folder and its name (`Breakfast/Pancakes.cook`), as a
    /// Cooklang collection keeps recipes in folders, with the same name in two of them.
    static func place(_ path: String) -> String {
        let folder = ((path as NSString).deletingLastPathComponent as NSString).lastPathComponent
        return folder + "/" + (path as NSString).lastPathComponent
    }

    static func plainText(_ item: CooklangRecipe.Item) -> String {
        switch item {
        case .text(let text): return text
        case .ingredient(let name, _, _, _): return name.hasPrefix("./") ? (name as NSString).lastPathComponent : name
        case .cookware(let name, _): return name
        case .timer(let name, let quantity, let units):
            let amount = [quantity.map(text), units.isEmpty ? nil : units].compactMap { $0 }.joined(separator: " ")
            return amount.isEmpty ? name : amount
        }
    }

    static func text(_ quantity: CooklangRecipe.Quantity) -> String {
        switch quantity {
        case .number(let value): return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case .text(let text): return text
        }
    }

    static func json(_ quantity: CooklangRecipe.Quantity) -> JSONValue {
        switch quantity {
        case .number(let value): return .double(value)
        case .text(let text): return .string(text)
        }
    }
}
