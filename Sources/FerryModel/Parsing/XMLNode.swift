import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A parsed XML element: the small tree the model parser walks.
///
/// Model files are a few hundred kilobytes at most, so a tree is simpler than streaming
/// and keeps each element's parser (`EntityDescription+XML.swift`, …) a plain function of
/// its node. Text content is ignored: no element of a model file has any.
struct XMLNode: Sendable {
    var name: String
    var attributes: [String: String]
    var children: [XMLNode]
    /// 1-based line of the start tag, for error messages.
    var line: Int

    func children(named childName: String) -> [XMLNode] {
        children.filter { $0.name == childName }
    }
}

/// Builds an ``XMLNode`` tree from untrusted bytes.
///
/// Real model files never carry a document type declaration, so any DTD or entity
/// declaration is refused before libxml2 sees the bytes: this rules out billion-laughs
/// expansion and external entities (XXE) without relying on parser options, in time and
/// memory bounded by the file size.
struct XMLTreeReader {
    /// No real model file nests deeper than 5 levels (model › entity › attribute › userInfo › entry).
    static let maximumDepth = 32

    enum Failure: Error, Equatable {
        case empty
        case notXML(firstBytes: String)
        case binaryPropertyList
        case declarationRefused(String)
        case unsupportedEncoding(String)
        case malformed(line: Int, column: Int, reason: String)
        case truncated(line: Int)
        case tooDeep(line: Int)
    }

    func read(_ data: Data) throws(Failure) -> XMLNode {
        try Self.screen(data)
        let builder = TreeBuilder()
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        parser.shouldReportNamespacePrefixes = false
        parser.delegate = builder
        let ok = parser.parse()
        if let depthLine = builder.tooDeepAtLine { throw .tooDeep(line: depthLine) }
        if let root = builder.root, let line = Self.trailingContentLine(data, rootName: root.name) {
            throw .malformed(line: line, column: 1, reason: "content after the end of the root element")
        }
        if !ok || builder.root == nil {
            // libxml2 refuses a single value past its limit with a generic or "truncated" error:
            // name the value instead.
            if let long = Self.overlongValue(data) {
                throw .malformed(line: long.line, column: long.column,
                                 reason: "a value of \(long.bytes) bytes, over libxml2's limit of \(Self.maximumValueBytes) bytes for one value")
            }
            // Where libxml2 first complained; the parser's own position has moved on by now.
            let (line, column) = builder.firstErrorPosition ?? (parser.lineNumber, parser.columnNumber)
            if builder.isInsideElement && Self.endsInsideDocument(data, errorLine: line) || builder.root == nil && builder.sawStartTag && builder.firstErrorPosition == nil {
                throw .truncated(line: line)
            }
            let code = (parser.parserError as NSError?)?.code ?? 0
            throw .malformed(line: line, column: column, reason: Self.describe(code: code))
        }
        return builder.root!
    }

    /// Refuses inputs that are not XML, or that declare a DTD or entities, before parsing.
    static func screen(_ data: Data) throws(Failure) {
        var bytes = data[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard let first = bytes.first(where: { !$0.isXMLWhitespace }) else { throw .empty }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            throw .unsupportedEncoding("UTF-16 (byte order mark)")
        }
        if bytes.starts(with: Array("bplist".utf8)) { throw .binaryPropertyList }
        guard first == UInt8(ascii: "<") else {
            let prefix = bytes.prefix(8).map { byte in
                (0x20..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : String(format: "\\x%02X", byte)
            }.joined()
            throw .notXML(firstBytes: prefix)
        }
        // NUL bytes mean UTF-16/32 or binary data, where the byte scan below would be blind.
        if bytes.contains(0) { throw .unsupportedEncoding("not UTF-8 (contains NUL bytes)") }
        if let encoding = declaredEncoding(bytes),
           !["utf-8", "utf8", "us-ascii", "ascii", "iso-8859-1", "latin1"].contains(encoding.lowercased()) {
            throw .unsupportedEncoding("declares encoding \"\(encoding)\"")
        }
        for marker in ["<!DOCTYPE", "<!ENTITY"] where bytes.firstRange(of: Array(marker.utf8)) != nil {
            throw .declarationRefused(marker)
        }
        // Foundation's XMLParser traps on some invalid UTF-8 that libxml2 lets through (in
        // attribute names, found by fuzzing), so UTF-8 text is checked whole first.
        let latin1 = declaredEncoding(bytes).map { ["iso-8859-1", "latin1"].contains($0.lowercased()) } ?? false
        if !latin1, String(validating: bytes, as: UTF8.self) == nil {
            let (line, column) = firstInvalidUTF8(bytes)
            throw .malformed(line: line, column: column, reason: "text is not valid UTF-8")
        }
    }

    /// libxml2's XML_MAX_TEXT_LENGTH: the longest attribute value or text it parses without
    /// XML_PARSE_HUGE, which XMLParser does not set.
    static let maximumValueBytes = 10_000_000

    /// The first run of bytes between markup or quote characters longer than libxml2 takes, with
    /// where it starts.
    static func overlongValue(_ data: Data) -> (line: Int, column: Int, bytes: Int)? {
        guard data.count > maximumValueBytes else { return nil }
        var line = 1, lineStart = 0, runStart = 0, runLine = 1, runColumn = 1
        for (offset, byte) in data.enumerated() {
            switch byte {
            case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"):
                if offset - runStart > maximumValueBytes { return (runLine, runColumn, offset - runStart) }
                runStart = offset + 1
                runLine = line
                runColumn = offset + 1 - lineStart + 1
            case 0x0A:
                line += 1
                lineStart = offset + 1
            default: break
            }
        }
        return data.count - runStart > maximumValueBytes ? (runLine, runColumn, data.count - runStart) : nil
    }

    /// The line and column (in bytes, 1-based) of the first byte that is not valid UTF-8.
    private static func firstInvalidUTF8(_ bytes: Data.SubSequence) -> (line: Int, column: Int) {
        var line = 1
        for text in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            var index = text.startIndex
            while index < text.endIndex {
                let lead = text[index]
                let length = lead < 0x80 ? 1 : lead < 0xC2 ? 0 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : lead < 0xF5 ? 4 : 0
                guard length > 0, index + length <= text.endIndex,
                      String(validating: text[index..<(index + length)], as: UTF8.self) != nil
                else { return (line, index - text.startIndex + 1) }
                index += length
            }
            line += 1
        }
        return (line, 1)
    }

    /// The `encoding` of the `<?xml …?>` declaration, when there is one.
    private static func declaredEncoding(_ bytes: Data.SubSequence) -> String? {
        guard bytes.starts(with: Array("<?xml".utf8)),
              let end = bytes.firstRange(of: Array("?>".utf8)) else { return nil }
        let declaration = String(decoding: bytes[bytes.startIndex..<end.lowerBound], as: UTF8.self)
        guard let match = declaration.firstMatch(of: /encoding\s*=\s*["']([^"']*)["']/) else { return nil }
        return String(match.1)
    }

    /// libxml2, as XMLParser drives it, stops quietly at the end of the root element; anything
    /// but whitespace and comments after it means a damaged file (an appended merge, say).
    private static func trailingContentLine(_ data: Data, rootName: String) -> Int? {
        guard let end = data.lastRange(of: Data("</\(rootName)>".utf8)) else { return nil }
        var rest = String(decoding: data[end.upperBound...], as: UTF8.self)
        while let open = rest.range(of: "<!--"), let close = rest.range(of: "-->", range: open.upperBound..<rest.endIndex) {
            rest.replaceSubrange(open.lowerBound..<close.upperBound, with: " ")
        }
        guard let offset = rest.firstIndex(where: { !$0.isWhitespace }) else { return nil }
        let before = data[..<end.upperBound].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        return before + rest[..<offset].filter { $0 == "\n" }.count
    }

    /// A parse that fails on the last line, still inside an element, ran out of input.
    private static func endsInsideDocument(_ data: Data, errorLine: Int) -> Bool {
        let lines = data.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        return errorLine >= lines - 1
    }

    private static func describe(code: Int) -> String {
        // libxml2's xmlParserErrors numbers, as XMLParser reports them.
        switch code {
        case 4: return "document is empty or not XML"
        case 5: return "document ends too early"
        case 9: return "invalid character"
        case 23, 24: return "invalid character reference"
        case 26: return "reference to an undefined entity"
        case 38, 39, 40, 41: return "unterminated or malformed attribute value"
        case 65: return "malformed attribute"
        case 68, 73: return "malformed start or end tag"
        case 76: return "mismatched end tag"
        case 77: return "unclosed element"
        case 5000...: return "input is not valid UTF-8 or the declared encoding"
        default: return "malformed XML (libxml2 error \(code))"
        }
    }
}

private extension UInt8 {
    var isXMLWhitespace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D }
}

/// XMLParser delegate that assembles the tree; it stops the parse once nesting gets absurd.
private final class TreeBuilder: NSObject, XMLParserDelegate {
    var root: XMLNode?
    var stack: [XMLNode] = []
    var sawStartTag = false
    var tooDeepAtLine: Int?
    var firstErrorPosition: (Int, Int)?
    var isInsideElement: Bool { !stack.isEmpty }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        sawStartTag = true
        guard stack.count < XMLTreeReader.maximumDepth else {
            tooDeepAtLine = parser.lineNumber
            parser.abortParsing()
            return
        }
        stack.append(XMLNode(name: elementName, attributes: attributeDict, children: [], line: parser.lineNumber))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        guard let node = stack.popLast() else { return }
        if stack.isEmpty {
            root = node
        } else {
            stack[stack.count - 1].children.append(node)
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        if firstErrorPosition == nil { firstErrorPosition = (parser.lineNumber, parser.columnNumber) }
    }

    func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) {
        parser.abortParsing()
    }

    func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? {
        nil
    }
}
