import Foundation

/// Durations as recipe apps write them: free text (`10 minutes`, `15 mins`, `1 hr 20 m`,
/// `1 Std. 30 Min.`, `90`) or ISO 8601 (`PT1H20M`, `P0DT0H45M`), as minutes. Text that does not
/// read as a duration whole is nil, to be kept as written: a guess is never stored as a number.
enum TextDuration {
    static func minutes(_ text: String) -> Double? {
        let trimmed = text.trimmedWhitespace
        guard !trimmed.isEmpty else { return nil }
        if trimmed.first == "P" || trimmed.first == "p" { return iso8601(trimmed) }
        return freeText(trimmed)
    }

    /// `PnDTnHnMnS` (weeks and years are not recipe times); fractions allowed on the last part.
    static func iso8601(_ text: String) -> Double? {
        var minutes = 0.0
        var number = ""
        var inTime = false
        var parts = 0
        for character in text.uppercased().dropFirst() {
            switch character {
            case "T":
                guard number.isEmpty, !inTime else { return nil }
                inTime = true
            case "0"..."9", ".", ",":
                number.append(character == "," ? "." : character)
            case "D", "H", "M", "S":
                guard let value = Double(number) else { return nil }
                switch (character, inTime) {
                case ("D", false): minutes += value * 1440
                case ("H", true): minutes += value * 60
                case ("M", true): minutes += value
                case ("S", true): minutes += value / 60
                default: return nil
                }
                number = ""
                parts += 1
            default:
                return nil
            }
        }
        return number.isEmpty && parts > 0 ? minutes : nil
    }

    private static let units: [(names: Set<String>, minutes: Double)] = [
        (["d", "day", "days", "tag", "tage"], 1440),
        (["h", "hr", "hrs", "hour", "hours", "std", "stunde", "stunden", "heure", "heures"], 60),
        (["m", "min", "mins", "minute", "minutes", "minuten"], 1),
        (["s", "sec", "secs", "second", "seconds", "sek", "sekunden"], 1.0 / 60),
    ]

    /// Number and unit pairs (`1 hr 20 m`, `1h30`, `2 1/2 hours`); a number alone is minutes.
    static func freeText(_ text: String) -> Double? {
        var tokens: [String] = []
        var current = ""
        var currentIsNumber = false
        for character in text.lowercased() {
            // A point or slash belongs to a number only inside one (`Std.` ends a word).
            let isNumber = character.isNumber || (currentIsNumber && !current.isEmpty && ".,/".contains(character))
            let isLetter = character.isLetter
            if !isNumber && !isLetter {
                if !current.isEmpty { tokens.append(current) }
                current = ""
                continue
            }
            if !current.isEmpty && isNumber != currentIsNumber {
                tokens.append(current)
                current = ""
            }
            current.append(character)
            currentIsNumber = isNumber
        }
        if !current.isEmpty { tokens.append(current) }
        var minutes = 0.0
        var pending: Double?
        var sawUnit = false
        for token in tokens where token != "and" && token != "und" {
            if let value = number(token) {
                // `2 1/2 hours`: a whole number and a fraction make one amount.
                if let whole = pending, token.contains("/") { pending = whole + value; continue }
                guard pending == nil else { return nil }
                pending = value
            } else if let unit = units.first(where: { $0.names.contains(token) }) {
                guard let value = pending else { return nil }
                minutes += value * unit.minutes
                pending = nil
                sawUnit = true
            } else {
                return nil
            }
        }
        if let value = pending {
            // `1h30`: what follows hours is minutes; a bare number is minutes.
            minutes += value
        }
        return sawUnit || pending != nil ? minutes : nil
    }

    private static func number(_ token: String) -> Double? {
        if token.contains("/") {
            let parts = token.split(separator: "/")
            guard parts.count == 2, let top = Double(parts[0]), let bottom = Double(parts[1]), bottom != 0 else { return nil }
            return top / bottom
        }
        return Double(token.replacingOccurrences(of: ",", with: "."))
    }
}
