import Foundation

/// A Cooklang recipe (`.cook`, spec version 7): front matter and `>>` metadata, steps (a
/// paragraph each, its lines joined by a space) made of text, ingredients (`@name`,
/// `@two words{qty%unit}(note)`, `@./sub recipe{}`), cookware (`#pot`, `#frying pan{2}`) and
/// timers (`~{10%minutes}`, `~rest`), `= sections =`, `> notes`, `--` and `[- -]` comments.
/// `Tests/…/CooklangTests` runs the spec's own canonical tests against it.
struct CooklangRecipe: Equatable {
    enum Quantity: Equatable {
        case number(Double)
        case text(String)
    }

    enum Item: Equatable {
        case text(String)
        case ingredient(name: String, quantity: Quantity?, units: String, note: String?)
        case cookware(name: String, quantity: Quantity?)
        case timer(name: String, quantity: Quantity?, units: String)
    }

    struct Step: Equatable {
        var items: [Item]
        var section: String?
    }

    struct Note: Equatable {
        var text: String
        var section: String?
        /// The step it follows (its place among the steps).
        var afterStep: Int
    }

    var metadata: [(key: String, value: String)] = []
    var steps: [Step] = []
    var notes: [Note] = []

    static func == (lhs: CooklangRecipe, rhs: CooklangRecipe) -> Bool {
        lhs.metadata.map { "\($0.key)=\($0.value)" } == rhs.metadata.map { "\($0.key)=\($0.value)" } && lhs.steps == rhs.steps && lhs.notes == rhs.notes
    }
}

enum CooklangParser {
    static func parse(_ source: String) -> CooklangRecipe {
        var recipe = CooklangRecipe()
        // "\r\n" is one Character in Swift, never equal to "\n": files saved on Windows are split
        // only once their line ends are made "\n".
        let text = source.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        var lines = withoutBlockComments(text).components(separatedBy: "\n")
        if lines.first?.trimmingCharacters(in: .whitespaces) == "---", let end = lines.dropFirst().firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "---" }) {
            for line in lines[1..<end] {
                if let entry = keyValue(line) { recipe.metadata.append(entry) }
            }
            lines.removeSubrange(0...end)
        }
        var section: String?
        var paragraph: String?
        func flush() {
            if let text = paragraph {
                let items = parseStep(text)
                if !items.isEmpty { recipe.steps.append(.init(items: items, section: section)) }
            }
            paragraph = nil
        }
        for raw in lines {
            let line = withoutLineComment(raw)
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty {
                // A line that held only a comment neither adds text nor ends the step.
                if raw.trimmingCharacters(in: .whitespaces).isEmpty { flush() }
                continue
            }
            if trimmed.hasPrefix(">>") {
                if let entry = keyValue(String(trimmed.dropFirst(2))) { recipe.metadata.append(entry) }
            } else if trimmed.hasPrefix("=") {
                flush()
                let name = trimmed.trimmingCharacters(in: CharacterSet(charactersIn: "= "))
                section = name.isEmpty ? nil : name
            } else if trimmed.hasPrefix(">") {
                flush()
                recipe.notes.append(.init(text: String(trimmed.dropFirst()).trimmingCharacters(in: .whitespaces), section: section,
                                          afterStep: recipe.steps.count))
            } else {
                paragraph = paragraph.map { $0 + " " + line } ?? line
            }
        }
        flush()
        return recipe
    }

    /// `key: value`, both trimmed; nil without a colon.
    static func keyValue(_ line: String) -> (key: String, value: String)? {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let key = line[..<colon].trimmingCharacters(in: .whitespaces)
        guard !key.isEmpty else { return nil }
        return (key, line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }

    private static func withoutBlockComments(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let start = rest.range(of: "[-") {
            result += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].range(of: "-]") else { return result }
            rest = rest[end.upperBound...]
        }
        return result + rest
    }

    /// A line without its `-- comment`: two hyphens after no hyphen, before a space or the end
    /// (`---` and `a--b` are text).
    private static func withoutLineComment(_ line: String) -> String {
        let characters = Array(line)
        var index = 0
        while index + 1 < characters.count {
            if characters[index] == "-", characters[index + 1] == "-", index == 0 || characters[index - 1] != "-",
               index + 2 == characters.count || characters[index + 2].isWhitespace {
                return String(characters[..<index])
            }
            index += 1
        }
        return line
    }

    private static func isWordEnd(_ character: Character) -> Bool {
        character.isWhitespace || character.isPunctuation || (character.unicodeScalars.first.map { CharacterSet.punctuationCharacters.contains($0) } ?? false)
    }

    static func parseStep(_ text: String) -> [CooklangRecipe.Item] {
        let characters = Array(text)
        // Where the next "}" is from each place, found in one pass: a search per "{" was
        // quadratic on a step of unclosed braces.
        var nextClose = [Int](repeating: characters.count, count: characters.count + 1)
        for index in stride(from: characters.count - 1, through: 0, by: -1) {
            nextClose[index] = characters[index] == "}" ? index : nextClose[index + 1]
        }
        var items: [CooklangRecipe.Item] = []
        var pending = ""
        func addText(_ string: String) {
            guard !string.isEmpty else { return }
            pending += string
        }
        func flushText() {
            if !pending.isEmpty { items.append(.text(pending)) }
            pending = ""
        }
        var index = 0
        while index < characters.count {
            let marker = characters[index]
            guard marker == "@" || marker == "#" || marker == "~", let (item, end) = component(marker, characters, from: index, nextClose: nextClose) else {
                addText(String(marker))
                index += 1
                continue
            }
            flushText()
            items.append(item)
            index = end
        }
        flushText()
        return items
    }

    /// The component starting at `start` (its marker), and where the text after it starts; nil
    /// when the marker starts none (`@ example`).
    private static func component(_ marker: Character, _ characters: [Character], from start: Int, nextClose: [Int]) -> (CooklangRecipe.Item, Int)? {
        let first = start + 1
        guard first < characters.count else { return nil }
        let next = characters[first]
        var name = ""
        var braceOpen: Int?
        if next == "{" {
            guard marker == "~" else { return nil }
            braceOpen = first
        } else {
            // `@./Shared/Pizza Dough{}`: a reference to another recipe starts with a path.
            let isReference = marker == "@" && next == "." && first + 1 < characters.count && "./".contains(characters[first + 1])
            guard !isWordEnd(next) || isReference else { return nil }
            // Several words when a `{` closes the name before any other marker or the end.
            var scan = first
            while scan < characters.count, characters[scan] != "{", !"@#~".contains(characters[scan]) { scan += 1 }
            if scan < characters.count, characters[scan] == "{" {
                name = String(characters[first..<scan]).trimmingCharacters(in: .whitespaces)
                braceOpen = scan
            } else {
                var end = first
                while end < characters.count, !isWordEnd(characters[end]) { end += 1 }
                return (item(marker, name: String(characters[first..<end]), amount: nil, note: nil), end)
            }
        }
        guard let open = braceOpen, nextClose[open] < characters.count else {
            // An unclosed brace: the first word alone.
            var end = first
            while end < characters.count, !isWordEnd(characters[end]) { end += 1 }
            guard end > first else { return nil }
            return (item(marker, name: String(characters[first..<end]), amount: nil, note: nil), end)
        }
        let close = nextClose[open]
        let amount = String(characters[(open + 1)..<close])
        var end = close + 1
        var note: String?
        if marker == "@", end < characters.count, characters[end] == "(", let closing = characters[end...].firstIndex(of: ")") {
            note = String(characters[(end + 1)..<closing])
            end = closing + 1
        }
        return (item(marker, name: name, amount: amount, note: note), end)
    }

    private static func item(_ marker: Character, name: String, amount: String?, note: String?) -> CooklangRecipe.Item {
        let parts = amount.map { $0.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false).map(String.init) } ?? []
        let quantity = parts.first.flatMap(Self.quantity)
        let units = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
        switch marker {
        case "@": return .ingredient(name: name, quantity: quantity, units: units, note: note)
        case "#": return .cookware(name: name, quantity: quantity)
        default: return .timer(name: name, quantity: quantity, units: units)
        }
    }

    /// A number (`3`, `1.5`, `1/2`, `1 / 2`; `=1`, fixed, is 1), text for anything else
    /// (`few`, `7 k`, `01/2`), nil when empty.
    static func quantity(_ raw: String) -> CooklangRecipe.Quantity? {
        var text = raw.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("=") { text = String(text.dropFirst()).trimmingCharacters(in: .whitespaces) }
        guard !text.isEmpty else { return nil }
        if let value = Double(text), text.allSatisfy({ $0.isNumber || $0 == "." }) { return .number(value) }
        let fraction = text.split(separator: "/", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        if fraction.count == 2, let top = Double(fraction[0]), let bottom = Double(fraction[1]), bottom != 0,
           fraction.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }), !(fraction[0].hasPrefix("0") && fraction[0].count > 1) {
            return .number(top / bottom)
        }
        return .text(text)
    }
}
