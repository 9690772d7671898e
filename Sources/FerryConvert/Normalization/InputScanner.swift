import FerryCanonical
import FerryFiles
import FerryJSON
import FerryCoreData
import Foundation

/// What an input file is, decided from its name and content.
enum InputKind: Sendable, Equatable {
    /// A file an app's (or format's) reader takes.
    case file(RecognizedFile)
    case store
    /// A conflict or backup copy of an app file, skipped unless named explicitly.
    case copy(of: String)
    /// A store's `-wal`, `-shm` or `-journal`: read with its store, skipped even when named
    /// (a shell's `Store.sqlite*` names all three).
    case sidecar
    case unrecognized(String)
}

/// Finds the files to convert: each input file, and every file under each input folder (not
/// hidden, not following symbolic links, at most 6 levels deep), each classified.
/// An input file, what it was detected to be, and whether the user named it (rather than a
/// folder holding it).
typealias ScannedInput = (path: String, kind: InputKind, named: Bool)

struct InputScanner {
    var from: SourceApp?
    /// Lets readers look into zip archives to tell whose they are.
    var openArchive: ArchiveOpener?

    init(from: SourceApp? = nil, openArchive: ArchiveOpener? = nil) {
        self.from = from
        self.openArchive = openArchive
    }

    /// `(path, kind, named)`: `named` is true for files given directly, which are converted
    /// even when they look like conflict or backup copies.
    func scan(_ inputs: [String]) throws -> [ScannedInput] {
        var result: [(String, InputKind, Bool)] = []
        for input in inputs {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory) else {
                throw ConversionError(.fileNotFound, at: RecordLocation(file: input))
            }
            if isDirectory.boolValue {
                for file in try files(under: input, depth: 0) { result.append((file, classify(file, named: false), false)) }
            } else {
                result.append((input, classify(input, named: true), true))
            }
        }
        return result
    }

    private func files(under directory: String, depth: Int) throws -> [String] {
        guard depth < 6 else { return [] }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        } catch {
            throw ConversionError(.unreadable((error as NSError).localizedDescription), at: RecordLocation(file: directory))
        }
        var result: [String] = []
        for name in names where !name.hasPrefix(".") {
            let path = (directory as NSString).appendingPathComponent(name)
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            switch attributes?[.type] as? FileAttributeType {
            case .typeDirectory?: result += try files(under: path, depth: depth + 1)
            case .typeRegular?: result.append(path)
            default: continue
            }
        }
        return result
    }

    /// A Core Data store by its header; a journal by its name; else what the readers take it for.
    /// With `from`, only that app's reader is asked, and a file another app's reader knows is
    /// named as that app's, not converted as the wrong one.
    func classify(_ path: String, named: Bool) -> InputKind {
        let file = CandidateFile(path: path, openArchive: openArchive)
        if file.hasHeader("SQLite format 3\0") { return .store }
        if ["-wal", "-shm", "-journal"].contains(where: file.lowercasedName.hasSuffix) { return .sidecar }
        let readers = from.map { from in SourceReaders.all.filter { $0.app == from } } ?? SourceReaders.all
        for reader in readers {
            guard let found = reader.recognize(file) else { continue }
            if let original = found.copyOf, !named { return .copy(of: original) }
            return .file(found)
        }
        guard let from else { return .unrecognized(reason(file)) }
        for other in SourceReaders.all where other.app != from {
            if let found = other.recognize(file) { return .unrecognized("this is not \(from) data: it looks like \(other.possessive(found.kind))") }
        }
        return SourceReaders.reader(for: from)?.assume(file).map { .file($0) } ?? .unrecognized(reason(file))
    }

    /// Why no reader takes a file.
    private func reason(_ file: CandidateFile) -> String {
        guard file.isNamedJSON else {
            let kinds = SourceReaders.all.flatMap(\.fileKinds).joined(separator: ", ")
            return "not a Core Data store, and not a kind of file Ferry reads (\(kinds))"
        }
        switch file.firstRecord {
        case .malformed: return "malformed JSON"
        case .noRecords: return "no records"
        case .record: return "JSON of no known app shape"
        }
    }
}
