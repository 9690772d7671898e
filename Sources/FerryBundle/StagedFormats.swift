import FerryArchive
import FerryFiles
import FerryFormats
import FerryStore
import Foundation

/// The recipes' and planner data's formats (all but CSV, which comes with the tables), written on
/// their own thread into the staging folder and archived after the snapshot as payload files:
/// small files one after another in one staged file (as the view's pages), the recipe list and
/// the Paprika archive as files of their own, streamed into the bundle.
final class StagedFormats: @unchecked Sendable {
    let small: StagedPages
    /// Payload name and staged path of each file written whole.
    private(set) var files: [(name: String, path: String)] = []
    private(set) var fidelity: [FormatFidelity] = []

    private init(small: StagedPages) {
        self.small = small
    }

    /// - Parameter output: the bundle, which a failure to stage a file names.
    static func write(_ formats: Set<ExportFormat>, of snapshot: FrozenStore, writer: FormatFilesWriter, staging: StagingFolder, output: String,
                      isCancelled: @escaping @Sendable () -> Bool) throws -> StagedFormats {
        let staged = StagedFormats(small: try StagedPages(in: staging, named: "formats.files"))
        let folder = BundleLayout.formatsFolder
        func file(_ name: String, _ bytes: [UInt8]) throws {
            guard !isCancelled() else { throw PayloadQueue.Cancelled() }
            try staged.small.write("\(folder)/\(name)", bytes)
        }
        func stage(_ name: String) throws -> String {
            let relative = "\(folder)/\(name)"
            try staging.makeFolders(for: relative)
            let path = staging.file(relative)
            staged.files.append((relative, path))
            return path
        }
        for format in formats.sorted() {
            guard !isCancelled() else { throw PayloadQueue.Cancelled() }
            do {
                try write(format)
            } catch is FormatsCancelled {
                throw PayloadQueue.Cancelled()
            } catch let error as OutputError {
                throw BundleError(.cannotWrite("cannot stage the \(format.rawValue) files: \(error.reason)"), path: output)
            }
        }
        return staged

        func write(_ format: ExportFormat) throws {
            switch format {
            case .schemaOrg: staged.fidelity.append(try writer.schemaOrg(snapshot, isCancelled: isCancelled, file: file, stage: stage))
            case .paprika: staged.fidelity.append(try writer.paprika(snapshot, isCancelled: isCancelled, stage: stage))
            case .ics: staged.fidelity.append(try writer.ics(snapshot, isCancelled: isCancelled, stage: stage))
            case .csv: break
            }
        }
    }

    /// Every staged file into the archive, by name, as payload; returns each one's digest.
    func archive(into writer: ArchiveWriter, root: String, archiveFile: (String, String) throws -> FileDigest) throws -> [(String, FileDigest)] {
        // Staged pages by their place, whole files by their path: one list by name.
        let pages = Dictionary(small.pages.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
        let paths = Dictionary(files.map { ($0.name, $0.path) }, uniquingKeysWith: { _, last in last })
        var digests: [(String, FileDigest)] = []
        for name in Set(pages.keys).union(paths.keys).sorted() {
            if let page = pages[name] {
                try writer.addFile(named: "\(root)/\(name)", bytes: try small.read(page))
                digests.append((name, page.digest))
            } else if let path = paths[name] {
                digests.append((name, try archiveFile(path, "\(root)/\(name)")))
            }
        }
        return digests
    }
}
