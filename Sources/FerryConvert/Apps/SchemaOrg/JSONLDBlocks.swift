import FerryJSON
import Foundation

/// The JSON-LD of a web page: each `<script type="application/ld+json">` block, read as JSON,
/// leniently where the intent is clear (raw line breaks and tabs inside strings, which pages
/// often carry, are read as their escapes).
enum JSONLDBlocks {
    /// Pages larger than this are refused rather than searched.
    static let maximumPage = 64 << 20

    struct Block {
        let number: Int
        let value: Result<JSONValue, JSONReadError>
    }

    static func blocks(in page: [UInt8]) -> [Block] {
        let lower = page.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        var blocks: [Block] = []
        var from = 0
        while let open = find(Array("<script".utf8), in: lower, from: from) {
            guard let tagEnd = lower[open...].firstIndex(of: UInt8(ascii: ">")) else { break }
            let tag = lower[open..<tagEnd]
            from = tagEnd + 1
            guard find(Array("application/ld+json".utf8), in: Array(tag), from: 0) != nil else { continue }
            let close = find(Array("</script".utf8), in: lower, from: from) ?? lower.count
            blocks.append(Block(number: blocks.count + 1, value: read(Array(page[from..<close]))))
            from = close
        }
        return blocks
    }

    /// Strict JSON first; failing that, the same text with control characters inside strings escaped.
    static func read(_ bytes: [UInt8]) -> Result<JSONValue, JSONReadError> {
        do {
            return .success(try JSONReader().read(bytes))
        } catch let strict {
            do {
                return .success(try JSONReader().read(escapingControlCharacters(bytes)))
            } catch {
                return .failure(strict)
            }
        }
    }

    private static func escapingControlCharacters(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString && byte < 0x20 {
                switch byte {
                case 0x0A: result += Array("\\n".utf8)
                case 0x0D: result += Array("\\r".utf8)
                case 0x09: result += Array("\\t".utf8)
                default: result += Array(String(format: "\\u%04x", byte).utf8)
                }
                continue
            }
            result.append(byte)
            if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = inString } else if byte == UInt8(ascii: "\"") { inString.toggle() }
        }
        return result
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        var index = start
        let last = haystack.count - needle.count
        while index <= last {
            guard let first = haystack[index...last].firstIndex(of: needle[0]) else { return nil }
            if haystack[first..<(first + needle.count)].elementsEqual(needle) { return first }
            index = first + 1
        }
        return nil
    }

    /// The Recipe nodes in a JSON-LD value: at the top, in a list, in `@graph`, or inside
    /// another node (an article's `mainEntity`).
    static func recipes(in value: JSONValue, depth: Int = 0) -> [JSONObject] {
        guard depth < 64 else { return [] }
        switch value {
        case .object(let object):
            if isRecipe(object) { return [object] }
            return object.members.flatMap { recipes(in: $0.value, depth: depth + 1) }
        case .array(let elements):
            return elements.flatMap { recipes(in: $0, depth: depth + 1) }
        default:
            return []
        }
    }

    static func isRecipe(_ object: JSONObject) -> Bool {
        let types: [String]
        switch object["@type"] {
        case .string(let type)?: types = [type]
        case .array(let elements)?: types = elements.compactMap(\.string)
        default: return false
        }
        return types.contains { $0 == "Recipe" || $0.hasSuffix("schema.org/Recipe") || $0 == "schema:Recipe" }
    }
}
