import FerryCanonical
import FerryJSON
import FerryCoreData
import Foundation

/// The JSON files Roots writes, by their file names.
public enum RootsFileKind: String, CaseIterable, Sendable {
    case courses, tasks, grades, planner, assignmentPlans = "assignment_plans", timerState = "TimerState"

    public var fileName: String { rawValue + ".json" }
    /// Files are read courses first, so that later files can refer to what earlier ones made.
    static let order: [RootsFileKind] = [.courses, .tasks, .grades, .planner, .assignmentPlans, .timerState]
}

/// Roots (student planner): the JSON files its stores write with a bare `JSONEncoder`.
/// Semesters › courses › outline nodes and assignments become nested projects; study sessions,
/// study plans and timer activities are projects under them; focus sessions are logs.
/// Format notes: `Formats/legacy/roots.md`.
struct RootsNormalizer {
    typealias FileKind = RootsFileKind

    let context: ConversionContext

    /// The kind of a file by its exact name, or, for copies such as `tasks_cache_backup_1712345678.json`
    /// or `tasks 2.json`, the kind it is a copy of.
    static func kind(ofFileNamed name: String) -> (kind: FileKind, isCopy: Bool)? {
        for kind in FileKind.allCases where name == kind.fileName { return (kind, false) }
        guard name.hasSuffix(".json") || name.contains(".json.") else { return nil }
        for kind in FileKind.allCases {
            let stem = kind.rawValue
            guard name.hasPrefix(stem), name.count > stem.count else { continue }
            let next = name[name.index(name.startIndex, offsetBy: stem.count)]
            if "_ -(.".contains(next) { return (kind, true) }
        }
        return nil
    }

    func convert(_ kind: FileKind, _ documents: JSONDocuments) throws {
        let time = try context.fileTime(documents.path)
        switch kind {
        case .courses: try courses(documents, time: time)
        case .tasks: try tasks(documents, time: time)
        case .grades: try grades(documents)
        case .planner: try planner(documents, time: time)
        case .assignmentPlans: try assignmentPlans(documents, time: time)
        case .timerState: try timerState(documents, time: time)
        }
    }

    /// A project for a record: its `id` required and claimed, its source named.
    func newProject(_ fields: inout FieldReader, entity: String, kind: String, time: String) throws -> Project {
        let id = try fields.requiredUUID("id")
        try context.claim(id, table: "project", at: fields.location)
        return Project(id: id, source: source(entity, id, fields.location.file), kind: kind, createdAt: time, modifiedAt: time)
    }

    func source(_ entity: String, _ key: String, _ path: String) -> SourceRef {
        SourceRef(app: .roots, entity: entity, key: key, file: (path as NSString).lastPathComponent)
    }

    /// Runs `body` for each object of an array, with its own location: `record N` for a
    /// top-level array, `field "courses[2]"` for an array under a key.
    func eachObject(_ elements: [JSONValue], file: String, under key: String? = nil,
                    _ body: (FieldReader, Int) throws -> Void) throws {
        for (index, element) in elements.enumerated() {
            try context.record {
                let location = key.map { RecordLocation(file: file, field: "\($0)[\(index)]") }
                    ?? RecordLocation(file: file, record: index + 1)
                guard let object = element.object else {
                    throw ConversionError(.wrongType(expected: "an object", found: element.shortDescription), at: location)
                }
                var reader = FieldReader(object, at: location, dates: context.dates)
                reader.location.key = object["id"]?.string
                try body(reader, index)
            }
        }
    }

    /// The top-level object of a file whose records sit under keys (`courses.json`, `planner.json`).
    /// The document's top-level object, read as fields.
    func topFields(_ documents: JSONDocuments) throws -> FieldReader {
        guard case .object(let object)? = documents.document else {
            throw ConversionError(.wrongType(expected: "an object at the top level", found: documents.document?.kindName ?? "several values"),
                                  at: RecordLocation(file: documents.path))
        }
        return FieldReader(object, at: RecordLocation(file: documents.path), dates: context.dates)
    }

    /// Each object of the array under `key` of a document's top-level fields; none when the key is absent or null.
    func eachObject(under key: String, in top: inout FieldReader, _ body: (FieldReader, Int) throws -> Void) throws {
        try eachObject(try top.array(key) ?? [], file: top.location.file, under: key, body)
    }

    func members(_ object: JSONObject, _ key: String, file: String) throws -> [JSONValue] {
        guard let value = object[key], !value.isNull else { return [] }
        guard case .array(let elements) = value else {
            throw ConversionError(.wrongType(expected: "an array", found: value.shortDescription), at: RecordLocation(file: file, field: key))
        }
        return elements
    }

    func finish<T>(_ extras: JSONObject, entity: String, _ record: inout T, keyPath: WritableKeyPath<T, JSONObject>) {
        record[keyPath: keyPath] = extras
        context.report.extras(app: .roots, entity: entity, extras)
    }
}
