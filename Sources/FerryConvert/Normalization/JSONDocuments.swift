import FerryCanonical
import FerryJSON
import FerryCoreData
import Foundation

/// The records of a JSON input file: the elements of a top-level array, the lines of an
/// NDJSON file, or a single object. Each comes with its record number (1-based) for messages.
struct JSONDocuments: Sendable {
    var path: String
    var records: [(number: Int, value: JSONValue)]
    /// The whole document when it was one value (for files with a fixed top-level shape).
    var document: JSONValue?

    /// Files larger than this are refused rather than read into memory.
    static let maximumSize = 2 << 30

    /// - Throws: ``ConversionError`` naming the file, and the line and path of malformed JSON.
    static func read(_ path: String) throws(ConversionError) -> JSONDocuments {
        let file = RecordLocation(file: path)
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
        } catch {
            let exists = FileManager.default.fileExists(atPath: path)
            throw ConversionError(exists ? .unreadable((error as NSError).localizedDescription) : .fileNotFound, at: file)
        }
        guard data.count <= maximumSize else { throw ConversionError(.unreadable("larger than \(maximumSize) bytes"), at: file) }
        return try parse(data, path: path)
    }

    static func parse(_ data: Data, path: String) throws(ConversionError) -> JSONDocuments {
        let bytes = [UInt8](data)
        do {
            let value = try JSONReader().read(bytes)
            switch value {
            case .array(let elements):
                return JSONDocuments(path: path, records: elements.enumerated().map { ($0.offset + 1, $0.element) }, document: value)
            default:
                return JSONDocuments(path: path, records: [(1, value)], document: value)
            }
        } catch let whole {
            // More than one value: NDJSON, one record per non-empty line.
            guard whole.kind == .trailingContent else { throw malformed(whole, path: path) }
            var records: [(Int, JSONValue)] = []
            var lineNumber = 0
            for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
                lineNumber += 1
                let trimmed = line.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
                if trimmed.isEmpty { continue }
                do {
                    records.append((lineNumber, try JSONReader().read(Array(line))))
                } catch {
                    var located = error
                    located.line = lineNumber
                    throw malformed(located, path: path, record: lineNumber)
                }
            }
            return JSONDocuments(path: path, records: records, document: nil)
        }
    }

    static func malformed(_ error: JSONReadError, path: String, record: Int? = nil) -> ConversionError {
        var location = RecordLocation(file: path, record: record)
        if !error.path.isEmpty { location.field = error.displayPath }
        return ConversionError(.malformedJSON("line \(error.line), column \(error.column): \(error.message)"), at: location)
    }

    /// JSON-LD's list of a document's nodes.
    static let graph = "@graph"

    /// Opens a JSON file for reading record by record (``JSONRecordStream``).
    /// - Parameter elementsOf: a top-level object's array member whose elements are the records (`@graph`).
    /// - Throws: ``ConversionError`` naming the file when it cannot be read or is empty.
    static func stream(_ path: String, elementsOf member: String? = nil) throws(ConversionError) -> JSONRecordStream {
        do {
            return try JSONRecordStream(path: path, elementsOf: member)
        } catch {
            let exists = FileManager.default.fileExists(atPath: path)
            throw ConversionError(exists ? .unreadable((error as NSError).localizedDescription) : .fileNotFound,
                                  at: RecordLocation(file: path))
        }
    }

    /// The stream's next record, with errors located as a whole-file read would locate them.
    static func next(_ stream: JSONRecordStream) throws(ConversionError) -> JSONRecordStream.Record? {
        do {
            return try stream.next()
        } catch {
            throw located(error, in: stream)
        }
    }

    /// As ``next(_:)``, with records `make` takes read in place (``JSONRecordStream/next(readingInPlace:)``).
    static func next(_ stream: JSONRecordStream, readingInPlace read: (UnsafeBufferPointer<UInt8>) -> Int?)
        throws(ConversionError) -> JSONRecordStream.InPlace? {
        do {
            return try stream.next(readingInPlace: read)
        } catch {
            throw located(error, in: stream)
        }
    }

    private static func located(_ failure: JSONRecordStream.Failure, in stream: JSONRecordStream) -> ConversionError {
        var located = failure.error
        if stream.isArray, let record = failure.record {
            located.path = "[\(record - 1)]" + located.path
            return malformed(located, path: stream.path)
        }
        return malformed(located, path: stream.path, record: stream.isArray ? nil : failure.record.map { _ in located.line })
    }
}
