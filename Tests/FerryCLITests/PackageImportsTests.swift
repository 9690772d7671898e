import FerryTestSupport
import Foundation
import Testing

/// Every module a target imports is declared in `Package.swift` as its dependency, so that no
/// target builds only because SwiftPM passes another's modules along, and the readers never
/// reach libarchive.
@Suite struct PackageImportsTests {
    /// Modules of the platform, which no manifest declares.
    static let system: Set<String> = ["Foundation", "FoundationXML", "FoundationEssentials", "Glibc", "Dispatch", "Testing", "XCTest", "PackagePlugin"]

    /// Each target's name, folder and declared dependencies (targets and products by module name), read from the manifest.
    static func targets() throws -> [(name: String, path: String, dependencies: Set<String>)] {
        let manifest = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        var result: [(String, String, Set<String>)] = []
        let kinds = [".target(", ".executableTarget(", ".testTarget(", ".plugin("]
        var rest = Substring(manifest)
        while let start = kinds.compactMap({ rest.range(of: $0) }).min(by: { $0.lowerBound < $1.lowerBound }) {
            // The declaration runs to its closing parenthesis.
            var depth = 0, end = start.upperBound
            for index in rest[start.lowerBound...].indices {
                if rest[index] == "(" { depth += 1 }
                if rest[index] == ")" { depth -= 1; if depth == 0 { end = index; break } }
            }
            let declaration = String(rest[start.lowerBound..<end])
            rest = rest[end...]
            guard let name = Self.firstQuoted(after: "name: ", in: declaration) else { continue }
            let kind = declaration.hasPrefix(".testTarget(") ? "Tests" : declaration.hasPrefix(".plugin(") ? "Plugins" : "Sources"
            let path = Self.firstQuoted(after: "path: ", in: declaration) ?? "\(kind)/\(name)"
            var dependencies: Set<String> = []
            if let list = declaration.range(of: "dependencies: [") {
                var depth = 1, index = list.upperBound
                while index < declaration.endIndex, depth > 0 {
                    if declaration[index] == "[" { depth += 1 } else if declaration[index] == "]" { depth -= 1 }
                    index = declaration.index(after: index)
                }
                let text = declaration[list.upperBound..<index]
                // Plain names, and products by their module name (`.product(name: "GRDB", …)`).
                var scan = text[...]
                while let open = scan.firstIndex(of: "\""), let close = scan[scan.index(after: open)...].firstIndex(of: "\"") {
                    let word = String(scan[scan.index(after: open)..<close])
                    if !scan[..<open].hasSuffix("package: ") { dependencies.insert(word) }
                    scan = scan[scan.index(after: close)...]
                }
            }
            result.append((name, path, dependencies))
        }
        return result
    }

    static func firstQuoted(after label: String, in text: String) -> String? {
        guard let range = text.range(of: label + "\"") else { return nil }
        return text[range.upperBound...].split(separator: "\"", maxSplits: 1).first.map(String.init)
    }

    @Test func everyImportIsADeclaredDependency() throws {
        let targets = try Self.targets()
        #expect(targets.count >= 20)
        let names = Set(targets.map(\.name))
        for target in targets {
            let folder = TestPaths.packageRoot.appendingPathComponent(target.path)
            for file in TestPaths.files(under: folder, where: { $0.hasSuffix(".swift") }) {
                let text = try String(contentsOfFile: file, encoding: .utf8)
                for line in text.split(separator: "\n") where line.hasPrefix("import ") || line.hasPrefix("@testable import ") {
                    guard let module = line.split(separator: " ").last.map(String.init), !Self.system.contains(module) else { continue }
                    #expect(target.dependencies.contains(module), "\(file) imports \(module), which \(target.name) does not declare")
                }
            }
        }
        #expect(names.contains("FerryConvert") && names.contains("FerryStore"))
    }

    /// Only the archive library reaches libarchive: the readers and converters link without it.
    @Test func noReaderDependsOnLibarchive() throws {
        let targets = try Self.targets()
        let byName = Dictionary(targets.map { ($0.name, $0.dependencies) }, uniquingKeysWith: { a, _ in a })
        func reaches(_ name: String, _ seen: inout Set<String>) -> Bool {
            guard seen.insert(name).inserted else { return false }
            if name == "CLibArchive" { return true }
            return (byName[name] ?? []).contains { reaches($0, &seen) }
        }
        for reader in ["FerryJSON", "FerryModel", "FerryCoreData", "FerryCanonical", "FerryStore", "FerryConvert"] {
            var seen: Set<String> = []
            #expect(!reaches(reader, &seen), "\(reader) reaches libarchive")
        }
        var seen: Set<String> = []
        #expect(reaches("FerryBundle", &seen))
    }
}
