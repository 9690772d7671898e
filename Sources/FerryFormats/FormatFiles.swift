import FerryArchive
import FerryCoreData
import FerryFiles
import FerryJSON
import FerrySystem
import FerryStore
import Foundation

/// The formats other apps import, as `--formats` names them.
public enum ExportFormat: String, CaseIterable, Sendable, Comparable {
    /// schema.org Recipe JSON-LD: a file per recipe and `recipes.jsonld`.
    case schemaOrg = "schema-org"
    /// `recipes.paprikarecipes`: a zip of gzip'd Paprika JSON, a recipe each.
    case paprika
    /// iCalendar, a calendar per app with dated records.
    case ics
    /// CSV per table, and `datapackage.json` describing the tables.
    case csv

    public static func < (lhs: ExportFormat, rhs: ExportFormat) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// Where each format's files go, under the formats folder.
    public var folder: String {
        switch self {
        case .schemaOrg: return "schema-org"
        case .paprika: return "paprika"
        case .ics: return "ical"
        case .csv: return "csv"
        }
    }
}

/// Writes a frozen copy's recipes and planner data in other apps' formats (all but CSV, which
/// the bundle writes with the tables' NDJSON in one pass over each table). Small files are
/// handed over as bytes; the recipe list and the Paprika archive, whose size grows with the
/// data, are written into files the caller names, a piece at a time.
public struct FormatFilesWriter: Sendable {
    /// The time of every entry of the Paprika archive (the data's time, as the bundle's own).
    public var modificationTime: Int
    /// Whether image bytes are carried beside the formats (the bundle's `attachments/`), so that
    /// JSON-LD can name them by a relative address.
    public var imagesBeside: Bool

    public init(modificationTime: Int, imagesBeside: Bool) {
        self.modificationTime = modificationTime
        self.imagesBeside = imagesBeside
    }

    /// The schema.org files: `schema-org/<id>.jsonld` through `file`, `schema-org/recipes.jsonld`
    /// written at the path `stage` gives for it. Names are relative to the formats folder.
    /// - Parameter file: nil writes the list alone.
    public func schemaOrg(_ snapshot: FrozenStore, isCancelled: () -> Bool = { false }, file: ((String, [UInt8]) throws -> Void)?,
                          stage: (String) throws -> String) throws -> FormatFidelity {
        let fidelity = FormatFidelity(format: ExportFormat.schemaOrg.rawValue)
        let folder = ExportFormat.schemaOrg.folder
        let listName = "\(folder)/recipes.jsonld"
        let list = try StreamedFile(path: try stage(listName))
        try list.write(Array("{\"@context\":\"https://schema.org\",\"@graph\":[\n".utf8))
        var first = true
        let deleted = try snapshot.session("writing schema.org recipes") { session in
            try RecipeRecords.each(session) { recipe in
                guard !isCancelled() else { throw FormatsCancelled() }
                let node = SchemaOrgRecipe.node(recipe, imageURL: imageURL(depth: 3), withContext: false, fidelity: fidelity)
                if let file {
                    var alone = JSONObject([("@context", SchemaOrgRecipe.context)])
                    for member in node { alone[member.key] = member.value }
                    try file("\(folder)/\(recipe.id).jsonld", Array((JSONWriter.string(.object(alone), sortedKeys: false, pretty: true) + "\n").utf8))
                }
                try list.write(Array(((first ? "" : ",\n") + JSONWriter.string(.object(node), sortedKeys: false)).utf8))
                first = false
            }
        }
        fidelity.dropped("recipe", why: "deleted in the app (the tables keep it, with the time it was deleted)", deleted)
        try list.write(Array("\n]}\n".utf8))
        try list.close()
        return fidelity
    }

    /// `paprika/recipes.paprikarecipes`, written at the path `stage` gives for it; nil when the store has no recipes.
    public func paprika(_ snapshot: FrozenStore, isCancelled: () -> Bool = { false }, stage: (String) throws -> String) throws -> FormatFidelity {
        let fidelity = FormatFidelity(format: ExportFormat.paprika.rawValue)
        let path = try stage("\(ExportFormat.paprika.folder)/recipes.paprikarecipes")
        let deleted = try Self.paprikaArchive(snapshot, at: path, modificationTime: modificationTime, fidelity: fidelity, isCancelled: isCancelled)
        fidelity.dropped("recipe", why: "deleted in the app (the tables keep it, with the time it was deleted)", deleted)
        return fidelity
    }

    /// `ical/<app>.ics` for each app with dated records, written at the paths `stage` gives;
    /// with `oneCalendar`, every app's in `ical/ferry.ics`. A store without dated records gets
    /// no file (`--as ics` writes an empty calendar then).
    public func ics(_ snapshot: FrozenStore, oneCalendar: Bool = false, isCancelled: () -> Bool = { false },
                    stage: (String) throws -> String) throws -> FormatFidelity {
        let fidelity = FormatFidelity(format: ExportFormat.ics.rawValue)
        var files: [StreamedFile] = []
        var names = UniqueNames()
        let apps = try snapshot.session("writing calendars") { session in
            try ProjectCalendar().calendars(session, oneCalendar: oneCalendar, fidelity: fidelity, isCancelled: isCancelled) { app in
                let file = try StreamedFile(path: try stage(names.calendarFile(app)))
                files.append(file)
                return { bytes in try file.write(bytes) }
            }
        }
        for file in files { try file.close() }
        files = []
        fidelity.wrote("calendars", apps.count)
        return fidelity
    }

    /// The calendar files of these apps (in the order calendars are written), under the formats folder.
    package static func calendarFiles(_ apps: [String]) -> [String] {
        var names = UniqueNames()
        return apps.map { names.calendarFile($0) }
    }

    /// A zip of one gzip'd Paprika recipe per recipe, named by its title (made unique), photos inside.
    /// - Returns: the recipes left out as deleted in their app.
    static func paprikaArchive(_ snapshot: FrozenStore, at path: String, modificationTime: Int, fidelity: FormatFidelity?,
                               isCancelled: () -> Bool) throws -> Int {
        let writer: ArchiveWriter
        do {
            writer = try ArchiveWriter(path: path, format: .zip, modificationTime: modificationTime)
        } catch {
            throw OutputError(path: path, reason: error.reason)
        }
        var names = UniqueNames()
        let deleted = try snapshot.session("writing Paprika recipes") { session in
            let content = try session.prepare("SELECT \(AttachmentContentTable.data) FROM \(AttachmentContentTable.table) WHERE \(AttachmentContentTable.sha256) = ?1")
            func bytes(_ sha: String) throws -> [UInt8]? {
                var found: [UInt8]?
                try content.select([sha]) { row in found = row.withBlob(0) { Array($0) } }
                return found
            }
            return try RecipeRecords.each(session) { recipe in
                guard !isCancelled() else { throw FormatsCancelled() }
                let object = try PaprikaRecipe.object(recipe, bytes: bytes, fidelity: fidelity)
                let json = Array(JSONWriter.string(.object(object), sortedKeys: false).utf8)
                let name = names.unique(safeName(recipe.title.isEmpty ? recipe.id : recipe.title), id: recipe.id)
                do {
                    try writer.addFile(named: "\(name).paprikarecipe", bytes: try Gzip.compress(json))
                } catch let error as ArchiveError {
                    throw OutputError(path: path, reason: error.reason)
                }
            }
        }
        do {
            _ = try writer.finish()
        } catch {
            throw OutputError(path: path, reason: error.reason)
        }
        return deleted
    }

    /// A relative address of a carried image, from a file `depth` folders below the bag's top
    /// (`data/formats/schema-org/`: 3, `data/` among them: `../../attachments/<sha-256>`).
    func imageURL(depth: Int) -> (RecipeRecord.Image) -> String? {
        let carried = imagesBeside
        return { image in
            guard carried, image.hasBytes, let sha = image.sha256 else { return nil }
            return String(repeating: "../", count: depth - 1) + "attachments/\(sha)"
        }
    }

    /// A title as a file name: no folder separators, control characters or leading dots; at
    /// most 150 bytes of UTF-8, cut between characters (file systems allow 255); never empty.
    static func safeName(_ text: String) -> String {
        let forbidden = Set("/\\:*?\"<>|".unicodeScalars)
        let cleaned = String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            scalar.value < 0x20 || scalar.value == 0x7F || forbidden.contains(scalar) ? "_" : scalar
        })).trimmingCharacters(in: .whitespaces)
        var name = ""
        for character in cleaned.drop(while: { $0 == "." }) {
            guard name.utf8.count + character.utf8.count <= 150 else { break }
            name.append(character)
        }
        name = name.trimmingCharacters(in: .whitespaces)
        return name.isEmpty ? "recipe" : name
    }
}

/// A file written a piece at a time (the recipe list, a calendar), small pieces gathered into
/// large writes; whole or not at all is the caller's (it stages the file). A file abandoned on a
/// failure is closed when it is released.
final class StreamedFile {
    private let handle: FileHandle
    private var output: ChunkedWriter
    let path: String

    init(path: String) throws(OutputError) {
        self.path = path
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw OutputError(path: path, reason: "cannot create the file: \(SystemCall.errorText())")
        }
        self.handle = handle
        output = ChunkedWriter { bytes in try handle.write(contentsOf: bytes) }
    }

    func write(_ bytes: [UInt8]) throws(OutputError) {
        do {
            try output.append(bytes)
        } catch {
            throw OutputError(path: path, reason: "cannot write: \(error.localizedDescription)")
        }
    }

    func close() throws(OutputError) {
        do {
            try output.flush()
            try handle.close()
        } catch {
            throw OutputError(path: path, reason: "cannot write: \(error.localizedDescription)")
        }
    }
}

/// File names made unique the way file systems compare them (case and Unicode form aside): a
/// second `Soup` is `Soup (E0000003)`, a third `Soup (E0000003) 2`, and so on.
struct UniqueNames {
    private var used: Set<String> = []

    mutating func unique(_ wanted: String, id: String) -> String {
        var name = wanted
        var number = 1
        while !used.insert(name.precomposedStringWithCanonicalMapping.lowercased()).inserted {
            number += 1
            name = number == 2 ? "\(wanted) (\(id.prefix(8)))" : "\(wanted) (\(id.prefix(8))) \(number - 1)"
        }
        return name
    }

    /// `ical/<app>.ics`, unique among the calendars.
    mutating func calendarFile(_ app: String) -> String {
        "\(ExportFormat.ics.folder)/\(unique(FormatFilesWriter.safeName(app), id: "calendar")).ics"
    }
}
