import Foundation

/// A private (0700) hidden folder beside a target path, on the same file system so its files
/// can be renamed into place; removed with everything in it unless kept.
final class StagingFolder: Sendable {
    let path: String

    init(beside target: String, purpose: String) throws(BundleError) {
        let url = URL(fileURLWithPath: target)
        let folder = url.deletingLastPathComponent().path
        path = (folder as NSString).appendingPathComponent(".\(url.lastPathComponent).\(purpose)-\(UUID().uuidString.prefix(8))")
        guard mkdir(path, 0o700) == 0 else {
            throw BundleError(.cannotWrite("cannot create a staging folder in \(folder): \(HashingFileWriter.lastError())"), path: target)
        }
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The absolute path of a relative one inside the folder.
    func file(_ relative: String) -> String {
        (path as NSString).appendingPathComponent(relative)
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

/// Files written whole into a staging folder, each hashed as it is written; for one thread.
final class StagedFiles {
    let staging: StagingFolder
    private(set) var written: [String: FileDigest] = [:]

    init(staging: StagingFolder) {
        self.staging = staging
    }

    func write(_ relative: String, _ bytes: [UInt8]) throws {
        try staging.makeFolders(for: relative)
        let file = try HashingFileWriter(path: staging.file(relative))
        try file.write(bytes)
        written[relative] = try file.finish()
    }
}
