import Crypto
import FerryArchive
import FerryJSON
import FerryStore
import FerryFiles
import FerryFormats
import FerryView
import Foundation

/// What a bundle holds, from its `bundle.json`.
public struct BundleSummary: Sendable {
    public var path: String
    public var bundleID: String
    public var createdAt: String
    public var schemaVersion: Int
    public var counts: [String: Int]
    public var attachmentCount: Int
    public var payloadBytes: Int64
    public var payloadFiles: Int
    /// Files of the HTML view (`index.html` and `view/`), 0 when it was left out.
    public var viewFiles: Int = 0
    /// The other apps' formats written (`data/formats/`), and what each holds of the data.
    public var formats: [FormatFidelity] = []
}

/// `ferry export`: a store into one bundle file. The store is snapshotted with SQLite's backup
/// API, so a store another process is writing still gives a consistent bundle. The snapshot goes
/// into the archive as it is; each table's NDJSON is made in memory, in parts of bounded size,
/// and archived as it comes, so no copy of the tables is ever staged on disk. The archive is
/// written under a temporary name, sealed, and renamed into place. The same store gives the
/// same bytes: entry times are the store's newest record time, ids are hashes of the content.
///
/// For example:
/// ```swift
/// let summary = try BundleExporter(format: .tarZstd).export(store: "data.ferry", to: "data.tar.zst")
/// ```
public struct BundleExporter: Sendable {
    public var format: ArchiveFormat
    public var ferryVersion: String
    /// Whether the bundle gets its HTML view: `index.html` and `view/`, tag files of the bag.
    public var view: BundleView?
    /// The formats other apps import, written into the payload (`data/formats/`, and
    /// `data/datapackage.json` with CSV); empty for none.
    public var formats: Set<ExportFormat> = Set(ExportFormat.allCases)
    /// Called from the working threads as bytes are archived and rows written.
    public var progress: (@Sendable (BundleProgress) -> Void)?
    /// The most bytes of rows in one part (the format's; smaller in tests, to make many parts).
    var partBytes = BundleLayout.tablePartBytes

    public init(format: ArchiveFormat = .tarZstd, ferryVersion: String = "0", view: BundleView? = BundleView(),
                progress: (@Sendable (BundleProgress) -> Void)? = nil) {
        self.format = format
        self.ferryVersion = ferryVersion
        self.view = view
        self.progress = progress
    }

    public func export(store: String, to output: String) throws -> BundleSummary {
        guard FileManager.default.fileExists(atPath: store) else { throw BundleError(.fileNotFound, path: store) }
        guard !FileManager.default.fileExists(atPath: output) else {
            throw BundleError(.cannotWrite("the file exists; remove it or choose another name (bundles are never overwritten)"), path: output)
        }
        let staging = try StagingFolder(beside: output, purpose: "export")
        defer { staging.remove() }
        // The jobs below open the snapshot side by side, and it goes into the bundle: one file.
        let snapshot = try staging.freeze(store, at: BundleLayout.storeSnapshot, output: output)
        let formatWriter = FormatFilesWriter(modificationTime: 0, imagesBeside: true)
        var view = self.view
        view?.formats = formats
        let work = SnapshotWork(snapshot: snapshot, staging: staging, output: output, partBytes: partBytes, view: view, formats: formats,
                                formatWriter: formatWriter, progress: progress)
        return try archive(work, snapshot: snapshot, output: output)
    }

    /// What runs beside the archiving, each on its own thread from the start: the tables' parts
    /// (handed over through a queue of two parts), the structural check, and the view (its pages
    /// staged: they are tag files, archived after the payload decides the bundle's id). A job
    /// that fails cancels the queue, so that nothing more is made or archived.
    private struct SnapshotWork: Sendable {
        let queue: PayloadQueue
        /// Rows and parts per table, and the schema version.
        let tables: BackgroundJob<([String: ExportedParts], Int)>
        let check: BackgroundJob<Void>
        let view: BackgroundJob<(ViewContents, StagedPages)?>
        let formats: BackgroundJob<StagedFormats?>

        init(snapshot: FrozenStore, staging: StagingFolder, output: String, partBytes: Int, view: BundleView?, formats: Set<ExportFormat>,
             formatWriter: FormatFilesWriter, progress: (@Sendable (BundleProgress) -> Void)?) {
            // Two parts may wait: one is made while one is archived and the next is ready.
            let queue = PayloadQueue(capacity: 2 * partBytes)
            self.queue = queue
            check = BackgroundJob {
                // The structure only: CHECK constraints held when the rows were written (by
                // convert or a checked import). Errors name the store given, not the snapshot.
                do {
                    let problems = try CanonicalStore.structuralCheck(snapshot.path)
                    guard problems.isEmpty else { throw StoreError(.integrity(problems), path: snapshot.store) }
                } catch var error as StoreError {
                    queue.cancel()
                    error.path = snapshot.store
                    throw error
                }
            }
            tables = BackgroundJob {
                defer { queue.end() }
                let (sizes, schemaVersion) = try snapshot.tablesLargestFirst()
                let tally = progress.map { ProgressTally(.tables, total: Int64(sizes.reduce(0) { $0 + $1.rows }), report: $0) }
                var exporter = TableExporter(snapshot: snapshot, queue: queue, progress: tally, partBytes: partBytes)
                exporter.csv = formats.contains(.csv)
                return (try exporter.export(sizes.map(\.table).sorted()), schemaVersion)
            }
            self.formats = BackgroundJob {
                guard !formats.subtracting([.csv]).isEmpty else { return nil }
                do {
                    // The Paprika archive's entries have the data's time, as the bundle's own.
                    var writer = formatWriter
                    writer.modificationTime = BundleExporter.epochSeconds(try BundleExporter.createdAt(snapshot))
                    return try StagedFormats.write(formats, of: snapshot, writer: writer, staging: staging, output: output) { queue.isCancelled }
                } catch {
                    queue.cancel()
                    throw error
                }
            }
            self.view = BackgroundJob {
                guard let view else { return nil }
                do {
                    let pages = try StagedPages(in: staging)
                    let contents = try view.writePages(of: snapshot) { path, bytes in
                        guard !queue.isCancelled else { throw PayloadQueue.Cancelled() }
                        try pages.write(path, bytes)
                    }
                    return (contents, pages)
                } catch let error as BundleError {
                    queue.cancel()
                    // The staging folder is gone by the time this is read: name the bundle.
                    guard case .cannotWrite(let reason) = error.kind else { throw error }
                    throw BundleError(.cannotWrite("cannot stage the view's pages: \(reason)"), path: output)
                } catch {
                    queue.cancel()
                    throw error
                }
            }
        }

        /// Stops the jobs and waits for them to end. On a damaged snapshot the check's report is
        /// the error to show, whichever job met the damage first; otherwise the first error that
        /// is not a job stopping because another had failed.
        func abandon(_ error: any Error) -> any Error {
            queue.cancel()
            let others = [tables.failure, view.failure, formats.failure]
            if let checkFailure = check.failure { return checkFailure }
            return ([error] + others.compactMap { $0 }).first { !($0 is PayloadQueue.Cancelled) } ?? error
        }
    }

    /// Archive order: `bagit.txt`, each table's parts (and the attachments) as they are made,
    /// the snapshot, then what the payload decides: `bag-info.txt`, `bundle.json`, the payload
    /// manifest, the view, and the tag manifest last. Progress: the rows, then the snapshot's
    /// bytes (the view's pages, a tenth of that at most, follow without a count).
    private func archive(_ work: SnapshotWork, snapshot: FrozenStore, output: String) throws -> BundleSummary {
        let root = Self.rootName(URL(fileURLWithPath: output).lastPathComponent)
        let temporary = FileSync.temporaryPath(beside: output)
        var published = false
        defer { if !published { ScratchFiles.remove(temporary) } }
        let summary: BundleSummary
        do {
            // Every entry's time is the data's: known before the first entry is written.
            let createdAt = try Self.createdAt(snapshot)
            let writer = try ArchiveWriter(path: temporary, format: format, modificationTime: Self.epochSeconds(createdAt))
            var tags = TagFiles()
            try tags.add(BundleLayout.bagitFile, Array(BagItFiles.declaration.utf8), to: writer, root: root)
            var payload: [String: FileDigest] = [:]
            while let file = work.queue.take() {
                try writer.addFile(named: "\(root)/\(file.name)", bytes: file.bytes)
                payload[file.name] = file.digest
            }
            let (parts, schemaVersion) = try work.tables.value()
            let counts = parts.mapValues(\.rows)
            // The view may still be writing its pages: the snapshot goes in meanwhile.
            payload[BundleLayout.storeSnapshot] = try archiveFile(snapshot.path, as: "\(root)/\(BundleLayout.storeSnapshot)", writer: writer,
                                                                  progress: true)
            try work.check.value()
            var fidelity: [FormatFidelity] = []
            if let staged = try work.formats.value() {
                for (name, digest) in try staged.archive(into: writer, root: root, archiveFile: { try archiveFile($0, as: $1, writer: writer, progress: false) }) {
                    payload[name] = digest
                }
                fidelity = staged.fidelity
            }
            if formats.contains(.csv) {
                let bytes = DataPackage.descriptor(try snapshot.exportedTables(), parts: parts.mapValues(Self.relativeParts), created: createdAt)
                try writer.addFile(named: "\(root)/\(BundleLayout.dataPackage)", bytes: bytes)
                payload[BundleLayout.dataPackage] = TableExporter.file(BundleLayout.dataPackage, bytes).digest
                fidelity.append(FormatFidelity.csv(tables: parts.count, rows: counts.values.reduce(0, +)))
            }
            if !fidelity.isEmpty {
                let report = JSONValue.object(JSONObject([("formats", .array(fidelity.sorted { $0.format < $1.format }.map(\.json)))]))
                let bytes = Array((JSONWriter.string(report, sortedKeys: false, pretty: true) + "\n").utf8)
                try writer.addFile(named: "\(root)/\(BundleLayout.fidelityFile)", bytes: bytes)
                payload[BundleLayout.fidelityFile] = TableExporter.file(BundleLayout.fidelityFile, bytes).digest
            }
            let view = try work.view.value()

            let manifest = Array(BagItFiles.manifest(payload).utf8)
            let bundleID = Self.uuid(from: manifest)
            var made = BundleSummary(path: output, bundleID: bundleID, createdAt: createdAt, schemaVersion: schemaVersion, counts: counts,
                                     attachmentCount: payload.keys.filter { $0.hasPrefix(BundleLayout.attachmentsFolder + "/") }.count,
                                     payloadBytes: payload.values.reduce(0) { $0 + $1.size }, payloadFiles: payload.count)
            made.viewFiles = view.map { $0.1.pages.count + 1 } ?? 0
            made.formats = fidelity
            try tags.add(BundleLayout.bagInfoFile, bagInfo(made), to: writer, root: root)
            try tags.add(BundleLayout.bundleFile, bundleDescription(made, hasView: view != nil), to: writer, root: root)
            try tags.add(BundleLayout.manifestFile, manifest, to: writer, root: root)
            if let (contents, pages) = view {
                // The view's index shows the bundle's id, which the payload decides.
                let facts = BundleFacts(bundleID: bundleID, createdAt: createdAt, generator: "ferry \(ferryVersion)", counts: counts)
                try tags.add(ViewLayout.index, BundleView.index(contents, bundle: facts), to: writer, root: root)
                for page in pages.pages.sorted(by: { $0.name < $1.name }) {
                    try writer.addFile(named: "\(root)/\(page.name)", bytes: try pages.read(page))
                    tags.digests[page.name] = page.digest
                }
            }
            try writer.addFile(named: "\(root)/\(BundleLayout.tagManifestFile)", bytes: Array(BagItFiles.manifest(tags.digests).utf8))
            try ArchiveSeal.seal(temporary, format: format, digest: try writer.finish())
            summary = made
        } catch {
            let reported = work.abandon(error)
            if let archiveError = reported as? ArchiveError { throw BundleError(.cannotWrite(Self.reason(archiveError)), path: output) }
            throw reported
        }
        guard !FileManager.default.fileExists(atPath: output) else {
            throw BundleError(.cannotWrite("the file appeared while exporting; nothing was written"), path: output)
        }
        do {
            try FileSync.publish(temporary, as: output, flushing: false)
        } catch {
            throw BundleError(.cannotWrite("cannot move the bundle into place: \(error.reason)"), path: output)
        }
        published = true
        return summary
    }

    /// A file's bytes into the archive, hashed on the way (the snapshot's with progress).
    private func archiveFile(_ path: String, as name: String, writer: ArchiveWriter, progress withProgress: Bool) throws -> FileDigest {
        var status = stat()
        let total = stat(path, &status) == 0 ? Int64(status.st_size) : 0
        let tally = withProgress ? progress.map { ProgressTally(.archive, total: total, report: $0) } : nil
        var hasher = SHA256()
        var size: Int64 = 0
        try writer.addFile(named: name, from: path) { chunk in
            hasher.update(bufferPointer: chunk)
            size += Int64(chunk.count)
            tally?.add(Int64(chunk.count))
        }
        return FileDigest(sha256: Hex.lowercase(hasher.finalize()), size: size)
    }

    /// The tag files written so far, for the tag manifest.
    private struct TagFiles {
        var digests: [String: FileDigest] = [:]

        mutating func add(_ name: String, _ bytes: [UInt8], to writer: ArchiveWriter, root: String) throws {
            try writer.addFile(named: "\(root)/\(name)", bytes: bytes)
            digests[name] = FileDigest(sha256: Hex.lowercase(SHA256.hash(data: bytes)), size: Int64(bytes.count))
        }
    }

    private func bagInfo(_ summary: BundleSummary) -> [UInt8] {
        Array(BagItFiles.info([
            ("Bag-Software-Agent", "ferry \(ferryVersion)"),
            ("Bagging-Date", String(summary.createdAt.prefix(10))),
            ("External-Identifier", summary.bundleID),
            ("Payload-Oxum", "\(summary.payloadBytes).\(summary.payloadFiles)"),
        ]).utf8)
    }

    private func bundleDescription(_ summary: BundleSummary, hasView: Bool) -> [UInt8] {
        var counts = JSONObject()
        for (table, count) in summary.counts.sorted(by: { $0.key < $1.key }) { counts[table] = .integer(count) }
        var bundle = JSONObject([
            ("format", .string(BundleLayout.format)),
            ("bundleId", .string(summary.bundleID)),
            ("createdAt", .string(summary.createdAt)),
            ("generator", .string("ferry \(ferryVersion)")),
            ("schemaVersion", .integer(summary.schemaVersion)),
            ("store", .string(BundleLayout.storeSnapshot)),
            ("tables", .string(BundleLayout.tablesFolder)),
            ("attachments", ["folder": .string(BundleLayout.attachmentsFolder), "count": .integer(summary.attachmentCount)]),
            ("counts", .object(counts)),
        ])
        if hasView { bundle["view"] = .string(ViewLayout.index) }
        if !summary.formats.isEmpty {
            var formats = JSONObject([("folder", .string(BundleLayout.formatsFolder)), ("fidelity", .string(BundleLayout.fidelityFile))])
            let names = Set(summary.formats.map(\.format))
            if names.contains(ExportFormat.csv.rawValue) { formats["dataPackage"] = .string(BundleLayout.dataPackage) }
            formats["written"] = .array(ExportFormat.allCases.filter { names.contains($0.rawValue) }.map { .string($0.rawValue) })
            bundle["formats"] = .object(formats)
        }
        return Array((JSONWriter.string(.object(bundle), sortedKeys: true, pretty: true) + "\n").utf8)
    }

    /// The newest `modified_at` of any recipe, project or log: the time the data is from.
    static func createdAt(_ snapshot: FrozenStore) throws -> String {
        try snapshot.newest(SharedColumns.modifiedAt.name, in: [RecipeTable.table, ProjectTable.table, LogTable.table]) ?? "1970-01-01T00:00:00Z"
    }

    /// Part paths relative to `datapackage.json`, which sits in `data/`.
    static func relativeParts(_ parts: ExportedParts) -> DataPackage.Parts {
        let prefix = "data/"
        func relative(_ path: String) -> String { path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path }
        return DataPackage.Parts(rows: parts.rows, ndjson: parts.ndjson.map(relative), csv: parts.csv.map(relative))
    }

    /// libarchive reports a full disk as a write error; say so plainly.
    private static func reason(_ error: ArchiveError) -> String {
        let text = error.reason
        if text.contains("No space left") { return "the disk is full: \(text)" }
        if text.contains("File too large") { return "the file is larger than allowed: \(text)" }
        return text
    }

    /// The bag's top-level folder: the bundle's file name without its extension.
    static func rootName(_ fileName: String) -> String {
        let stem = ArchiveFormat.stem(of: fileName).filter { $0 != "/" && $0 != "\\" && !$0.isNewline }
        return stem.isEmpty || stem.hasPrefix(".") ? "bundle" : stem
    }

    static func epochSeconds(_ time: String) -> Int {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: time) { return Int(date.timeIntervalSince1970) }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: time).map { Int($0.timeIntervalSince1970) } ?? 0
    }

    /// A name-based UUID (version 5 layout) from the SHA-256 of the payload manifest.
    static func uuid(from bytes: [UInt8]) -> String {
        Hex.nameBasedUUID(SHA256.hash(data: bytes))
    }
}
