import FerryArchive
import FerryConvert
import FerryBundle
import FerryStore
import FerryTestSupport
import Foundation
import GRDB

/// Stores and bundles for the bundle tests, made from the repository's own samples.
enum BundleFixtures {
    /// The samples converted into a new store at `path`.
    static func sampleStore(at path: String) throws -> String {
        _ = try ConversionJob(inputs: [TestPaths.samples.path], store: path, options: ConversionOptions(openArchive: ArchiveReader.opener)).run()
        return path
    }

    /// The samples converted into a new store at `path`, then changed by `statements`, in one transaction.
    static func sampleStore(at path: String, changedBy statements: [(sql: String, arguments: StatementArguments)]) throws -> String {
        let store = try sampleStore(at: path)
        let queue = try DatabaseQueue(path: store)
        try queue.write { db in
            for statement in statements { try db.execute(sql: statement.sql, arguments: statement.arguments) }
        }
        try queue.close()
        return store
    }

    /// The samples' store (`<name>.ferry`) and its bundle (`<name>.<format>`) in `directory`.
    static func exportedSamples(in directory: TemporaryDirectory, format: ArchiveFormat = .tarZstd,
                                name: String = "data") throws -> (store: String, bundle: String) {
        let store = try sampleStore(at: directory.url.appendingPathComponent("\(name).ferry").path)
        let bundle = directory.url.appendingPathComponent("\(name).\(format.rawValue)").path
        _ = try BundleExporter(format: format).export(store: store, to: bundle)
        return (store, bundle)
    }

    /// A copy of `store` beside it with `logs` more logs: a target the bundle of `store` replaces or merges into.
    static func changedCopy(of store: String, logs: Int) throws -> String {
        let target = ((store as NSString).deletingLastPathComponent as NSString).appendingPathComponent("target.ferry")
        try FileManager.default.copyItem(atPath: store, toPath: target)
        try StoreFixtures.inflate(target, logs: logs)
        return target
    }

    /// A table's NDJSON: its parts (`data/tables/<table>/NNNNNN.ndjson`) joined in name order.
    static func table(_ table: String, of entries: [(name: String, bytes: [UInt8])]) -> [UInt8] {
        let folder = "/data/tables/\(table)/"
        return entries.filter { entry in
            guard let range = entry.name.range(of: folder) else { return false }
            let part = entry.name[range.upperBound...]
            return part.hasSuffix(".ndjson") && !part.contains("/")
        }
        .sorted { $0.name < $1.name }.flatMap(\.bytes)
    }

    static func table(_ name: String, of archive: String) throws -> [UInt8] {
        table(name, of: try entries(of: archive))
    }

    /// `bundle`'s entries re-packed as a plain tar at `path`, "V60" made "V61" in the entry whose
    /// name ends with `suffix`: a well-formed archive whose manifest is not met (and no seal).
    static func repacked(_ bundle: String, to path: String, changing suffix: String) throws {
        var tar = TarBuilder()
        for entry in try entries(of: bundle) {
            tar.add(entry.name, entry.name.hasSuffix(suffix) ? Array(String(decoding: entry.bytes, as: UTF8.self)
                .replacingOccurrences(of: "V60", with: "V61").utf8) : entry.bytes)
        }
        try Data(tar.archive).write(to: URL(fileURLWithPath: path))
    }

    /// Every entry of an archive with its bytes, in archive order.
    static func entries(of archive: String) throws -> [(name: String, bytes: [UInt8])] {
        let reader = try ArchiveReader(path: archive)
        var result: [(String, [UInt8])] = []
        while let entry = try reader.next() {
            result.append((entry.path, Array(try reader.readData(limit: 1 << 30))))
        }
        return result
    }
}

/// Every progress update an exporter or importer reports, from whichever thread.
final class ProgressUpdates: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [BundleProgress] = []
    var all: [BundleProgress] { lock.withLock { list } }
    func add(_ update: BundleProgress) { lock.withLock { list.append(update) } }
    func of(_ stage: BundleProgress.Stage) -> [BundleProgress] { all.filter { $0.stage == stage } }
}
