import FerryArchive
import FerryFiles
import FerryFormats
import FerryStore
import Foundation

/// `ferry export STORE --as FORMAT -o FILE`: one format in one file, for a person who wants to
/// import it somewhere: schema.org recipes as one JSON-LD list, Paprika's `.paprikarecipes`, one
/// iCalendar file of every app's planner data, or a zip of CSV per table with its
/// `datapackage.json`. Read from a frozen copy of the store, written under a temporary name and
/// renamed into place; an existing file is never overwritten.
public struct SingleFormatExporter: Sendable {
    public var ferryVersion: String

    public init(ferryVersion: String) {
        self.ferryVersion = ferryVersion
    }

    /// - Returns: what the file holds of the store and what it cannot.
    public func export(store: String, as format: ExportFormat, to output: String) throws -> FormatFidelity {
        guard FileManager.default.fileExists(atPath: store) else { throw BundleError(.fileNotFound, path: store) }
        guard !FileManager.default.fileExists(atPath: output) else {
            throw BundleError(.cannotWrite("the file exists; remove it or choose another name (exports are never overwritten)"), path: output)
        }
        let staging = try StagingFolder(beside: output, purpose: "export")
        defer { staging.remove() }
        let snapshot = try staging.freeze(store, at: "store.sqlite", output: output)
        let createdAt = try BundleExporter.createdAt(snapshot)
        let writer = FormatFilesWriter(modificationTime: BundleExporter.epochSeconds(createdAt), imagesBeside: false)
        let made = staging.file("output")
        let fidelity: FormatFidelity
        do {
            switch format {
            case .schemaOrg:
                fidelity = try writer.schemaOrg(snapshot, file: nil) { _ in made }
            case .paprika:
                fidelity = try writer.paprika(snapshot) { _ in made }
            case .ics:
                fidelity = try writer.ics(snapshot, oneCalendar: true) { _ in made }
                if !FileManager.default.fileExists(atPath: made) {
                    guard FileManager.default.createFile(atPath: made, contents: Data(Self.emptyCalendar())) else {
                        throw OutputError(path: made, reason: "cannot create the file")
                    }
                }
            case .csv:
                fidelity = try csvArchive(snapshot, at: made, createdAt: createdAt, output: output)
            }
        } catch let error as OutputError {
            // The staged file is private: the error names the file asked for.
            throw BundleError(.cannotWrite(error.reason), path: output)
        }
        // Linked into place, never over a file that appeared meanwhile.
        try FileSync.flush(made)
        guard FileSync.publishNew(made, as: output) == 0 else {
            throw BundleError(.cannotWrite("cannot move the file into place: \(FileSync.lastError())"), path: output)
        }
        FileSync.flushFolder((output as NSString).deletingLastPathComponent)
        return fidelity
    }

    /// A zip of `datapackage.json`, `formats/csv/<table>/NNNNNN.csv` and `attachments/<sha-256>`:
    /// the bundle's payload layout without its `data/` folder, so that the descriptor's paths are the same.
    private func csvArchive(_ snapshot: FrozenStore, at path: String, createdAt: String, output: String) throws -> FormatFidelity {
        let archive = try ArchiveWriter(path: path, format: .zip, modificationTime: BundleExporter.epochSeconds(createdAt))
        let queue = PayloadQueue(capacity: 2 * BundleLayout.tablePartBytes)
        let job = BackgroundJob {
            let (sizes, _) = try snapshot.tablesLargestFirst()
            var exporter = TableExporter(snapshot: snapshot, queue: queue, progress: nil)
            exporter.csv = true
            exporter.ndjson = false
            return try exporter.export(sizes.map(\.table).sorted())
        }
        do {
            while let file = queue.take() {
                try archive.addFile(named: Self.withoutDataFolder(file.name), bytes: file.bytes)
            }
            let parts = try job.value()
            let descriptor = DataPackage.descriptor(try snapshot.exportedTables(), parts: parts.mapValues(BundleExporter.relativeParts), created: createdAt)
            try archive.addFile(named: "datapackage.json", bytes: descriptor)
            _ = try archive.finish()
            return FormatFidelity.csv(tables: parts.count, rows: parts.values.reduce(0) { $0 + $1.rows })
        } catch {
            queue.cancel()
            _ = job.failure
            if let archiveError = error as? ArchiveError { throw BundleError(.cannotWrite(archiveError.reason), path: output) }
            throw error
        }
    }

    static func withoutDataFolder(_ name: String) -> String {
        name.hasPrefix("data/") ? String(name.dropFirst(5)) : name
    }

    static func emptyCalendar() -> [UInt8] {
        Array("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:\(ProjectCalendar.productID)\r\nEND:VCALENDAR\r\n".utf8)
    }
}
