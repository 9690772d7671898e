import FerryArchive
import FerryBundle
import FerryStore
import FerryTestSupport
import Foundation
import GRDB

/// Stores and bundles for the bundle tests, made from the repository's own samples.
enum BundleFixtures {
    /// The samples converted into a new store at `path`.
    static func sampleStore(at path: String) throws -> String {
        _ = try ConversionJob(inputs: [TestPaths.samples.path], store: path).run()
        return path
    }

    /// Adds `count` copies of the store's first log, with new ids, so that work on the store takes measurable time.
    static func inflate(_ path: String, logs count: Int) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(log)").map { $0["name"] as String }
            let others = columns.filter { $0 != "id" }.map { "\"\($0)\"" }.joined(separator: ", ")
            let first = try String.fetchOne(db, sql: "SELECT id FROM log ORDER BY id LIMIT 1")!
            let statement = try db.makeStatement(sql: "INSERT INTO log (id, \(others)) SELECT ?, \(others) FROM log WHERE id = ?")
            for number in 0..<count {
                let id = String(format: "%08X-0000-4000-8000-%012X", number, number)
                try statement.execute(arguments: [id, first])
            }
        }
        try queue.close()
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

    /// A bundle's entries re-packed as an uncompressed tar with `extra` entries added, for attacks.
    static func repacked(_ bundle: String, root: String, adding extra: (inout TarBuilder) -> Void) throws -> [UInt8] {
        var tar = TarBuilder()
        for entry in try entries(of: bundle) { tar.add(entry.name, entry.bytes) }
        extra(&tar)
        _ = root
        return tar.archive
    }

    /// Files and folders under a folder, relative, sorted.
    static func listing(_ folder: String) -> [String] {
        (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).sorted()
    }

    static func integrityProblems(_ path: String) throws -> [String] {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") }.filter { $0 != "ok" }
    }
}
