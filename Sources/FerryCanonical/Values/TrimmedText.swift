extension Substring {
    /// The text without white space (and line breaks) at either end: what
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` gives (the same characters: Unicode's
    /// White_Space and, as Foundation counts it, U+200B ZERO WIDTH SPACE), without Foundation's
    /// bridging, a seventh of reading a schema.org recipe.
    public var trimmedWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.isTrimmedSpace }),
              let last = scalars.lastIndex(where: { !$0.isTrimmedSpace }) else { return "" }
        return String(self[first..<scalars.index(after: last)])
    }
}

extension String {
    /// As ``Substring/trimmedWhitespace``; the string itself when there is nothing to trim.
    public var trimmedWhitespace: String {
        guard let first = unicodeScalars.first, let last = unicodeScalars.last,
              first.isTrimmedSpace || last.isTrimmedSpace else { return self }
        return self[...].trimmedWhitespace
    }
}

extension Unicode.Scalar {
    /// White space as Foundation's `.whitespacesAndNewlines` has it: White_Space, and U+200B
    /// (a space separator in Unicode 4.0, which Foundation's set still holds; scraped recipe
    /// text carries it).
    fileprivate var isTrimmedSpace: Bool { properties.isWhitespace || value == 0x200B }
}
