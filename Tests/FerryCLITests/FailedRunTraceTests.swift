import FerryTestSupport
import Foundation
import Testing

/// A failed run leaves no trace: no backup of a store it did not replace (so failures never
/// rotate real backups out), no backups folder it made, and `dump -o` replaces a folder whole
/// or refuses it.
@Suite struct FailedRunTraceTests {
    let directory = TemporaryDirectory("ferry-failed-run")

    func path(_ name: String) -> String { directory.url.appendingPathComponent(name).path }

    func files(in folder: String) -> [String] { StoreFixtures.listing(folder) }

    @Test func aConversionThatFailsWhileWritingKeepsNoBackupAndRotatesNothingOut() throws {
        let store = path("data.ferry")
        #expect(try ferry("convert", "Samples", "--to", store).status == 0)
        // Two real backups, then failures with room for only two: none may push them out.
        #expect(try ferry("backup", store, "--keep", "2").status == 0)
        usleep(5_000)
        #expect(try ferry("backup", store, "--keep", "2").status == 0)
        let backups = files(in: store + ".backups")
        #expect(backups.count == 2)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let bad = TestPaths.packageRoot.appendingPathComponent("Tests/BadInputs/duplicate-ids.ndjson").path
        for _ in 0..<3 {
            let failed = try ferry("convert", bad, "--from", "brewguide", "--to", store, "--keep-backups", "2")
            #expect(failed.status == 65, "\(failed.stderr)")
            #expect(failed.stderr.contains("duplicate id"), "\(failed.stderr)")
        }
        #expect(files(in: store + ".backups") == backups, "failed runs changed the backups")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before, "a failed run changed the store")
        #expect(files(in: directory.path).filter { $0.hasPrefix(".") }.isEmpty, "\(files(in: directory.path))")
    }

    @Test func aFailedFirstBackupLeavesNoBackupsFolder() throws {
        let store = path("fresh.ferry")
        #expect(try ferry("convert", "Samples", "--to", store).status == 0)
        let bad = TestPaths.packageRoot.appendingPathComponent("Tests/BadInputs/duplicate-ids.ndjson").path
        #expect(try ferry("convert", bad, "--from", "brewguide", "--to", store).status == 65)
        #expect(!FileManager.default.fileExists(atPath: store + ".backups"))
        // A successful one takes its backup, and only then.
        #expect(try ferry("convert", "Samples/roots", "--to", store).status == 0)
        #expect(files(in: store + ".backups").count == 1)
    }

    @Test func dumpReplacesAnEarlierDumpWholeAndRefusesAStrangersFolder() throws {
        let molten = TestPaths.samples.appendingPathComponent("molten/Molten.sqlite").path
        let forager = TestPaths.samples.appendingPathComponent("forager/Forager.sqlite").path
        let out = path("dump")
        #expect(try ferry("dump", forager, "-o", out).status == 0)
        let foragerFiles = files(in: out)
        #expect(foragerFiles.contains("_store.json"))
        // An earlier dump (of another store) is replaced whole: none of its entities stay.
        let again = try ferry("dump", molten, "-o", out)
        #expect(again.status == 0, "\(again.stderr)")
        let moltenFiles = files(in: out)
        let fresh = path("fresh-dump")
        #expect(try ferry("dump", molten, "-o", fresh).status == 0)
        #expect(moltenFiles == files(in: fresh))
        #expect(files(in: directory.path).filter { $0.hasPrefix(".") }.isEmpty)

        // A folder holding anything else is refused, and left as it was.
        let mine = path("mine")
        try FileManager.default.createDirectory(atPath: mine, withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: mine + "/notes.txt"))
        let refused = try ferry("dump", molten, "-o", mine)
        #expect(refused.status == 73, "\(refused.stderr)")
        #expect(refused.stderr.contains("not a Ferry dump") && refused.stderr.contains("notes.txt"), "\(refused.stderr)")
        #expect(files(in: mine) == ["notes.txt"])
    }

    @Test func aReportThatCannotBeWrittenFailsBeforeTheStoreIsWritten() throws {
        let folder = path("reports-are-folders")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for report in [path("no-such-folder/report.json"), folder, "/proc/ferry-report.json"] {
            let store = path("report-\(abs(report.hashValue)).ferry")
            let result = try ferry("convert", "Samples/roots", "--to", store, "--report", report)
            #expect(result.status == 73, "\(report): \(result.stderr)")
            #expect(result.stderr.contains(report), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: store), "\(report): the store was written")
        }
        #expect(files(in: directory.path).filter { $0.hasPrefix(".") }.isEmpty, "\(files(in: directory.path))")
    }

    @Test func countsOfOneAreSingular() throws {
        let forager = TestPaths.samples.appendingPathComponent("forager/Forager.sqlite").path
        let one = try ferry("dump", forager, "--entity", "Tag", "-o", path("one-entity"))
        #expect(one.status == 0, "\(one.stderr)")
        #expect(one.stderr.contains(" from 1 entity written to"), "\(one.stderr)")
        #expect(!one.stderr.contains("1 entities"))
    }
}
