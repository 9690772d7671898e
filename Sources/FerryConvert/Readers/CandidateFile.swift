import FerryFiles
import FerryJSON
import Foundation

/// A file being told apart by the readers: its name, and its first bytes and first JSON record,
/// each read once, when a reader first asks.
final class CandidateFile {
    let path: String
    let name: String
    let lowercasedName: String
    private let openArchive: ArchiveOpener?

    init(path: String, openArchive: ArchiveOpener? = nil) {
        self.path = path
        self.openArchive = openArchive
        name = (path as NSString).lastPathComponent
        lowercasedName = name.lowercased()
    }

    /// The first 512 bytes (fewer for a shorter file); nil when it cannot be read.
    private(set) lazy var header: Data? = {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        return try? handle.read(upToCount: 512)
    }()

    func hasHeader(_ magic: String) -> Bool {
        hasHeader(bytes: Array(magic.utf8))
    }

    func hasHeader(bytes magic: [UInt8]) -> Bool {
        header.map { $0.starts(with: magic) } ?? false
    }

    /// Whether it starts as a gzip member does.
    var isGzip: Bool { hasHeader(bytes: [0x1F, 0x8B]) }

    /// Whether it starts as a zip archive does.
    var isZip: Bool { hasHeader("PK\u{3}\u{4}") || hasHeader("PK\u{5}\u{6}") }

    /// The data files of a zip (Finder's additions left out); nil for anything else or a zip
    /// that cannot be read.
    private(set) lazy var archiveNames: [String]? = isZip ? ZipEntries.names(path, open: openArchive) : nil

    /// Whether the name says JSON: `.json`, `.ndjson`, `.jsonl`.
    var isNamedJSON: Bool {
        lowercasedName.hasSuffix(".json") || lowercasedName.hasSuffix(".ndjson") || lowercasedName.hasSuffix(".jsonl")
    }

    /// What a JSON file opens with.
    enum FirstRecord {
        /// The first record: the top-level value, or the first element of a top-level array.
        case record(JSONValue, inArray: Bool)
        /// A top-level array with nothing in it.
        case noRecords
        case malformed
    }

    /// The first record, reading no more of the file than that record. A JSON-LD document's
    /// `@graph` is not read whole for it: the record is the document with its first node alone
    /// in the graph (its `@context` and other members as they are).
    private(set) lazy var firstRecord: FirstRecord = {
        guard let stream = try? JSONRecordStream(path: path, elementsOf: JSONDocuments.graph) else { return .malformed }
        do {
            guard let first = try stream.next() else { return stream.isArray ? .noRecords : .malformed }
            if stream.isEnclosed {
                var document = stream.enclosingMembers
                document[JSONDocuments.graph] = .array([first.value])
                return .record(.object(document), inArray: false)
            }
            return .record(first.value, inArray: stream.isArray)
        } catch {
            return .malformed
        }
    }()

    /// The first record when it is a JSON object, nil otherwise.
    var firstObject: (object: JSONObject, inArray: Bool)? {
        guard case .record(let value, let inArray) = firstRecord, let object = value.object else { return nil }
        return (object, inArray)
    }
}
