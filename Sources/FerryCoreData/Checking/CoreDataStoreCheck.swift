import FerryModel
import Foundation
import GRDB

/// "Will Core Data open this?": checks a Core Data SQLite store for what Core Data relies on
/// when it opens and reads one, without Core Data. The metadata and its hashes, the model's
/// entity hashes, `Z_PRIMARYKEY`, `Z_ENT` values, the rows foreign keys and join tables point
/// at, ordering columns, the model cache and the write-ahead log. Each rule and why it matters:
/// `Formats/store-check.md`.
///
/// For example:
/// ```swift
/// let report = try CoreDataStoreCheck(path: "App.sqlite", model: "App.xcdatamodeld").run()
/// report.hasErrors   // true when Core Data would refuse the store or misread it
/// ```
public struct CoreDataStoreCheck {
    public let path: String
    public let modelPath: String?

    public init(path: String, model: String? = nil) {
        self.path = path
        modelPath = model
    }

    /// - Throws: ``CoreDataReadError`` when the file is missing, not SQLite, damaged (opening it
    ///   runs SQLite's `quick_check`) or not a Core Data store at all (no `Z_PRIMARYKEY`, no
    ///   `Z_METADATA`): nothing to check.
    public func run() throws -> StoreCheckReport {
        var findings = Findings()
        // Opened once: the raw metadata is read before the reader, which stops at damaged metadata.
        let file = try CoreDataStoreFile(path: path)
        let (plist, cache) = try file.read { db -> (Data?, Data??) in
            _ = try CoreDataStoreSchema.read(db, file: path)
            let plist = try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION DESC LIMIT 1")
            let hasCache = try db.tableExists("Z_MODELCACHE")
            let cache: Data?? = hasCache ? .some(try Data.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE LIMIT 1")) : .none
            try checkMetadataRows(db, &findings)
            return (plist, cache)
        }
        let hashes = MetadataCheck.check(plist, &findings)

        let reader: CoreDataStoreReader
        do {
            reader = try CoreDataStoreReader(file: file, model: modelPath)
        } catch let error as CoreDataReadError {
            if case .modelMismatch(let detail) = error.kind {
                findings.error("model.mismatch", "the model does not describe the store, so Core Data would refuse to open it with that model: \(detail)")
                return StoreCheckReport(store: path, model: modelPath ?? "none", findings: findings.all)
            }
            // Damaged metadata stops the reader too; the findings above already say what it is.
            guard findings.hasErrors else { throw error }
            return StoreCheckReport(store: path, model: modelPath ?? "none", findings: findings.all)
        }
        let modelName: String
        switch reader.schemaSource {
        case .model(let model, let version): modelName = model + (version.map { ", version \($0)" } ?? "")
        case .modelCache: modelName = "the store's model cache"
        case .inferred: modelName = "none (inferred from the tables)"
        }
        if case .model = reader.schemaSource {
            ModelHashCheck.check(stored: hashes, model: reader.model, &findings)
        }
        ModelCacheCheck.check(cache, storeHashes: hashes, path: path, &findings)
        try reader.file.read { db in
            try KeyCheck.check(reader: reader, db: db, &findings)
            try RowLinkCheck.check(reader: reader, db: db, &findings)
        }
        if reader.file.readsWriteAheadLog {
            findings.note("wal.pending", "the write-ahead log (\(URL(fileURLWithPath: path).lastPathComponent)-wal) holds changes not yet in the main file: copy it with the store, or Core Data loses them")
        }
        return StoreCheckReport(store: path, model: modelName, findings: findings.all)
    }

    private func checkMetadataRows(_ db: Database, _ findings: inout Findings) throws {
        let rows = try Row.fetchAll(db, sql: "SELECT Z_VERSION, Z_UUID FROM Z_METADATA")
        if rows.count != 1 { findings.warning("metadata.rows", "Z_METADATA has \(rows.count) rows; Core Data writes one") }
        for row in rows {
            let uuid = CoreDataStoreValue.text(row["Z_UUID"])
            if uuid.flatMap(UUID.init(uuidString:)) == nil {
                findings.error("metadata.uuid", "Z_METADATA.Z_UUID is \(uuid.map { "\"\($0)\"" } ?? "NULL"), not a UUID: Core Data names the store's objects by it")
            }
        }
    }
}

/// Findings as they are met.
struct Findings {
    private(set) var all: [StoreCheckReport.Finding] = []
    var hasErrors: Bool { all.contains { $0.severity == .error } }

    mutating func error(_ check: String, _ message: String) { all.append(.init(severity: .error, check: check, message: message)) }
    mutating func warning(_ check: String, _ message: String) { all.append(.init(severity: .warning, check: check, message: message)) }
    mutating func note(_ check: String, _ message: String) { all.append(.init(severity: .note, check: check, message: message)) }
}
