import Crypto
import FerryFiles
import FerryJSON
import FerryStore
import FerrySystem
import Foundation

/// A private (0700) hidden folder beside a target path, on the same file system so its files
/// can be renamed into place; removed with everything in it unless kept.
final class StagingFolder: Sendable {
    let path: String

    init(beside target: String, purpose: String) throws(BundleError) {
        let folder = URL(fileURLWithPath: target).deletingLastPathComponent().path
        path = ScratchFiles.path(beside: target, purpose: purpose)
        guard mkdir(path, 0o700) == 0 else {
            ScratchFiles.forget(path)
            throw BundleError(.cannotWrite("cannot create a staging folder in \(folder): \(HashingFileWriter.lastError())"), path: target)
        }
    }

    deinit {
        remove()
    }

    /// Removes the folder now: a job that held it may release it later, on its own thread.
    func remove() {
        ScratchFiles.remove(path)
    }

    /// The absolute path of a relative one inside the folder.
    func file(_ relative: String) -> String {
        (path as NSString).appendingPathComponent(relative)
    }

    /// A frozen copy of `store` at `relative` in the folder: a transaction a killed writer left
    /// unfinished is rolled back first (as any SQLite writer would), then the store is copied
    /// under SQLite's read lock, standing alone (no journal beside it). Errors name `output`.
    func freeze(_ store: String, at relative: String, output: String) throws -> FrozenStore {
        try makeFolders(for: relative)
        let path = file(relative)
        try StoreFiles.settle(store)
        let source = try CanonicalStore(path: store, readOnly: true)
        guard try source.hasSchema() else { throw StoreError(.notACanonicalStore("it has no Ferry schema"), path: store) }
        do {
            try source.copy(to: path, standingAlone: true)
        } catch let error as StoreError {
            throw BundleError(.cannotWrite("cannot write the store's snapshot: \(error.message)"), path: output)
        }
        try source.close()
        return FrozenStore(path: path, of: store)
    }

    /// Creates the folders of a relative file path, each private.
    func makeFolders(for relative: String) throws(BundleError) {
        var current = path
        for component in relative.split(separator: "/").dropLast() {
            current = (current as NSString).appendingPathComponent(String(component))
            if mkdir(current, 0o700) != 0, errno != EEXIST {
                throw BundleError(.cannotWrite("cannot create a folder: \(HashingFileWriter.lastError())"), path: current)
            }
        }
    }
}

/// The view's pages, staged one after another in one file of the staging folder: a thousand
/// small files cost more to create than to fill. Each page is hashed as it comes, for the tag
/// manifest, and read back by its place when archived. For one thread at a time: the job that
/// writes it hands it over when it ends.
final class StagedPages: @unchecked Sendable {
    struct Page {
        var name: String
        var offset: Int64
        var digest: FileDigest
    }

    let path: String
    private let descriptor: Int32
    private(set) var pages: [Page] = []
    private var places: [String: Int] = [:]
    private var size: Int64 = 0

    init(in staging: StagingFolder, named name: String = "view.pages") throws(BundleError) {
        path = staging.file(name)
        descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw BundleError(.cannotWrite("cannot create the file: \(HashingFileWriter.lastError())"), path: path) }
    }

    deinit {
        close(descriptor)
    }

    func write(_ name: String, _ bytes: [UInt8]) throws(BundleError) {
        let written = bytes.withUnsafeBytes { writeAll(descriptor, $0) }
        guard written else { throw BundleError(.cannotWrite("cannot write: \(HashingFileWriter.lastError())"), path: path) }
        let page = Page(name: name, offset: size, digest: FileDigest(sha256: Hex.lowercase(SHA256.hash(data: bytes)), size: Int64(bytes.count)))
        // A page written again replaces the first (the view gave up an order midway); its old
        // bytes stay in the file, unread.
        if let place = places[name] {
            pages[place] = page
        } else {
            places[name] = pages.count
            pages.append(page)
        }
        size += Int64(bytes.count)
    }

    /// A page's bytes, read back.
    func read(_ page: Page) throws(BundleError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: Int(page.digest.size))
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeMutableBytes {
                SystemCall.read(descriptor, into: $0.baseAddress! + done, count: $0.count - done, at: page.offset + Int64(done))
            }
            guard count > 0 else { throw BundleError(.cannotWrite("cannot read back the view's pages: \(HashingFileWriter.lastError())"), path: path) }
            done += count
        }
        return bytes
    }
}
