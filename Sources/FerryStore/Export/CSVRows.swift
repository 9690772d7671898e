import FerryJSON

/// Where a table's rows go as CSV (RFC 4180: fields separated by commas, rows ended by CRLF,
/// fields quoted when they hold a comma, a quote or a line break, quotes doubled). `chunk` gets
/// the header line and rows ending at a row's end, so that whoever cuts them into files can
/// start each file with the header. Each call follows the NDJSON chunk of the same rows, at most
/// `chunkBytes` of NDJSON unless one row is longer: an archive can keep a row's two forms near
/// each other, where its compressor finds the second a copy of the first.
public struct CSVRows {
    public let chunk: (_ header: [UInt8], _ rows: [UInt8]) throws -> Void
    public var chunkBytes = 256 * 1024
    /// Dropped from the front of an attachment's path, so that the CSV names it from where the
    /// CSV's description sits (`datapackage.json` in `data/`).
    public var droppedPathPrefix = ""

    public init(droppedPathPrefix: String = "", chunkBytes: Int = 256 * 1024, chunk: @escaping (_ header: [UInt8], _ rows: [UInt8]) throws -> Void) {
        self.chunk = chunk
        self.droppedPathPrefix = droppedPathPrefix
        self.chunkBytes = max(1, chunkBytes)
    }
}

/// One table's rows as CSV bytes. NULL is an empty field; an empty text is `""`, so that the two
/// stay apart for a reader that looks (most treat both as missing).
struct CSVWriter {
    let header: [UInt8]
    private(set) var rows: [UInt8] = []
    private var numbers = JSONWriter(sortedKeys: false)

    init(header names: [String]) {
        var line: [UInt8] = []
        for (index, name) in names.enumerated() {
            if index > 0 { line.append(UInt8(ascii: ",")) }
            Self.quoted(Array(name.utf8), into: &line)
        }
        line.append(contentsOf: [0x0D, 0x0A])
        header = line
    }

    mutating func text(_ bytes: UnsafeBufferPointer<UInt8>, first: Bool) {
        if !first { rows.append(UInt8(ascii: ",")) }
        Self.quoted(bytes, into: &rows)
    }

    mutating func text(_ bytes: [UInt8], first: Bool) {
        bytes.withUnsafeBufferPointer { text($0, first: first) }
    }

    mutating func integer(_ value: Int64, first: Bool) {
        numbers.reset()
        numbers.appendInteger(value)
        append(numbers.bytes, first: first)
    }

    /// The shortest text that reads back as the same double, as in the NDJSON.
    mutating func double(_ value: Double, first: Bool) {
        numbers.reset()
        numbers.appendDouble(value)
        append(numbers.bytes, first: first)
    }

    mutating func null(first: Bool) {
        if !first { rows.append(UInt8(ascii: ",")) }
    }

    mutating func endRow() {
        rows.append(contentsOf: [0x0D, 0x0A])
    }

    /// Hands the rows so far (or the first `count` bytes of them, which end at a row's end) to
    /// `sink`, and goes on with the rest.
    mutating func flush(to sink: CSVRows, upTo count: Int? = nil) throws {
        guard let count, count < rows.count else {
            try sink.chunk(header, rows)
            rows.removeAll(keepingCapacity: true)
            return
        }
        try sink.chunk(header, Array(rows[..<count]))
        rows.removeFirst(count)
    }

    private mutating func append(_ bytes: [UInt8], first: Bool) {
        if !first { rows.append(UInt8(ascii: ",")) }
        rows.append(contentsOf: bytes)
    }

    private static func quoted(_ bytes: [UInt8], into out: inout [UInt8]) {
        bytes.withUnsafeBufferPointer { quoted($0, into: &out) }
    }

    private static func quoted(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        let needsQuotes = bytes.isEmpty || bytes.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
        guard needsQuotes else {
            out.append(contentsOf: bytes)
            return
        }
        out.append(UInt8(ascii: "\""))
        for byte in bytes {
            out.append(byte)
            if byte == UInt8(ascii: "\"") { out.append(byte) }
        }
        out.append(UInt8(ascii: "\""))
    }
}
