import FerryTestSupport
import FerryTestTraits
import Foundation
import GRDB
import Testing

private let storesRoot = TestPaths.corpus.appendingPathComponent("coredata-sqlite")
private let allStores = TestPaths.files(under: storesRoot) { $0.hasSuffix(".sqlite") }
private let walStore = allStores.first { $0.hasSuffix("_WAL.sqlite") }!
private let walModel = storesRoot.appendingPathComponent(
    "02__wibosco__CoreDataMigration-Example/CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld").path

/// A writable copy of a store and its sidecars, in its own folder.
private func copyStore(_ path: String, into directory: TemporaryDirectory) throws -> String {
    let copy = directory.url.appendingPathComponent(URL(fileURLWithPath: path).lastPathComponent).path
    for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
        try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy + suffix)
    }
    return copy
}

private func snapshot(_ directory: URL) throws -> [String: Data] {
    var files: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
        files[name] = try Data(contentsOf: directory.appendingPathComponent(name))
    }
    return files
}

@Suite struct DumpCommandTests {
    @Test(.needsCorpus, arguments: allStores)
    func everyCorpusStoreDumpsOneValidLinePerRecord(path: String) throws {
        let result = try CommandRunner.ferry(["dump", path])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        let directory = TemporaryDirectory()
        let copy = try copyStore(path, into: directory)
        let expected = try DatabaseQueue(path: copy).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type='table' AND name GLOB 'Z[A-Z]*'")
                .reduce(0) { $0 + (try Int.fetchOne(db, sql: "SELECT count(*) FROM \"\($1)\"") ?? 0) }
        }
        #expect(lines.count == expected)
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["entity"] is String && object?["id"] is String && object?["values"] is [String: Any] && object?["pk"] is Int)
        }
        #expect(result.stderr.contains("ferry: schema from"))
    }

    @Test(.needsCorpus) func walRowsAppearAndTheStoreIsUntouched() throws {
        let directory = TemporaryDirectory()
        let copy = try copyStore(walStore, into: directory)
        let before = try snapshot(directory.url)
        let result = try CommandRunner.ferry(["dump", copy, "--model", walModel, "--entity", "Post"])
        #expect(result.status == 0)
        #expect(result.stdout.split(separator: "\n").count == 84)
        #expect(result.stderr.contains(#"version "CoreDataMigration_Example 4" (matched by the store's entity version hashes)"#), "\(result.stderr)")
        #expect(try snapshot(directory.url) == before)
    }

    @Test(.needsCorpus, arguments: [["inspect"], ["inspect", "--format", "json"], ["dump"], ["dump", "--format", "json"], ["inspect", "--format", "mermaid"]])
    func everyCommandLeavesStoreAndSidecarsByteIdentical(arguments: [String]) throws {
        for store in allStores {
            let directory = TemporaryDirectory()
            let copy = try copyStore(store, into: directory)
            let before = try snapshot(directory.url)
            let result = try CommandRunner.ferry(arguments.prefix(1) + [copy] + arguments.dropFirst())
            #expect(result.status == 0, "\(store): \(result.stderr)")
            #expect(try snapshot(directory.url) == before, "\(store)")
        }
    }

    @Test(.needsCorpus) func jsonFormatIsOneDocument() throws {
        let result = try CommandRunner.ferry(["dump", walStore, "--format", "json"])
        let document = try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any]
        #expect(document?["format"] as? String == "ferry.dump/1")
        #expect((document?["records"] as? [Any])?.count == 168)
    }

    /// One file per entity, and `_store.json` saying what they were read from.
    @Test(.needsCorpus) func outputFolderGetsOneFilePerEntity() throws {
        let directory = TemporaryDirectory()
        let output = directory.url.appendingPathComponent("out").path
        let result = try CommandRunner.ferry(["dump", walStore, "-o", output])
        #expect(result.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: output).sorted() == ["Color.ndjson", "Post.ndjson", "_store.json"])
        let description = try String(contentsOfFile: output + "/_store.json", encoding: .utf8)
        #expect(description.contains(#""format": "ferry.dump-store/1""#) && description.contains(#""lossless": false"#), "\(description)")
        let posts = try String(contentsOfFile: output + "/Post.ndjson", encoding: .utf8)
        #expect(posts.split(separator: "\n").count == 84)
        #expect(result.stderr.contains("168 records from 2 entities written to \(output)"))
    }

    @Test(.needsCorpus) func unwritableOutputFolderIsAnErrorAndLeavesNothing() throws {
        let directory = TemporaryDirectory()
        let output = directory.url.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o500])
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: output.path) }
        guard getuid() != 0 else { return }  // root writes anywhere; the check means nothing then
        let result = try CommandRunner.ferry(["dump", walStore, "-o", output.path])
        #expect(result.status == 73)
        #expect(result.stderr.hasPrefix("ferry: error: \(output.path)/"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).isEmpty)
    }

    @Test(arguments: [
        ("Tests/FerryModelTests/Fixtures/Bad/not-xml.json", 65, "not an SQLite database"),
        ("Samples/none.sqlite", 66, "no such file or directory"),
    ])
    func badStoresGiveOneLineAndAStatus(path: String, status: Int32, message: String) throws {
        let result = try CommandRunner.ferry(["dump", path], in: TestPaths.packageRoot)
        #expect(result.status == status)
        #expect(result.stderr == "ferry: error: \(path): \(message)" + (message.hasPrefix("not an") ? " (no \"SQLite format 3\" header)\n" : "\n"))
    }

    @Test(.needsCorpus) func damagedStoreIsRefused() throws {
        let directory = TemporaryDirectory()
        var data = try Data(contentsOf: URL(fileURLWithPath: allStores.first { $0.hasSuffix("SampleModel_V2.sqlite") }!))
        for index in stride(from: 100, to: data.count, by: 7) { data[index] ^= 0x5A }
        let path = try directory.write(data, to: "damaged.sqlite")
        let result = try CommandRunner.ferry(["dump", path])
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("ferry: error: \(path): damaged SQLite database: "))
    }

    @Test(.needsCorpus) func plainSQLiteAndMismatchedModelAndDamagedXcode3ModelAreRefused() throws {
        let directory = TemporaryDirectory()
        let plain = directory.url.appendingPathComponent("plain.sqlite").path
        try DatabaseQueue(path: plain).write { try $0.execute(sql: "CREATE TABLE t (x)") }
        let plainResult = try CommandRunner.ferry(["dump", plain])
        #expect(plainResult.status == 65 && plainResult.stderr.contains("not a Core Data or SwiftData store (no Z_PRIMARYKEY table)"))

        let mismatch = try CommandRunner.ferry(["dump", walStore, "--model", "Formats/legacy/Molten.xcdatamodeld"], in: TestPaths.packageRoot)
        #expect(mismatch.status == 65 && mismatch.stderr.contains("the model does not describe this store: no version of Formats/legacy/Molten.xcdatamodeld matches"))
        #expect(mismatch.stderr.filter { $0 == "\n" }.count == 1)

        let old = try CommandRunner.ferry(["inspect", walStore, "--model", "Tests/FerryModelTests/Fixtures/PreXcode4.xcdatamodel"], in: TestPaths.packageRoot)
        #expect(old.status == 65 && old.stderr.contains("PreXcode4.xcdatamodel/elements: Xcode 3 model (elements file): not a keyed archive"))

        let unknown = try CommandRunner.ferry(["dump", walStore, "--entity", "Comment"])
        #expect(unknown.status == 64 && unknown.stderr.contains(#"no entity "Comment"; entities: Color, Post"#))
    }
}

@Suite struct InspectStoreCommandTests {
    @Test(.needsCorpus) func textNamesTheMatchedVersionAndCounts() throws {
        let result = try CommandRunner.ferry(["inspect", walStore, "--model", walModel])
        #expect(result.status == 0)
        #expect(result.stdout.contains("matched version: CoreDataMigration_Example 4 (by computed-version-hashes)"))
        #expect(result.stdout.contains("opened private copy with its -wal; rows in the -wal read too"))
        #expect(result.stdout.range(of: #"Post\s+2\s+84\s+ZPOST"#, options: .regularExpression) != nil)
    }

    @Test(.needsCorpus, .enabled(if: JSONSchemaCheck.isAvailable, "Python jsonschema is not installed (make setup installs it)"),
          arguments: allStores)
    func jsonMatchesThePublishedSchema(path: String) throws {
        let result = try CommandRunner.ferry(["inspect", path, "--format", "json"])
        #expect(result.status == 0)
        #expect(try JSONSchemaCheck.errors(in: result.stdoutData, schema: "inspect-store.schema.json") == [])
    }

    @Test(.needsCorpus) func modelOptionIsRefusedForModels() throws {
        let result = try CommandRunner.ferry(["inspect", "Formats/legacy/Roots.xcdatamodeld", "--model", "x"], in: TestPaths.packageRoot)
        #expect(result.status == 64)
    }
}

@Suite struct HistoryCommandTests {
    private static let swiftDataStore = TestPaths.files(under: storesRoot) { $0 == "default.store" }.first!

    @Test(.needsCorpus) func dumpHistoryWritesOneLinePerChangeAndInspectCountsThem() throws {
        let result = try CommandRunner.ferry(["dump", Self.swiftDataStore, "--history"])
        #expect(result.status == 0, "\(result.stderr)")
        let directory = TemporaryDirectory()
        let copy = try copyStore(Self.swiftDataStore, into: directory)
        let changes = try DatabaseQueue(path: copy).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM ACHANGE") ?? 0 }
        let lines = result.stdout.split(separator: "\n")
        #expect(changes > 0 && lines.count == changes)
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(["insert", "update", "delete"].contains(object?["type"] as? String))
            #expect(object?["entity"] is String && object?["transaction"] is [String: Any])
        }
        let inspect = try CommandRunner.ferry(["inspect", Self.swiftDataStore])
        #expect(inspect.stdout.contains("persistent history: ") && inspect.stdout.contains("\(changes) changes"))
    }

    @Test(.needsCorpus) func aStoreWithoutHistoryIsAnErrorWithExit65() throws {
        let result = try CommandRunner.ferry(["dump", walStore, "--history"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("keeps no persistent history"))
        #expect(result.stdout.isEmpty)
    }
}
