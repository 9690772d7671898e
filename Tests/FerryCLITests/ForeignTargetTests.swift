import FerryTestSupport
import Foundation
import GRDB
import Testing

/// Ferry replaces only what it wrote: an app's Core Data store (with a live WAL), any other
/// SQLite file or any other file given as the target of import, load or convert is refused and
/// left byte for byte as it was, journal files included, with nothing beside it; with
/// `--replace-foreign` it is replaced after a backup that holds what its WAL held, and no stale
/// WAL stays beside the new store. A canonical store is never the target of `--as core-data`.
@Suite struct ForeignTargetTests {
    let directory = TemporaryDirectory("ferry-foreign")

    func path(_ name: String) -> String { directory.url.appendingPathComponent(name).path }

    /// The samples' Core Data store of Forager with a WAL holding committed rows no checkpoint
    /// has carried into the main file: the state of an app's store while the app runs.
    func coreDataStoreWithWAL(_ name: String) throws -> (store: String, walRows: Int) {
        let work = path("wal-source-\(name)")
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let source = work + "/Forager.sqlite"
        try FileManager.default.copyItem(atPath: TestPaths.samples.appendingPathComponent("forager/Forager.sqlite").path, toPath: source)
        let queue = try DatabaseQueue(path: source)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
            try db.execute(sql: "CREATE TABLE app_notes (id INTEGER PRIMARY KEY, body TEXT)")
            for number in 0..<50 { try db.execute(sql: "INSERT INTO app_notes (body) VALUES (?)", arguments: ["note \(number)"]) }
        }
        // Copied while the connection is open: the main file and a WAL that holds the notes.
        let store = path(name)
        for suffix in ["", "-wal"] { try FileManager.default.copyItem(atPath: source + suffix, toPath: store + suffix) }
        try queue.close()
        let wal = try FileManager.default.attributesOfItem(atPath: store + "-wal")[.size] as? Int ?? 0
        #expect(wal > 0, "the fixture's WAL is empty")
        return (store, 50)
    }

    func bytes(_ paths: [String]) throws -> [String: Data] {
        var found: [String: Data] = [:]
        for path in paths where FileManager.default.fileExists(atPath: path) { found[path] = try Data(contentsOf: URL(fileURLWithPath: path)) }
        return found
    }

    func bundle() throws -> String {
        let store = path("samples.ferry"), bundle = path("samples.tar.zst")
        if !FileManager.default.fileExists(atPath: bundle) {
            #expect(try ferry("convert", "Samples", "--to", store).status == 0)
            #expect(try ferry("export", store, "-o", bundle, "--no-view").status == 0)
        }
        return bundle
    }

    @Test func importRefusesAnAppsStoreAndLeavesItAndItsWALAlone() throws {
        let bundle = try bundle()
        let (store, _) = try coreDataStoreWithWAL("Photos.sqlite")
        let files = [store, store + "-wal", store + "-shm"]
        let before = try bytes(files)
        let listing = StoreFixtures.listing(directory.path)
        for arguments in [["import", bundle, "--to", store], ["import", bundle, "--to", store, "--merge"],
                          ["import", bundle, "--to", store, "--merge", "--replace-foreign"]] {
            let result = try CommandRunner.ferry(arguments)
            #expect(result.status == 65, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("not a Ferry store"), "\(result.stderr)")
            #expect(try bytes(files) == before, "\(arguments) changed the store or its journal files")
        }
        #expect(StoreFixtures.listing(directory.path) == listing, "a refused import left something behind")
    }

    @Test func importWithReplaceForeignKeepsWhatTheWALHeldInTheBackup() throws {
        let (store, walRows) = try coreDataStoreWithWAL("App.sqlite")
        let result = try CommandRunner.ferry(["import", try bundle(), "--to", store, "--replace-foreign"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: store + "-wal") && !FileManager.default.fileExists(atPath: store + "-shm"),
                "a stale WAL sits beside the new store")
        #expect(try StoreFixtures.strings(store, "SELECT count(*) FROM recipe") != ["0"])
        let backups = StoreFixtures.listing(store + ".backups")
        #expect(backups.count == 1)
        let backup = store + ".backups/" + backups[0]
        #expect(try StoreFixtures.strings(backup, "SELECT count(*) FROM app_notes") == ["\(walRows)"])
        #expect(try StoreFixtures.integrityProblems(backup) == [])
    }

    @Test func importAndConvertRefuseAFileThatIsNoDatabase() throws {
        let bundle = try bundle()
        let notes = path("notes.txt")
        try Data("my notes\n".utf8).write(to: URL(fileURLWithPath: notes))
        let listing = StoreFixtures.listing(directory.path)
        let imported = try CommandRunner.ferry(["import", bundle, "--to", notes])
        #expect(imported.status == 65 && imported.stderr.contains("not an SQLite database"), "\(imported.stderr)")
        let converted = try ferry("convert", "Samples/roots", "--to", notes)
        #expect(converted.status == 65 && converted.stderr.contains("not an SQLite database"), "\(converted.stderr)")
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "my notes\n")
        #expect(StoreFixtures.listing(directory.path).filter { !$0.hasPrefix("samples") } == listing.filter { !$0.hasPrefix("samples") })

        // Asked to, it replaces the file and keeps its bytes as the backup.
        let replaced = try ferry("convert", "Samples/roots", "--to", notes, "--replace-foreign")
        #expect(replaced.status == 0, "\(replaced.stderr)")
        let backups = StoreFixtures.listing(notes + ".backups")
        #expect(backups.count == 1)
        #expect(try String(contentsOfFile: notes + ".backups/" + (backups.first ?? ""), encoding: .utf8) == "my notes\n")
        #expect(try StoreFixtures.strings(notes, "SELECT count(*) FROM project") != ["0"])
    }

    @Test func aCanonicalStoreIsNeverTheTargetOfCoreDataAndTheReverse() throws {
        let canonical = path("data.ferry")
        #expect(try ferry("convert", "Samples", "--to", canonical).status == 0)
        let before = try bytes([canonical])
        let asCoreData = try ferry("convert", "Samples/brewguide", "--to", canonical, "--as", "core-data")
        #expect(asCoreData.status == 65, "\(asCoreData.stderr)")
        #expect(asCoreData.stderr.contains("not a store of this model"), "\(asCoreData.stderr)")
        #expect(try bytes([canonical]) == before)
        #expect(!FileManager.default.fileExists(atPath: canonical + ".backups"))

        // A Core Data store of Ferry's mirror model is not a canonical store either.
        let coreData = path("mirror.sqlite")
        #expect(try ferry("convert", "Samples/brewguide", "--to", coreData, "--as", "core-data").status == 0)
        let mirrorBefore = try bytes([coreData])
        let asCanonical = try ferry("convert", "Samples/brewguide", "--to", coreData)
        #expect(asCanonical.status == 65 && asCanonical.stderr.contains("not a Ferry store"), "\(asCanonical.stderr)")
        #expect(try bytes([coreData]) == mirrorBefore)
        // And into itself again, the same model: replaced, with a backup.
        let again = try ferry("convert", "Samples/brewguide", "--to", coreData, "--as", "core-data")
        #expect(again.status == 0, "\(again.stderr)")
        #expect(StoreFixtures.listing(coreData + ".backups").count == 1)
    }

    @Test func loadRefusesAnotherModelsStore() throws {
        let (store, _) = try coreDataStoreWithWAL("Other.sqlite")
        let before = try bytes([store, store + "-wal"])
        let dump = path("molten-dump")
        let molten = TestPaths.samples.appendingPathComponent("molten/Molten.sqlite").path
        #expect(try ferry("dump", molten, "-o", dump).status == 0)
        let model = TestPaths.formats.appendingPathComponent("legacy/Molten.xcdatamodeld").path
        let refused = try ferry("load", dump, "--model", model, "--version", "Molten 5", "--to", store)
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("another model"), "\(refused.stderr)")
        #expect(try bytes([store, store + "-wal"]) == before)
        #expect(!FileManager.default.fileExists(atPath: store + ".backups"))
    }

    /// Ferry's own store in WAL mode, its schema and rows still only in the WAL (never
    /// checkpointed): its own, not foreign; converted into, with the WAL's rows kept.
    @Test func aFerryStoreWhoseSchemaIsStillInItsWALIsFerrys() throws {
        let source = path("rollback.ferry")
        #expect(try ferry("convert", "Samples/roots", "--to", source).status == 0)
        let work = path("wal-ferry")
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let live = work + "/live.ferry"
        var configuration = Configuration()
        // The log key is an index made after the rows, as Ferry makes it: checked then, not per row.
        configuration.foreignKeysEnabled = false
        let queue = try DatabaseQueue(path: live, configuration: configuration)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
            try db.execute(sql: "ATTACH DATABASE ? AS old", arguments: [source])
            let objects = try Row.fetchAll(db, sql: "SELECT type, name, sql FROM old.sqlite_master WHERE sql IS NOT NULL ORDER BY type = 'table' DESC, rowid")
            for object in objects where (object["type"] as String) == "table" { try db.execute(sql: object["sql"]) }
            for object in objects where (object["type"] as String) == "table" {
                let name: String = object["name"]
                try db.execute(sql: "INSERT INTO main.\"\(name)\" SELECT * FROM old.\"\(name)\"")
            }
            for object in objects where (object["type"] as String) != "table" { try db.execute(sql: object["sql"]) }
            let version = try Int.fetchOne(db, sql: "PRAGMA old.user_version") ?? 0
            try db.execute(sql: "PRAGMA main.user_version = \(version)")
            try db.execute(sql: "DETACH DATABASE old")
        }
        let store = path("wal.ferry")
        for suffix in ["", "-wal"] { try FileManager.default.copyItem(atPath: live + suffix, toPath: store + suffix) }
        try queue.close()
        let projects = try StoreFixtures.strings(source, "SELECT count(*) FROM project")

        let result = try ferry("convert", "Samples/brewguide", "--to", store)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try StoreFixtures.strings(store, "SELECT count(*) FROM project") == projects, "the WAL's rows were lost")
        #expect(try StoreFixtures.strings(store, "SELECT count(*) FROM log") != ["0"])
    }

    @Test func aLinkedTargetIsReplacedThroughItsLink() throws {
        let notes = try directory.write("hi\n", to: "notes.txt")
        let link = path("link.ferry")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: notes)
        let result = try ferry("convert", "Samples/roots", "--to", link, "--replace-foreign")
        #expect(result.status == 0, "\(result.stderr)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == notes, "the link was replaced")
        #expect(try StoreFixtures.strings(notes, "SELECT count(*) FROM project") != ["0"])
    }

    @Test func aStoresNamedJournalFileIsReadWithItsStore() throws {
        let store = path("named/Forager.sqlite")
        try FileManager.default.createDirectory(atPath: path("named"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TestPaths.samples.appendingPathComponent("forager/Forager.sqlite").path, toPath: store)
        _ = FileManager.default.createFile(atPath: store + "-shm", contents: Data())
        let result = try ferry("convert", store, store + "-shm", "--to", path("named.ferry"))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try StoreFixtures.strings(path("named.ferry"), "SELECT count(*) FROM recipe") != ["0"])
    }
}
