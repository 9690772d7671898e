import FerryArchive
import FerryCanonical
import FerryConvert
import FerryStore
import FerryJSON
import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

/// Every field of the corpus's real exports is accounted for, read from the source without
/// Ferry's readers: a column holding its value, or a key of the record's (or step's, or line's)
/// extras holding it whole. Titles, ingredient lines in order and step texts arrive as written.
@Suite(.needsCorpus) struct FormatLeafTests {
    let directory = TemporaryDirectory("ferry-format-leaves")
    static let formats = TestPaths.corpus.appendingPathComponent("formats")

    /// The entries of a zip by name, `__MACOSX/` left out.
    static func entries(_ path: String) throws -> [String: Data] {
        let archive = try ArchiveReader(path: path)
        var found: [String: Data] = [:]
        while let entry = try archive.next() {
            guard !entry.path.hasPrefix("__MACOSX/") else { continue }
            found[entry.path] = try archive.readData(limit: 256 << 20)
        }
        return found
    }

    static func object(_ data: Data) throws -> JSONObject {
        try #require(try JSONReader().read(Array(data)).object)
    }

    /// A stored JSON column (extras, parameters) as an object.
    static func stored(_ store: String, _ sql: String) throws -> [JSONObject] {
        try StoreFixtures.strings(store, sql).map { try object(Data($0.utf8)) }
    }

    /// `value` and what the store kept of it are the same JSON.
    static func same(_ kept: JSONValue?, _ value: JSONValue) -> Bool {
        kept.map { JSONWriter.string($0) == JSONWriter.string(value) } ?? false
    }

    /// Each key of `source` not read into a column (`columns`) is in `extras` with its value. A
    /// null or an empty text is no value (an empty note is a NULL note, not a field to keep).
    static func expectKept(_ source: JSONObject, in extras: JSONObject, except columns: Set<String>, _ what: String) {
        for (key, value) in source where !columns.contains(key) && !value.isNull && value.string != "" {
            #expect(same(extras[key], value), "\(what): \(key) is neither a column nor kept whole in extras")
        }
    }

    @Test func tandoorsRecipeStepsAndIngredientsArriveWhole() throws {
        let zip = try #require(TestPaths.files(under: Self.formats.appendingPathComponent("tandoor")) { $0.hasSuffix(".zip") }.first)
        let (store, report) = try directory.convert([zip], into: "tandoor.ferry")
        var recipes: [JSONObject] = []
        for (name, data) in try Self.entries(zip) where name.hasSuffix(".zip") {
            let inner = try directory.write(data, to: "inner-\(recipes.count).zip")
            recipes.append(try Self.object(try #require(try Self.entries(inner).first { $0.key.hasSuffix("recipe.json") }?.value)))
        }
        #expect(report.counts["recipe"] == recipes.count && !recipes.isEmpty)
        for source in recipes {
            let title = try #require(source["name"]?.string)
            let id = try #require(try StoreFixtures.strings(store, "SELECT id FROM recipe WHERE title = '\(title.replacingOccurrences(of: "'", with: "''"))'").first)
            let extras = try Self.stored(store, "SELECT extras FROM recipe WHERE id = '\(id)'")[0]
            Self.expectKept(source, in: extras, except: ["name", "description", "working_time", "waiting_time", "servings", "steps"], title)
            let steps = source["steps"]?.array?.compactMap(\.object) ?? []
            let stored = try StoreFixtures.strings(store, "SELECT id || '|' || coalesce(instruction, '') FROM recipe_step WHERE recipe_id = '\(id)' ORDER BY position")
            #expect(stored.map { String($0.split(separator: "|", maxSplits: 1).last ?? "") } == steps.map { $0["instruction"]?.string ?? "" })
            for (step, row) in Swift.zip(steps, stored) {
                let stepID = String(row.prefix(36))
                let stepExtras = try Self.stored(store, "SELECT extras FROM recipe_step WHERE id = '\(stepID)'")[0]
                Self.expectKept(step, in: stepExtras, except: ["name", "instruction", "time", "ingredients"], "\(title) step")
                let ingredients = step["ingredients"]?.array?.compactMap(\.object) ?? []
                let lines = try StoreFixtures.strings(store, """
                    SELECT coalesce(description, '') || '|' || coalesce(unit, '') || '|' || coalesce(notes, '') || '|' || extras
                    FROM material_line WHERE recipe_step_id = '\(stepID)' ORDER BY position
                    """)
                #expect(lines.count == ingredients.count)
                for (ingredient, line) in Swift.zip(ingredients, lines) {
                    let parts = line.split(separator: "|", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
                    let food = ingredient["food"]?.object, unit = ingredient["unit"]?.object
                    #expect(parts[0] == food?["name"]?.string ?? "")
                    #expect(parts[1] == unit?["name"]?.string ?? "")
                    #expect(parts[2] == (ingredient["note"]?.string ?? ""))
                    let lineExtras = try Self.object(Data(parts[3].utf8))
                    Self.expectKept(ingredient, in: lineExtras, except: ["food", "unit", "amount", "note"], "\(title) ingredient")
                    if let food { Self.expectKept(food, in: lineExtras["food"]?.object ?? JSONObject(), except: ["name"], "\(title) food") }
                    if let unit { Self.expectKept(unit, in: lineExtras["unit"]?.object ?? JSONObject(), except: ["name"], "\(title) unit") }
                }
            }
        }
    }

    typealias StoredBrew = (note: String, rating: String, seconds: String, extras: JSONObject, parameters: JSONObject)

    /// Every log of a store with its snapshot's parameters, by the brew's uuid.
    static func storedBrews(_ store: String) throws -> [String: StoredBrew] {
        var stored: [String: StoredBrew] = [:]
        for row in try StoreFixtures.strings(store, """
            SELECT l.source_key || char(31) || coalesce(l.note, '') || char(31) || coalesce(l.rating, '') || char(31)
                   || coalesce(l.duration_seconds, '') || char(31) || l.extras || char(31) || s.parameters
            FROM log l JOIN log_snapshot s ON s.log_id = l.id
            """) {
            let parts = row.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
            stored[parts[0]] = (parts[1], parts[2], parts[3], try Self.object(Data(parts[4].utf8)), try Self.object(Data(parts[5].utf8)))
        }
        return stored
    }

    /// A brew's own values: a column or a parameter where entered (above zero, not empty), else kept as written.
    static func expectBrewWhole(_ brew: JSONObject, _ log: StoredBrew, _ uuid: String) {
        var read: Set<String> = ["config"]
        func positive(_ key: String) -> Double? { brew[key]?.number?.double.flatMap { $0 > 0 ? $0 : nil } }
        if let note = brew["note"]?.string, !note.isEmpty { read.insert("note"); #expect(log.note == note) }
        if let rating = positive("rating") { read.insert("rating"); #expect(Double(log.rating) == rating) }
        if let seconds = positive("brew_time") {
            read.insert("brew_time")
            #expect(Double(log.seconds) == seconds && log.parameters["brewTime"]?.object?["value"]?.number?.double == seconds)
        }
        for (key, name) in [("grind_weight", "dose"), ("brew_quantity", "water"), ("brew_temperature", "temperature")] {
            guard let value = positive(key) else { continue }
            read.insert(key)
            #expect(log.parameters[name]?.object?["value"]?.number?.double == value, "\(uuid): \(key)")
        }
        if let size = brew["grind_size"]?.string, !size.isEmpty {
            read.insert("grind_size")
            #expect(log.parameters["grindSize"]?.object?["text"]?.string == size)
        }
        expectKept(brew, in: log.extras, except: read, "brew \(uuid)")
        #expect(Set(brew["config"]?.object?.keys ?? []).isSubset(of: ["uuid", "unix_timestamp"]) || log.extras["config"] != nil)
    }

    @Test func beanconquerorsBrewsArriveWhole() throws {
        let path = try #require(TestPaths.files(under: Self.formats.appendingPathComponent("beanconqueror")) { $0.hasSuffix("TestData.json") }.first)
        let (store, report) = try directory.convert([path], into: "bean.ferry")
        let brews = try Self.object(try Data(contentsOf: URL(fileURLWithPath: path)))["BREWS"]?.array?.compactMap(\.object) ?? []
        #expect(report.counts["log"] == brews.count && !brews.isEmpty)
        let stored = try Self.storedBrews(store)
        for brew in brews {
            let uuid = try #require(brew["config"]?.object?["uuid"]?.string)
            Self.expectBrewWhole(brew, try #require(stored[uuid], "brew \(uuid) is not in the store"), uuid)
        }
    }

    /// A brew shared from the app: the brew whole, its flow kept, and the records it names
    /// (bean, grinder, water, preparation) whole in their catalog items and recipe.
    @Test func aSharedBrewArrivesWholeWithWhatItNames() throws {
        let path = try #require(TestPaths.files(under: Self.formats.appendingPathComponent("beanconqueror")) { $0.hasSuffix("beanconqueror_real.json") }.first)
        let (store, _) = try directory.convert([path], into: "share-leaves.ferry")
        let share = try Self.object(try Data(contentsOf: URL(fileURLWithPath: path)))
        let brew = try #require(share["brew"]?.object)
        let stored = try Self.storedBrews(store)
        let uuid = try #require(brew["config"]?.object?["uuid"]?.string)
        let log = try #require(stored[uuid])
        Self.expectBrewWhole(brew, log, uuid)
        if let flow = share["brewFlow"] { #expect(Self.same(log.extras["brewFlow"], flow)) }
        for (key, kind, columns) in [("bean", "bean", ["name", "roaster"]), ("mill", "grinder", ["name"]), ("water", "water", ["name"])] {
            guard let record = share[key]?.object else { continue }
            let extras = try Self.stored(store, "SELECT extras FROM catalog_item WHERE json_extract(extras, '$.kind') = '\(kind)'")
            #expect(extras.count == 1, "\(key)")
            if let kept = extras.first { Self.expectKept(record, in: kept, except: Set(columns + ["config"]), "shared \(key)") }
        }
        if let preparation = share["preparation"]?.object {
            let extras = try Self.stored(store, "SELECT extras FROM recipe")
            #expect(extras.count == 1)
            if let kept = extras.first { Self.expectKept(preparation, in: kept, except: ["name", "type", "finished", "config"], "shared preparation") }
        }
    }

    @Test func mealiesBackupRecipesArriveWhole() throws {
        let zip = try #require(TestPaths.files(under: Self.formats.appendingPathComponent("mealie")) { $0.contains("backup") }.first)
        let (store, _) = try directory.convert([zip], into: "mealie.ferry")
        let database = try Self.object(try #require(try Self.entries(zip).first { $0.key.hasSuffix("database.json") }?.value))
        func rows(_ table: String) -> [JSONObject] { database[table]?.array?.compactMap(\.object) ?? [] }
        let recipes = rows("recipes")
        #expect(try StoreFixtures.strings(store, "SELECT count(*) FROM recipe") == ["\(recipes.count)"])
        for source in recipes {
            let key = try #require(source["id"]?.string)
            let id = try #require(try StoreFixtures.strings(store, "SELECT id FROM recipe WHERE source_key = '\(key)'").first, "recipe \(key)")
            #expect(try StoreFixtures.strings(store, "SELECT title FROM recipe WHERE id = '\(id)'") == [source["name"]?.string ?? ""])
            let extras = try Self.stored(store, "SELECT extras FROM recipe WHERE id = '\(id)'")[0]
            // Read into columns: the name, description and source; times when they read as minutes,
            // the yield when its number is the whole of it; one date of each pair.
            var read: Set<String> = ["id", "name", "description", "org_url"]
            let columns = try StoreFixtures.strings(store, """
                SELECT coalesce(prep_minutes, '-') || '|' || coalesce(cook_minutes, '-') || '|' || coalesce(estimated_minutes, '-') || '|' || coalesce(servings, '-')
                FROM recipe WHERE id = '\(id)'
                """)[0].split(separator: "|").map(String.init)
            for (time, column) in Swift.zip(["prep_time", "perform_time", "total_time"], columns) where column != "-" { read.insert(time) }
            if let servings = Double(columns[3]), let yield = source["recipe_yield"], Double((yield.string ?? yield.number?.text ?? "").trimmingCharacters(in: .whitespaces)) == servings {
                read.insert("recipe_yield")
            }
            for pair in [["created_at", "date_added"], ["update_at", "date_updated"]] {
                if let used = pair.first(where: { source[$0]?.string.flatMap(CanonicalTime.unixSeconds) != nil }) { read.insert(used) }
            }
            Self.expectKept(source, in: extras, except: read, "recipe \(key)")
            // Its nutrition and settings rows, whole but for the recipe's id.
            for (table, name) in [("recipe_nutrition", "nutrition"), ("recipe_settings", "settings")] {
                guard let part = rows(table).first(where: { $0["recipe_id"]?.string == key }) else { continue }
                Self.expectKept(part, in: extras[name]?.object ?? JSONObject(), except: ["recipe_id"], "recipe \(key) \(table)")
            }
            let ingredients = rows("recipes_ingredients").filter { $0["recipe_id"]?.string == key }
                .sorted { ($0["position"]?.number?.int64 ?? 0) < ($1["position"]?.number?.int64 ?? 0) }
            let lines = try StoreFixtures.strings(store, "SELECT coalesce(description, '') FROM material_line WHERE recipe_id = '\(id)' ORDER BY position")
            #expect(lines.count == ingredients.count, "recipe \(key)")
            for (ingredient, line) in Swift.zip(ingredients, lines) {
                if let original = ingredient["original_text"]?.string, !original.isEmpty { #expect(line == original) }
                else if let note = ingredient["note"]?.string?.trimmingCharacters(in: .whitespaces), !note.isEmpty { #expect(line.contains(note)) }
            }
            let steps = rows("recipe_instructions").filter { $0["recipe_id"]?.string == key }
                .sorted { ($0["position"]?.number?.int64 ?? 0) < ($1["position"]?.number?.int64 ?? 0) }
            #expect(try StoreFixtures.strings(store, "SELECT coalesce(instruction, '') FROM recipe_step WHERE recipe_id = '\(id)' ORDER BY position")
                    == steps.map { $0["text"]?.string ?? "" }, "recipe \(key)")
        }
    }

    /// Every table's rows but the runs', every column quoted, in a stable order.
    static func tables(_ store: String) throws -> [String] {
        try StoreFixtures.strings(store, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT IN ('import_run', \(CanonicalTables.internalTablesSQL)) ORDER BY name")
            .flatMap { table in
                let columns = try StoreFixtures.strings(store, "SELECT name FROM pragma_table_info('\(table)')")
                let row = columns.map { "quote(\($0))" }.joined(separator: " || '|' || ")
                return try StoreFixtures.strings(store, "SELECT \(row) FROM \(table)").sorted().map { "\(table): \($0)" }
            }
    }

    /// Each corpus export converted again into the store that holds it: not a row changes.
    @Test(arguments: ["tandoor", "mealie", "nextcloud", "beanconqueror", "cooklang", "paprika", "schema-org"])
    func convertingAnExportAgainChangesNothing(format: String) throws {
        let options = ConversionOptions(keepGoing: true, openArchive: ArchiveReader.opener)
        // The corpus's named negative cases (a page with no recipe) are refused alone; the rest go in together.
        let inputs = TestPaths.files(under: Self.formats.appendingPathComponent(format)) { !$0.hasSuffix(".yaml") }.filter { input in
            let dry = ConversionJob(inputs: [input], store: directory.url.appendingPathComponent("dry.ferry").path, options: options, dryRun: true)
            return (try? dry.run()) != nil
        }
        #expect(!inputs.isEmpty)
        let store = directory.url.appendingPathComponent("again-\(format).ferry").path
        let first = try ConversionJob(inputs: inputs, store: store, options: options).run()
        let before = try Self.tables(store)
        #expect(before.count > 10)
        let second = try ConversionJob(inputs: inputs, store: store, options: options).run()
        #expect(try Self.tables(store) == before, "\(format)")
        #expect(second.counts == first.counts && second.rejected.count == first.rejected.count)
    }

    /// Mealie v0.5's export: `recipes/<slug>/<slug>.json`, ingredients and steps inline.
    @Test func mealiesOlderExportArrivesWhole() throws {
        let zip = try #require(TestPaths.files(under: Self.formats.appendingPathComponent("mealie")) { $0.contains("migrations") }.first)
        let (store, report) = try directory.convert([zip], into: "mealie-export.ferry")
        let recipes = try Self.entries(zip).filter { entry in
            let parts = entry.key.split(separator: "/")
            return parts.count >= 3 && parts[parts.count - 3] == "recipes" && entry.key.hasSuffix("/\(parts[parts.count - 2]).json")
        }.map { try Self.object($0.value) }
        #expect(report.counts["recipe"] == recipes.count && !recipes.isEmpty)
        for source in recipes {
            let slug = try #require(source["slug"]?.string)
            let id = try #require(try StoreFixtures.strings(store, "SELECT id FROM recipe WHERE source_key = '\(slug)'").first, "recipe \(slug)")
            #expect(try StoreFixtures.strings(store, "SELECT title FROM recipe WHERE id = '\(id)'") == [source["name"]?.string ?? ""])
            let extras = try Self.stored(store, "SELECT extras FROM recipe WHERE id = '\(id)'")[0]
            var read: Set<String> = ["slug", "name", "description", "org_url", "recipe_ingredient", "recipe_instructions", "tags"]
            let columns = try StoreFixtures.strings(store, """
                SELECT coalesce(prep_minutes, '-') || '|' || coalesce(cook_minutes, '-') || '|' || coalesce(estimated_minutes, '-') || '|' || coalesce(servings, '-') || '|' || coalesce(category, '-')
                FROM recipe WHERE id = '\(id)'
                """)[0].split(separator: "|").map(String.init)
            for (time, column) in Swift.zip(["prep_time", "perform_time", "total_time"], columns) where column != "-" { read.insert(time) }
            if let servings = Double(columns[3]), let yield = source["recipe_yield"], Double((yield.string ?? yield.number?.text ?? "").trimmingCharacters(in: .whitespaces)) == servings {
                read.insert("recipe_yield")
            }
            if (source["recipe_category"]?.array?.count ?? 0) <= 1 { read.insert("recipe_category") }
            for pair in [["created_at", "date_added"], ["update_at", "date_updated"]] {
                if let used = pair.first(where: { source[$0]?.string.flatMap(CanonicalTime.unixSeconds) != nil }) { read.insert(used) }
            }
            Self.expectKept(source, in: extras, except: read, "recipe \(slug)")
            let lines = try StoreFixtures.strings(store, "SELECT coalesce(description, '') FROM material_line WHERE recipe_id = '\(id)' ORDER BY position")
            let ingredients = source["recipe_ingredient"]?.array ?? []
            #expect(lines.count == ingredients.count, "recipe \(slug)")
            for (ingredient, line) in Swift.zip(ingredients, lines) {
                if let text = ingredient.string { #expect(line == text) }
                else if let original = ingredient.object?["original_text"]?.string, !original.isEmpty { #expect(line == original) }
                else if let note = ingredient.object?["note"]?.string?.trimmingCharacters(in: .whitespaces), !note.isEmpty { #expect(line.contains(note)) }
            }
            let steps = (source["recipe_instructions"]?.array ?? []).map { $0.string ?? $0.object?["text"]?.string ?? "" }
            #expect(try StoreFixtures.strings(store, "SELECT coalesce(instruction, '') FROM recipe_step WHERE recipe_id = '\(id)' ORDER BY position") == steps)
            let tags = Set(try StoreFixtures.strings(store, "SELECT t.name FROM recipe_tag rt JOIN tag t ON t.id = rt.tag_id WHERE rt.recipe_id = '\(id)'"))
            for tag in source["tags"]?.array ?? [] { #expect(tags.contains(tag.string ?? tag.object?["name"]?.string ?? "?"), "recipe \(slug)") }
        }
    }

    /// A `.menu`: every meal's items, in order, with the day and the meal they are under; its
    /// front matter kept.
    @Test func cooklangMenusArriveWhole() throws {
        let files = TestPaths.files(under: Self.formats.appendingPathComponent("cooklang")) { $0.hasSuffix(".menu") }
        #expect(!files.isEmpty)
        for path in files {
            let (store, _) = try directory.convert([path], into: "menu-\(abs(path.hashValue)).ferry")
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let steps = try Self.stored(store, "SELECT extras FROM project_step ORDER BY position")
            let kinds = try StoreFixtures.strings(store, "SELECT coalesce(kind, '') FROM project_step ORDER BY position")
            // Names in the order the text gives them, with the day and meal each is under.
            var expected: [(name: String, day: String?, meal: String?)] = []
            var day: String?, meal: String?
            for line in text.components(separatedBy: "\n") {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("=="), trimmed.hasSuffix("=="), trimmed.count > 4 {
                    day = String(trimmed.dropFirst(2).dropLast(2)).trimmingCharacters(in: .whitespaces)
                } else if let colon = trimmed.firstIndex(of: ":"), !trimmed.hasPrefix("-"), !trimmed.contains("@"),
                          trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: CharacterSet(charactersIn: " \\")).isEmpty {
                    meal = String(trimmed[..<colon])
                }
                for match in line.matches(of: /@([^@#~{}\n]*?)\{/) { expected.append((String(match.1), day, meal)) }
            }
            var found: [(name: String, day: String?, meal: String?)] = []
            for (extras, kind) in Swift.zip(steps, kinds) {
                for item in extras["items"]?.array ?? [] {
                    found.append((item.object?["name"]?.string ?? "", extras["day"]?.string, kind.isEmpty ? nil : kind))
                }
            }
            #expect(expected.count > 3 && expected.contains { $0.day != nil && $0.meal != nil }, "\(path)")
            #expect(found.map(\.name) == expected.map(\.name), "\(path)")
            #expect(found.map(\.day) == expected.map(\.day), "\(path)")
            #expect(found.map(\.meal) == expected.map { $0.meal?.lowercased() }, "\(path)")
            let extras = try Self.stored(store, "SELECT extras FROM project")[0]
            let lines = text.components(separatedBy: "\n")
            if lines.first == "---", let close = lines.dropFirst().firstIndex(of: "---") {
                for line in lines[1..<close] {
                    let pair = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                    if pair.count == 2 { #expect(extras[pair[0]]?.string == pair[1], "\(path): \(pair[0])") }
                }
            }
        }
    }

    /// A `.cook` file's metadata (front matter or `>>` lines) each in a column or extras, its
    /// ingredients in the order the text names them, one step per paragraph.
    @Test func cooklangRecipesArriveWhole() throws {
        let files = TestPaths.files(under: Self.formats.appendingPathComponent("cooklang")) { $0.hasSuffix(".cook") }
        #expect(!files.isEmpty)
        for path in files {
            let (store, _) = try directory.convert([path], into: "\(abs(path.hashValue)).ferry")
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let id = try #require(try StoreFixtures.strings(store, "SELECT id FROM recipe").first, "\(path)")
            // Ingredient names in order, found with a pattern of the spec's syntax rather than Ferry's parser.
            let body = text.components(separatedBy: "\n").filter { !$0.hasPrefix(">>") && !$0.hasPrefix("--") }.joined(separator: "\n")
            let pattern = /@(?:\.\/)?([^@#~{}\n]*?)\{([^}]*)\}|@([^\s@#~{}.,;:!?()]+)/
            var names: [String] = []
            for match in body.matches(of: pattern) {
                let name = String(match.1 ?? match.3 ?? "").trimmingCharacters(in: .whitespaces)
                if !name.isEmpty { names.append(name) }
            }
            let stored = try StoreFixtures.strings(store, """
                SELECT m.description FROM material_line m LEFT JOIN recipe_step s ON s.id = m.recipe_step_id
                WHERE m.recipe_id = '\(id)' OR s.recipe_id = '\(id)' ORDER BY coalesce(s.position, -1), m.position
                """)
            #expect(stored.count >= Set(names).count, "\(path)")
            for name in names { #expect(stored.contains { $0.hasSuffix(name) || $0 == name }, "\(path): @\(name)") }
            let extras = try Self.stored(store, "SELECT extras FROM recipe WHERE id = '\(id)'")[0]
            let row = try StoreFixtures.strings(store, """
                SELECT title || char(31) || coalesce(summary, '') || char(31) || coalesce(source_url, '') || char(31) || coalesce(author, '')
                       || char(31) || coalesce(difficulty, '') || char(31) || coalesce(category, '') || char(31) || coalesce(prep_minutes, '')
                       || char(31) || coalesce(cook_minutes, '') || char(31) || coalesce(estimated_minutes, '') FROM recipe
                """)[0].split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
            let tags = try StoreFixtures.strings(store, "SELECT t.name FROM recipe_tag rt JOIN tag t ON t.id = rt.tag_id")
            // The metadata: YAML front matter's `key: value` lines and `>> key: value` lines.
            let lines = text.components(separatedBy: "\n")
            var metadata: [(String, String)] = []
            if lines.first == "---", let close = lines.dropFirst().firstIndex(of: "---") {
                metadata += lines[1..<close].compactMap { line in
                    let pair = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                    return pair.count == 2 && !line.hasPrefix(" ") ? (pair[0], pair[1]) : nil
                }
            }
            metadata += lines.filter { $0.hasPrefix(">>") }.compactMap { line in
                let pair = line.dropFirst(2).split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                return pair.count == 2 ? (pair[0], pair[1]) : nil
            }
            #expect(!metadata.isEmpty || !text.contains("---"), "\(path)")
            for (key, value) in metadata where !value.isEmpty {
                switch key.lowercased() {
                case "title", "description", "introduction", "source", "source.url", "author", "source.author", "difficulty", "course", "category":
                    #expect(row.contains(value), "\(path): \(key) is not in its column")
                case "tags":
                    for tag in value.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).split(separator: ",") {
                        #expect(tags.contains(tag.trimmingCharacters(in: .whitespaces)), "\(path): tag \(tag)")
                    }
                case "prep time", "time.prep", "prep_time", "cook time", "time.cook", "cook_time", "time", "duration", "time required":
                    #expect(extras[key] != nil || !row[6...8].allSatisfy(\.isEmpty), "\(path): \(key)")
                default:
                    #expect(extras[key]?.string == value, "\(path): \(key) is neither a column nor kept in extras")
                }
            }
        }
    }
}
