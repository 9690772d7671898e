import FerryJSON
import FerryFiles
import Foundation

/// Writes a store's records as NDJSON (one object per line) or as one JSON document, to a
/// stream or to one file per entity in a folder. Files appear whole or not at all.
/// Format: `Formats/store-dump.md`.
public struct CoreDataStoreDump {
    public enum Format: String, Sendable, CaseIterable {
        case ndjson, json
    }

    public var format: Format
    public var entity: String?
    /// Values as stored, with `Z_OPT` and orders, for `ferry load` to write back row for row.
    public var lossless: Bool

    public init(format: Format = .ndjson, entity: String? = nil, lossless: Bool = false) {
        self.format = format
        self.entity = entity
        self.lossless = lossless
    }

    /// Streams every record to `sink`, in entity then primary-key order.
    /// - Returns: records written per entity, and warnings with counts.
    @discardableResult
    public func write(_ reader: CoreDataStoreReader, to sink: (borrowing [UInt8]) throws -> Void) throws -> (counts: [String: Int], warnings: [String: Int]) {
        var counts: [String: Int] = [:]
        var writer = JSONWriter(sortedKeys: true)
        var first = true
        if format == .json { try sink(Array("{\"format\":\"ferry.dump/1\",\"store\":".utf8) + Self.string(reader.path) + Array(",\"records\":[".utf8)) }
        let warnings = try reader.forEachRecord(entity: entity, lossless: lossless) { record in
            writer.reset()
            if format == .json && !first { writer.appendRaw(",") }
            writer.write(record.json)
            if format == .ndjson { writer.appendNewline() }
            first = false
            counts[record.entity, default: 0] += 1
            try sink(writer.bytes)
        }
        if format == .json { try sink(Array("]}\n".utf8)) }
        return (counts, warnings)
    }

    /// Writes `<Entity>.ndjson` (or `.json`) per entity into `directory`; entities without rows
    /// get an empty file. The files are made in a folder beside it, which then takes its place
    /// whole: a new folder, an empty one, or an earlier dump (which goes, so that no stranger's
    /// entity stays beside the new ones). A folder holding anything else is refused.
    @discardableResult
    public func write(_ reader: CoreDataStoreReader, toDirectory directory: String) throws -> (counts: [String: Int], warnings: [String: Int]) {
        let replacing = try DumpFolder.check(directory)
        let staging = FileSync.temporaryPath(beside: directory, purpose: "dump")
        do {
            let parent = (directory as NSString).deletingLastPathComponent
            if !parent.isEmpty { try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true) }
            // Private while it fills: it holds the store's records.
            try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        } catch {
            ScratchFiles.remove(staging)
            throw OutputError(path: directory, reason: "cannot create the folder: \((error as NSError).localizedDescription)")
        }
        defer { ScratchFiles.remove(staging) }
        let result = try write(reader, into: staging, reportingAs: directory)
        try DumpFolder.publish(staging, as: directory, replacing: replacing)
        return result
    }

    private func write(_ reader: CoreDataStoreReader, into directory: String, reportingAs target: String) throws
        -> (counts: [String: Int], warnings: [String: Int]) {
        var files: [String: AtomicFile] = [:]
        var counts: [String: Int] = [:]
        var allWarnings: [String: Int] = [:]
        do {
            for mapping in reader.mapping.entities where entity == nil || mapping.entity.name == entity {
                guard mapping.number != nil else { continue }
                let name = mapping.entity.name
                guard "\(Self.safeFileName(name)).\(format.rawValue)" != Self.storeFileName else {
                    throw OutputError(path: target, reason: "an entity named \(name) would take the name of \(Self.storeFileName)")
                }
                let file = try AtomicFile(path: URL(fileURLWithPath: directory).appendingPathComponent("\(Self.safeFileName(name)).\(format.rawValue)").path)
                files[name] = file
                let single = CoreDataStoreDump(format: format, entity: name, lossless: lossless)
                var output = ChunkedWriter { try file.write($0) }
                let result = try single.write(reader) { try output.append($0) }
                try output.flush()
                counts[name] = result.counts[name] ?? 0
                allWarnings.merge(result.warnings, uniquingKeysWith: +)
            }
            let description = try AtomicFile(path: URL(fileURLWithPath: directory).appendingPathComponent(Self.storeFileName).path)
            files[""] = description
            try description.write(Array((JSONWriter.string(storeDescription(reader), sortedKeys: true, pretty: true) + "\n").utf8))
            for name in files.keys.sorted() { try files[name]!.commit() }
        } catch {
            for file in files.values { file.discard() }
            throw error
        }
        return (counts, allWarnings)
    }

    /// The file beside the records that says what they were read from (`ferry load` takes its
    /// version, framework version, identifier and each entity's `Z_MAX`).
    public static let storeFileName = "_store.json"

    func storeDescription(_ reader: CoreDataStoreReader) -> JSONValue {
        let entities = reader.schema.entities.filter { $0.number < 16_000 }.map { entry -> JSONValue in
            .object(JSONObject([("name", .string(entry.name)), ("number", .integer(entry.number)),
                                ("superNumber", .integer(entry.superNumber)), ("maximumPrimaryKey", .integer(entry.maximumPrimaryKey))]))
        }
        return .object(JSONObject([
            ("format", "ferry.dump-store/1"),
            ("store", .string(reader.path)),
            ("version", reader.versionMatch?.version.map { .string($0) } ?? .null),
            ("frameworkVersion", reader.metadata.frameworkVersion.flatMap { Int($0) }.map { .integer($0) } ?? .null),
            ("versionIdentifiers", .array(reader.metadata.versionIdentifiers.map { .string($0) })),
            ("storeUUID", reader.metadata.storeUUID.map { .string($0) } ?? .null),
            ("lossless", .bool(lossless)),
            ("entities", .array(entities)),
        ]))
    }

    /// Entity names are identifiers, but a store may say anything: keep file names tame.
    static func safeFileName(_ name: String) -> String {
        let cleaned = String(name.map { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" ? $0 : "_" })
        return cleaned.isEmpty || cleaned.hasPrefix(".") ? "_" + cleaned : cleaned
    }

    static func string(_ text: String) -> [UInt8] {
        var writer = JSONWriter()
        writer.write(.string(text))
        return writer.bytes
    }
}
