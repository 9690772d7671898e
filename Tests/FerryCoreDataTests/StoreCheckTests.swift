@testable import FerryCoreData
import FerryModel
import FerryTestSupport
import FerryTestTraits
import Foundation
import GRDB
import Testing

/// `ferry check`: no error on any real store of the corpus (what real stores have that Core
/// Data tolerates is a warning or a note), and each kind of damage Core Data would refuse or
/// misread found in a copy of the repository's Gallery store.
@Suite struct StoreCheckTests {
    static let gallery = DumpLoadTests.galleryStore
    static let galleryModel = DumpLoadTests.galleryModel

    static func checked(_ path: String, model: String? = nil) throws -> StoreCheckReport {
        try CoreDataStoreCheck(path: path, model: model).run()
    }

    static func checks(_ report: StoreCheckReport, _ severity: StoreCheckReport.Severity) -> [String] {
        report.findings.filter { $0.severity == severity }.map(\.check)
    }

    @Test(.needsCorpus, arguments: allCorpusStorePaths + [
        "pre-xcode4-models/08__RestKit__RestKit/Examples/RKTwitterCoreData/RKSeedDatabase.sqlite",
        "pre-xcode4-models/15__gilpa__iphone_sqlite_test/CoreDataBooks.sqlite",
    ].map { TestPaths.corpus.appendingPathComponent($0).path })
    func noRealStoreHasAnError(path: String) throws {
        let report = try Self.checked(path)
        #expect(!report.hasErrors, "\(report.findings.map { "\($0.check): \($0.message)" })")
    }

    @Test(.needsCorpus, arguments: SQLLayoutCorpusTests.storesWithModels)
    func noRealStoreHasAnErrorWithItsModel(_ store: CorpusStore) throws {
        let report = try Self.checked(store.storePath, model: store.modelPath)
        #expect(!report.hasErrors, "\(report.findings.map { "\($0.check): \($0.message)" })")
        #expect(report.model.contains(store.expectedVersion))
    }

    /// Photos keeps merge candidates of people it deleted: a join row pointing at no row is
    /// what Core Data opens (following it throws), so a warning naming the table and the row.
    @Test(.needsCorpus) func photosDanglingMergeCandidatesAreAWarning() throws {
        let path = TestPaths.corpus.appendingPathComponent("coredata-sqlite/10__RhetTbull__osxphotos/tests/Test-13.0.0.photoslibrary/database/Photos.sqlite").path
        let report = try Self.checked(path)
        let finding = try #require(report.findings.first { $0.check == "links.missing" })
        #expect(finding.severity == .warning)
        #expect(finding.message.hasPrefix("Person.mergeCandidates: 6 row(s) of Z_47MERGECANDIDATES whose REFLEXIVE points at no row of ZPERSON"))
    }

    @Test func theGalleryStoreIsClean() throws {
        let report = try Self.checked(Self.gallery, model: Self.galleryModel)
        #expect(report.findings.map(\.check) == ["cache.empty"], "\(report.findings)")
        #expect(report.model.hasSuffix("Gallery.xcdatamodeld, version Gallery"))
    }

    /// Each damage in its own copy: the finding, its severity, and nothing else of severity error.
    @Test(arguments: [
        ("UPDATE Z_PRIMARYKEY SET Z_MAX = 1 WHERE Z_NAME = 'Artwork'", "keys.max", StoreCheckReport.Severity.error),
        ("UPDATE Z_PRIMARYKEY SET Z_SUPER = 0 WHERE Z_NAME = 'TextMessage'", "keys.super", .error),
        ("UPDATE Z_PRIMARYKEY SET Z_SUPER = 99 WHERE Z_NAME = 'Room'", "keys.super", .error),
        ("INSERT INTO ZMESSAGE (Z_PK, Z_ENT, Z_OPT) VALUES (70, 9, 1); UPDATE Z_PRIMARYKEY SET Z_MAX = 70 WHERE Z_NAME = 'Message'", "rows.entity", .error),
        ("INSERT INTO ZARTWORK (Z_PK, Z_ENT, Z_OPT) VALUES (70, 9, 1); UPDATE Z_PRIMARYKEY SET Z_MAX = 70 WHERE Z_NAME = 'Artwork'", "rows.entity", .warning),
        ("UPDATE ZARTWORK SET ZNOTE = 999 WHERE Z_PK = 1", "links.missing", .warning),
        ("UPDATE ZARTWORK SET Z4_NOTE = 6 WHERE ZNOTE IS NOT NULL", "links.entity", .error),
        ("DELETE FROM ZEXHIBIT", "links.missing", .warning),
        ("UPDATE Z_METADATA SET Z_UUID = 'not a uuid'", "metadata.uuid", .error),
        ("UPDATE Z_METADATA SET Z_PLIST = x'00'", "metadata.plist", .error),
    ])
    func damageIsFound(sql: String, check: String, severity: StoreCheckReport.Severity) throws {
        let directory = TemporaryDirectory()
        let copy = try directory.write(Data(contentsOf: URL(fileURLWithPath: Self.gallery)), to: "Gallery.sqlite")
        try DatabaseQueue(path: copy).write { try $0.execute(sql: sql) }
        let report = try Self.checked(copy, model: Self.galleryModel)
        #expect(report.findings.contains { $0.check == check && $0.severity == severity }, "\(report.findings)")
        #expect(Self.checks(report, .error).allSatisfy { $0 == check }, "\(report.findings)")
        #expect(report.hasErrors == (severity == .error))
    }

    /// The metadata's own keys: a digest or checksum that is not the hashes', a wrong store
    /// type, hashes of the wrong size, and the model's hashes against the store's.
    @Test func metadataThatCoreDataWouldRefuseIsFound() throws {
        let plist = { (path: String) throws -> PropertyListValue in
            try BinaryPropertyList.read(try #require(try DatabaseQueue(path: path).read { try Data.fetchOne($0, sql: "SELECT Z_PLIST FROM Z_METADATA") }))
        }
        func damaged(_ change: (inout [(key: String, value: PropertyListValue)]) -> Void) throws -> StoreCheckReport {
            let directory = TemporaryDirectory()
            let copy = try directory.write(Data(contentsOf: URL(fileURLWithPath: Self.gallery)), to: "Gallery.sqlite")
            var members = try #require(try plist(copy).members)
            change(&members)
            let bytes = Data(BinaryPropertyListWriter.write(.dictionary(members)))
            try DatabaseQueue(path: copy).write { try $0.execute(sql: "UPDATE Z_METADATA SET Z_PLIST = ?", arguments: [bytes]) }
            return try Self.checked(copy)
        }
        let digest = try damaged { members in
            members.removeAll { $0.key == "NSStoreModelVersionHashesDigest" }
            members.append(("NSStoreModelVersionHashesDigest", .string("AAAA")))
        }
        #expect(Self.checks(digest, .error) == ["metadata.digest"])
        let type = try damaged { members in
            members.removeAll { $0.key == "NSStoreType" }
            members.append(("NSStoreType", .string("Binary")))
        }
        #expect(Self.checks(type, .error) == ["metadata.type"])
        let hashes = try damaged { members in
            members.removeAll { $0.key == "NSStoreModelVersionHashes" }
            members.append(("NSStoreModelVersionHashes", .dictionary([("Artwork", .data(Data([1, 2, 3])))])))
        }
        #expect(Self.checks(hashes, .error).contains("metadata.hashes"))

        // Another model: Core Data would refuse to open the store with it.
        let other = try Self.checked(Self.gallery, model: TestPaths.packageRoot.appendingPathComponent("Formats/legacy/Molten.xcdatamodeld").path)
        #expect(Self.checks(other, .error) == ["model.mismatch"])
    }
}
