extension Substring {
    /// The text without white space (and line breaks) at either end: what
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` gives (the same characters: Unicode's
    /// White_Space), without Foundation's bridging, a seventh of reading a schema.org recipe.
    public var trimmedWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(self[first..<scalars.index(after: last)])
    }
}

extension String {
    /// As ``Substring/trimmedWhitespace``; the string itself when there is nothing to trim.
    public var trimmedWhitespace: String {
        guard let first = unicodeScalars.first, let last = unicodeScalars.last,
              first.properties.isWhitespace || last.properties.isWhitespace else { return self }
        return self[...].trimmedWhitespace
    }
}
