import Crypto
import FerryArchive
import FerryJSON
import FerryStore
import FerryFiles
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
}

/// `ferry export`: a store into one bundle file. The store is snapshotted with SQLite's backup
/// API, so a store another process is writing still gives a consistent bundle; everything is
/// staged in a private folder beside the output, archived under a temporary name, sealed,
/// flushed and renamed into place. The same store gives the same bytes: entry times are the
/// store's newest record time, ids are hashes of the content.
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
    /// Called from the working threads as rows are written and bytes archived.
    public var progress: (@Sendable (BundleProgress) -> Void)?

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
        try staging.makeFolders(for: BundleLayout.storeSnapshot)
        let snapshotPath = staging.file(BundleLayout.storeSnapshot)
        // A transaction a killed writer left unfinished is rolled back first, as any SQLite writer would.
        try StoreFiles.settle(store)
        let source = try CanonicalStore(path: store, readOnly: true)
        guard source.hasSchema else { throw StoreError(.notACanonicalStore("it has no Ferry schema"), path: store) }
        do {
            // The jobs below open the snapshot side by side, and it goes into the bundle: one file.
            try source.copy(to: snapshotPath, standingAlone: true)
        } catch let error as StoreError {
            throw BundleError(.cannotWrite("cannot write the store's snapshot: \(error.message)"), path: output)
        }
        try source.close()

        let snapshot = try readSnapshot(snapshotPath, staging: staging, store: store)
        let payload = snapshot.files

        let manifest = Array(BagItFiles.manifest(payload).utf8)
        let bundleID = Self.uuid(from: manifest)
        let attachments = payload.filter { $0.key.hasPrefix(BundleLayout.attachmentsFolder + "/") }
        var summary = BundleSummary(path: output, bundleID: bundleID, createdAt: snapshot.createdAt, schemaVersion: snapshot.schemaVersion,
                                    counts: snapshot.counts, attachmentCount: attachments.count,
                                    payloadBytes: payload.values.reduce(0) { $0 + $1.size }, payloadFiles: payload.count)
        // The view's index shows the bundle's id, which the payload decides: it is written last.
        var viewFiles: [(String, [UInt8])] = []
        if let contents = snapshot.view {
            let facts = BundleFacts(bundleID: bundleID, createdAt: summary.createdAt, generator: "ferry \(ferryVersion)", counts: summary.counts)
            viewFiles = [(ViewLayout.index, BundleView.index(contents, bundle: facts))]
            summary.viewFiles = (snapshot.viewPages?.pages.count ?? 0) + 1
        }
        let tags = tagFiles(summary, manifest: manifest, view: viewFiles, pages: snapshot.viewPages?.pages ?? [])
        try archive(tags: tags + viewFiles, stagedPages: snapshot.viewPages, payload: payload.keys.sorted(),
                    payloadBytes: summary.payloadBytes, staging: staging, output: output, time: Self.epochSeconds(summary.createdAt))
        return summary
    }

    /// What the snapshot holds, its digest and its NDJSON files. The structural check, the
    /// digest and each table are independent: they run on as many threads as there are cores
    /// (at most four), each table on its own read-only connection to the private snapshot.
    private struct SnapshotRead {
        var counts: [String: Int] = [:]
        var files: [String: FileDigest] = [:]
        var schemaVersion = 0
        var createdAt = "1970-01-01T00:00:00Z"
        var view: ViewContents?
        /// The view's pages in `view/`, staged: tag files, listed in the tag manifest.
        var viewPages: StagedPages?
    }

    private func readSnapshot(_ snapshotPath: String, staging: StagingFolder, store: String) throws -> SnapshotRead {
        try staging.makeFolders(for: BundleLayout.tableFile("x"))
        try staging.makeFolders(for: BundleLayout.attachmentFile("x"))
        let snapshot = SnapshotReader(path: snapshotPath, of: store)
        let (sizes, schemaVersion) = try snapshot.tablesLargestFirst()
        let tables = sizes.map(\.table)
        let tally = progress.map { ProgressTally(.tables, total: Int64(sizes.reduce(0) { $0 + $1.rows }), report: $0) }
        // Jobs are taken in this order. The check comes first: on a damaged file its report is
        // the error shown, as no job starts after one fails. Then the tables, largest first, and
        // the digest last, which fills the gap beside the largest table on two cores.
        // Errors name the store given, not the private snapshot, which is gone by then.
        var jobs: [@Sendable () throws -> SnapshotPart] = [{
            // The structure only: CHECK constraints held when the rows were written (by convert
            // or a checked import).
            let problems: [String]
            do {
                problems = try CanonicalStore.structuralCheck(snapshotPath)
            } catch var error as StoreError {
                error.path = store
                throw error
            }
            guard problems.isEmpty else { throw StoreError(.integrity(problems), path: store) }
            return .checked
        }]
        for table in tables {
            jobs.append {
                .table(table, try TableExporter(snapshot: snapshot, staging: staging, progress: tally).export(table))
            }
        }
        // The view reads the snapshot as the tables do, after the two largest have started: at a
        // million logs it is half the work of either, and taken earlier it kept the second from
        // starting until it ended (9.6 s of jobs on two cores instead of 8.5).
        if let view {
            jobs.insert({
                let pages = try StagedPages(in: staging)
                let contents = try view.writePages(of: snapshot) { path, bytes in try pages.write(path, bytes) }
                return .view(contents, pages)
            }, at: min(3, jobs.count))
        }
        jobs.append { .files([BundleLayout.storeSnapshot: try digestOfFile(snapshotPath)]) }
        var read = SnapshotRead(schemaVersion: schemaVersion)
        // The newest `modified_at` of any recipe, project or log: the time the data is from.
        var createdAt: String?
        for part in try ParallelJobs.run(jobs, threads: ParallelJobs.defaultThreads) {
            switch part {
            case .checked: break
            case .files(let written): read.files.merge(written) { first, _ in first }
            case .view(let contents, let pages):
                read.view = contents
                read.viewPages = pages
            case .table(let table, let exported):
                read.counts[table] = exported.count
                read.files.merge(exported.files) { first, _ in first }
                if let newest = exported.newestModification, createdAt.map({ $0.utf8.lexicographicallyPrecedes(newest.utf8) }) ?? true {
                    createdAt = newest
                }
            }
        }
        if let createdAt { read.createdAt = createdAt }
        return read
    }

    private enum SnapshotPart: Sendable {
        case checked
        case files([String: FileDigest])
        case table(String, TableFile)
        case view(ViewContents, StagedPages)
    }

    private func tagFiles(_ summary: BundleSummary, manifest: [UInt8], view: [(String, [UInt8])], pages: [StagedPages.Page]) -> [(String, [UInt8])] {
        let bagit = Array(BagItFiles.declaration.utf8)
        let info = Array(BagItFiles.info([
            ("Bag-Software-Agent", "ferry \(ferryVersion)"),
            ("Bagging-Date", String(summary.createdAt.prefix(10))),
            ("External-Identifier", summary.bundleID),
            ("Payload-Oxum", "\(summary.payloadBytes).\(summary.payloadFiles)"),
        ]).utf8)
        var counts = JSONObject()
        for table in summary.counts.keys.sorted() { counts[table] = .integer(summary.counts[table]!) }
        var bundle: JSONValue = [
            "format": .string(BundleLayout.format),
            "bundleId": .string(summary.bundleID),
            "createdAt": .string(summary.createdAt),
            "generator": .string("ferry \(ferryVersion)"),
            "schemaVersion": .integer(summary.schemaVersion),
            "store": .string(BundleLayout.storeSnapshot),
            "tables": .string(BundleLayout.tablesFolder),
            "attachments": ["folder": .string(BundleLayout.attachmentsFolder), "count": .integer(summary.attachmentCount)],
            "counts": .object(counts),
        ]
        if !view.isEmpty, case .object(var object) = bundle {
            object["view"] = .string(ViewLayout.index)
            bundle = .object(object)
        }
        let bundleBytes = Array((JSONWriter.string(bundle, sortedKeys: true, pretty: true) + "\n").utf8)
        var tagDigests: [String: FileDigest] = [:]
        for (name, bytes) in [(BundleLayout.bagitFile, bagit), (BundleLayout.bagInfoFile, info), (BundleLayout.bundleFile, bundleBytes),
                              (BundleLayout.manifestFile, manifest)] {
            tagDigests[name] = FileDigest(sha256: Hex.lowercase(SHA256.hash(data: bytes)), size: Int64(bytes.count))
        }
        for (name, bytes) in view {
            tagDigests[name] = FileDigest(sha256: Hex.lowercase(SHA256.hash(data: bytes)), size: Int64(bytes.count))
        }
        for page in pages { tagDigests[page.name] = page.digest }
        let tagManifest = Array(BagItFiles.manifest(tagDigests).utf8)
        return [(BundleLayout.bagitFile, bagit), (BundleLayout.bagInfoFile, info), (BundleLayout.bundleFile, bundleBytes),
                (BundleLayout.manifestFile, manifest), (BundleLayout.tagManifestFile, tagManifest)]
    }

    /// Tag files first (the manifests before the files they list), then the staged tag files
    /// (the view's pages), then the payload.
    private func archive(tags: [(String, [UInt8])], stagedPages: StagedPages?, payload: [String], payloadBytes: Int64, staging: StagingFolder,
                         output: String, time: Int) throws {
        let url = URL(fileURLWithPath: output)
        let root = Self.rootName(url.lastPathComponent)
        let temporary = FileSync.temporaryPath(beside: output)
        var published = false
        defer { if !published { unlink(temporary) } }
        do {
            let writer = try ArchiveWriter(path: temporary, format: format, modificationTime: time)
            for (name, bytes) in tags { try writer.addFile(named: "\(root)/\(name)", bytes: bytes) }
            for page in stagedPages?.pages.sorted(by: { $0.name < $1.name }) ?? [] {
                try writer.addFile(named: "\(root)/\(page.name)", bytes: try stagedPages?.read(page) ?? [])
            }
            let tally = progress.map { ProgressTally(.archive, total: payloadBytes, report: $0) }
            for name in payload {
                try writer.addFile(named: "\(root)/\(name)", from: staging.file(name)) { tally?.add(Int64($0)) }
            }
            try ArchiveSeal.seal(temporary, format: format, digest: try writer.finish())
        } catch {
            throw BundleError(.cannotWrite(Self.reason(error)), path: output)
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
    }

    /// libarchive reports a full disk as a write error; say so plainly.
    private static func reason(_ error: any Error) -> String {
        let text = (error as? ArchiveError)?.reason ?? "\(error)"
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
