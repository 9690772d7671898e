@testable import FerryCanonical
@testable import FerryConvert
import FerryModel
@testable import FerryStore
import FerryTestSupport
import Foundation
import GRDB
import Testing

/// The documents in `Formats/` agree with the code: the canonical store's Core Data mirror with
/// its schema, the legacy models built into ferry with their files.
@Suite struct FormatsTests {
    let directory = TemporaryDirectory("ferry-formats")
    static let mirror = TestPaths.formats.appendingPathComponent("canonical/Ferry.xcdatamodeld").path

    @Test func theCanonicalMirrorPassesCloudKitLint() throws {
        let bundle = try ModelBundle(at: Self.mirror)
        let model = try bundle.load(try bundle.version(named: nil))
        let report = ModelLinter(forceCloudKit: true).lint(model)
        #expect(report.findings.isEmpty, "\(report.findings.map { "\($0.rule) \($0.location)" })")
    }

    @Test func theCanonicalMirrorHasOneEntityPerTableAndOnePropertyPerColumn() throws {
        let bundle = try ModelBundle(at: Self.mirror)
        let model = try bundle.load(try bundle.version(named: nil))
        let path = directory.url.appendingPathComponent("empty.ferry").path
        let store = try CanonicalStore(path: path)
        try store.close()
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        func camel(_ name: String, upper: Bool) -> String {
            let parts = name.split(separator: "_").map(String.init)
            let joined = parts[0] + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
            return upper ? joined.prefix(1).uppercased() + joined.dropFirst() : joined
        }
        let tables = try queue.read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT IN (\(CanonicalTables.internalTablesSQL))") }
        #expect(Set(model.entities.map(\.name)) == Set(tables.map { camel($0, upper: true) }))
        for table in tables {
            let entity = try #require(model.entity(named: camel(table, upper: true)))
            let columns = try queue.read { db in try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map { $0["name"] as String } }
            let foreignKeys = try queue.read { db in try Row.fetchAll(db, sql: "PRAGMA foreign_key_list(\(table))").map { $0["from"] as String } }
            var expected: Set<String> = []
            for column in columns {
                expected.insert(foreignKeys.contains(column) && column.hasSuffix("_id") ? camel(String(column.dropLast(3)), upper: false) : camel(column, upper: false))
            }
            let toOne = Set(entity.relationships.filter { !$0.isToMany && !($0.name == "snapshot") }.map(\.name))
            #expect(Set(entity.attributes.map(\.name)).union(toOne) == expected, "\(table)")
        }
    }

    @Test func theCanonicalMirrorBuiltIntoFerryIsTheFileInFormats() throws {
        let onDisk = try String(contentsOf: URL(fileURLWithPath: Self.mirror).appendingPathComponent("Ferry 1.xcdatamodel/contents"), encoding: .utf8)
        #expect(onDisk.trimmingCharacters(in: .newlines) == CanonicalModelText.contents.trimmingCharacters(in: .newlines),
                "the copy the EmbedModels plugin built into ferry differs")
        let builtIn = try CanonicalCoreDataWriter.canonicalModel()
        let bundle = try ModelBundle(at: Self.mirror)
        #expect(builtIn.entities == (try bundle.load(try bundle.version(named: nil))).entities)
    }

    @Test func theLegacyModelsBuiltIntoFerryAreTheFilesInFormats() throws {
        #expect(KnownModels.embedded.count == 4)
        for file in KnownModels.embedded {
            let folder = TestPaths.formats.appendingPathComponent("legacy").appendingPathComponent(file.bundle)
            let contents = file.bundle.hasSuffix(".xcdatamodeld")
                ? folder.appendingPathComponent("\(file.version).xcdatamodel/contents") : folder.appendingPathComponent("contents")
            let onDisk = try String(contentsOf: contents, encoding: .utf8)
            #expect(onDisk.trimmingCharacters(in: .newlines) == file.contents.trimmingCharacters(in: .newlines),
                    "\(contents.path) differs from the copy the EmbedModels plugin built into ferry")
        }
        #expect(try KnownModels.versions(for: .molten).map(\.name) == ["Molten 5", "Molten 6"])
        #expect(try KnownModels.versions(for: .brewguide).isEmpty)
    }
}
