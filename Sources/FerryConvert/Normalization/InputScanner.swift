import FerryCanonical
import FerryJSON
import FerryCoreData
import Foundation

/// What an input file is, decided from its name and content.
enum InputKind: Sendable, Equatable, CustomStringConvertible {
    case roots(RootsFileKind)
    case brewGuideJSON
    case moltenPlanJSON
    case moltenExport
    case moltenCatalog
    case store
    /// A conflict or backup copy of an app file, skipped unless named explicitly.
    case copy(of: String)
    /// A store's `-wal`, `-shm` or `-journal`: read with its store, skipped even when named
    /// (a shell's `Store.sqlite*` names all three).
    case sidecar
    case unrecognized(String)

    var description: String {
        switch self {
        case .roots(let kind): return "roots \(kind.rawValue).json"
        case .brewGuideJSON: return "brewguide DTO JSON"
        case .moltenPlanJSON: return "molten plan.json"
        case .moltenExport: return "molten .molten export"
        case .moltenCatalog: return "molten glass catalog"
        case .store: return "Core Data / SwiftData store"
        case .copy(let original): return "copy of \(original)"
        case .sidecar: return "a store's journal file"
        case .unrecognized(let reason): return "unrecognized (\(reason))"
        }
    }
}

/// Finds the files to convert: each input file, and every file under each input folder (not
/// hidden, not following symbolic links, at most 6 levels deep), each classified.
/// An input file, what it was detected to be, and whether the user named it (rather than a
/// folder holding it).
typealias ScannedInput = (path: String, kind: InputKind, named: Bool)

struct InputScanner {
    var from: LegacyApp?

    init(from: LegacyApp? = nil) {
        self.from = from
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

    func classify(_ path: String, named: Bool) -> InputKind {
        let name = (path as NSString).lastPathComponent
        let lower = name.lowercased()
        if let header = Self.prefix(path, 16), header == Data("SQLite format 3\0".utf8) { return .store }
        if lower.hasSuffix(".molten") { return .moltenExport }
        if lower.hasSuffix("-wal") || lower.hasSuffix("-shm") || lower.hasSuffix("-journal") { return .sidecar }
        if let (kind, isCopy) = RootsNormalizer.kind(ofFileNamed: name) {
            // Roots' files are known by name: --from another app does not make them that app's.
            guard let from, from != .roots else { return isCopy && !named ? .copy(of: kind.fileName) : .roots(kind) }
            return .unrecognized("this is not \(from.rawValue) data: it looks like Roots' \(kind.fileName)")
        }
        guard lower.hasSuffix(".json") || lower.hasSuffix(".ndjson") || lower.hasSuffix(".jsonl") else {
            return .unrecognized("not a store, a .molten export or JSON")
        }
        return classifyJSON(path)
    }

    /// Looks at the first record of a JSON file to tell BrewGuide DTOs, Molten plans and catalogs
    /// apart, reading no more of the file than that record.
    func classifyJSON(_ path: String) -> InputKind {
        guard let stream = try? JSONRecordStream(path: path), let first = try? stream.next() else {
            if let stream = try? JSONRecordStream(path: path), (try? stream.next()) == nil, stream.isArray {
                return from == .brewguide ? .brewGuideJSON : .unrecognized("no records")
            }
            return from == .brewguide ? .brewGuideJSON : .unrecognized("malformed JSON")
        }
        if !stream.isArray, let object = first.value.object {
            if object["glassitems"] != nil || object["colors"] != nil { return .moltenCatalog }
            if object["glassItems"] != nil || object["planType"] != nil || (object["steps"] != nil && object["coe"] != nil) { return .moltenPlanJSON }
        }
        if BrewGuideNormalizer.recognizes(first.value) { return .brewGuideJSON }
        switch from {
        case .brewguide: return .brewGuideJSON
        case .molten: return .moltenPlanJSON
        default: return .unrecognized("JSON of no known app shape")
        }
    }

    static func prefix(_ path: String, _ count: Int) -> Data? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        return try? handle.read(upToCount: count)
    }
}
