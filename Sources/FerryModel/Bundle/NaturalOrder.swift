/// Orders version names as people read them: `Model` < `Model 2` < `Model 10`,
/// `v2.5` < `v2.5.1` < `v2.6.0`. Digit runs compare by value, other text by Unicode order.
enum NaturalOrder {
    static func areInIncreasingOrder(_ lhs: String, _ rhs: String) -> Bool {
        let left = chunks(lhs), right = chunks(rhs)
        for (a, b) in zip(left, right) where a != b {
            switch (a, b) {
            case let (.number(x), .number(y)): return x.count != y.count ? x.count < y.count : x < y
            case let (.text(x), .text(y)): return x < y
            case (.number, .text): return true
            case (.text, .number): return false
            }
        }
        return left.count != right.count ? left.count < right.count : lhs < rhs
    }

    private enum Chunk: Equatable {
        /// Digits without leading zeros, so that length then text order is numeric order.
        case number(String)
        case text(String)
    }

    private static func chunks(_ string: String) -> [Chunk] {
        var result: [Chunk] = []
        var current = ""
        var currentIsDigits = false
        func flush() {
            guard !current.isEmpty else { return }
            if currentIsDigits {
                let trimmed = current.drop { $0 == "0" }
                result.append(.number(trimmed.isEmpty ? "0" : String(trimmed)))
            } else {
                result.append(.text(current))
            }
            current = ""
        }
        for character in string {
            let isDigit = character.isASCII && character.isNumber
            if isDigit != currentIsDigits { flush(); currentIsDigits = isDigit }
            current.append(character)
        }
        flush()
        return result
    }
}
