import Crypto
import FerryArchive
import FerryJSON
import Foundation

/// What one pass over a bundle archive found: each file's digest, the tag files' bytes, and
/// every problem met on the way.
struct BundleScan {
    var root: String?
    var files: [String: FileDigest] = [:]
    var tagFiles: [String: [UInt8]] = [:]
    var problems: [BundleProblem] = []
    var seal: ArchiveSeal.Status = .absent
    /// Reading stopped before the end (damage, a limit): what was not read is unknown, not absent.
    var stoppedEarly = false
}

/// Streams an archive once, hashing every entry, and optionally writes the store snapshot into
/// a staging folder. Never trusts the archive: entries are judged by ``EntryPolicy`` before a
/// byte is written, limits stop the pass, and nothing outside staging is touched.
struct BundleScanner {
    var limits: BundleLimits
    /// Told the archive file's bytes read of its size (stage ``BundleProgress/Stage/unpack``).
    var progress: (@Sendable (BundleProgress) -> Void)?

    init(limits: BundleLimits, progress: (@Sendable (BundleProgress) -> Void)? = nil) {
        self.limits = limits
        self.progress = progress
    }

    func scan(_ path: String, into staging: StagingFolder? = nil) throws -> BundleScan {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw BundleError(.fileNotFound, path: path) }
        guard !isFolder.boolValue else { throw BundleError(.notABundle("it is a folder (a bundle is one .tar.zst, .tar.gz or .zip file)"), path: path) }
        var scan = BundleScan()
        do {
            scan.seal = try ArchiveSeal.check(path)
        } catch {
            throw BundleError(.unreadable(error.reason), path: path)
        }
        let reader: ArchiveReader
        do {
            reader = try ArchiveReader(path: path)
        } catch {
            scan.problems.append(BundleProblem(.unreadable, nil, error.reason))
            scan.stoppedEarly = true
            return scan
        }
        var status = stat()
        let fileSize = stat(path, &status) == 0 ? Int64(status.st_size) : 0
        // Opening has read the first blocks already: the stage starts at nothing done all the same.
        progress?(BundleProgress(stage: .unpack, done: 0, total: fileSize))
        let report = progress.map { report in { report(BundleProgress(stage: .unpack, done: reader.compressedBytesRead, total: fileSize)) } }
        var policy = EntryPolicy(limits: limits)
        var total: Int64 = 0
        var entries = 0
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        while true {
            let entry: ArchiveEntry?
            do {
                entry = try reader.next()
            } catch {
                scan.problems.append(BundleProblem(.unreadable, nil, "the archive is damaged after \(entries) entries: \(error.reason)"))
                scan.stoppedEarly = true
                break
            }
            guard let entry else { break }
            entries += 1
            if entries > limits.maxEntries {
                scan.problems.append(BundleProblem(.unsafe, nil, "more than \(limits.maxEntries) entries; reading stopped"))
                scan.stoppedEarly = true
                break
            }
            let inner: String
            switch policy.judge(entry) {
            case .folder: continue
            case .unsafe(let reason):
                scan.problems.append(BundleProblem(.unsafe, entry.path, reason))
                continue
            case .file(let name): inner = name
            }
            if let declared = entry.declaredSize, declared > limits.maxTotalBytes - total {
                scan.problems.append(BundleProblem(.unsafe, inner, "declares \(declared) bytes, over the limit of \(limits.maxTotalBytes) in all; reading stopped"))
                scan.stoppedEarly = true
                break
            }
            let isTag = !inner.contains("/")
            var tagBytes: [UInt8] = []
            var hasher = SHA256()
            var size: Int64 = 0
            var stop: BundleProblem?
            var file: HashingFileWriter?
            // Import needs the snapshot alone; every other file is hashed, not written.
            if let staging, inner == BundleLayout.storeSnapshot {
                try staging.makeFolders(for: inner)
                file = try HashingFileWriter(path: staging.file(inner))
            }
            while true {
                let count = buffer.withUnsafeMutableBytes { reader.readChunk(into: $0) }
                if count == 0 { break }
                guard count > 0 else {
                    stop = BundleProblem(.unreadable, inner, "the archive is damaged here: \(reader.lastError.trimmingCharacters(in: .whitespacesAndNewlines))")
                    break
                }
                size += Int64(count)
                total += Int64(count)
                if total > limits.maxTotalBytes {
                    stop = BundleProblem(.unsafe, inner, "unpacks to more than \(limits.maxTotalBytes) bytes; reading stopped")
                    break
                }
                if total > limits.ratioGrace, total > limits.maxCompressionRatio * max(1, reader.compressedBytesRead) {
                    stop = BundleProblem(.unsafe, inner, "unpacks to over \(limits.maxCompressionRatio) times its packed size (a compression bomb?); reading stopped")
                    break
                }
                if isTag {
                    guard size <= limits.maxTagFileBytes else {
                        stop = BundleProblem(.unsafe, inner, "a tag file over \(limits.maxTagFileBytes) bytes; reading stopped")
                        break
                    }
                    tagBytes.append(contentsOf: buffer[0..<count])
                }
                // A staged file is hashed by its writer: once is enough.
                if let file {
                    try buffer.withUnsafeBytes { try file.write(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                } else {
                    buffer.withUnsafeBytes { hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                }
                report?()
            }
            if let stop {
                scan.problems.append(stop)
                scan.stoppedEarly = true
                break
            }
            scan.files[inner] = try file?.finish() ?? FileDigest(sha256: Hex.lowercase(hasher.finalize()), size: size)
            if isTag { scan.tagFiles[inner] = tagBytes }
        }
        scan.root = policy.root
        return scan
    }
}
