/// Minutes as an ISO 8601 duration (`PT1H20M`), as schema.org's `prepTime` takes them; a
/// fraction of a minute as seconds (`PT1M30S`).
enum ISODuration {
    static func text(minutes: Double) -> String? {
        guard minutes.isFinite, minutes >= 0, minutes < 1e9 else { return nil }
        let seconds = Int64((minutes * 60).rounded())
        let (hours, rest) = seconds.quotientAndRemainder(dividingBy: 3600)
        let (wholeMinutes, leftover) = rest.quotientAndRemainder(dividingBy: 60)
        var text = "PT"
        if hours > 0 { text += "\(hours)H" }
        if wholeMinutes > 0 { text += "\(wholeMinutes)M" }
        if leftover > 0 || text == "PT" { text += "\(leftover)\(text == "PT" && leftover == 0 ? "M" : "S")" }
        return text
    }
}
