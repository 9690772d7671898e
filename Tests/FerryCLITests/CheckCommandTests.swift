import FerryTestSupport
import FerryTestTraits
import Foundation
import GRDB
import Testing

/// `ferry check`: one line per finding, JSON by its schema, exit 1 when Core Data would refuse
/// or misread the store, 0 otherwise; input that is no store is refused as every command does.
@Suite struct CheckCommandTests {
    static let gallery = "Tests/Fixtures/SQLMapping/Gallery.sqlite"
    static let galleryModel = "Tests/Fixtures/SQLMapping/Gallery.xcdatamodeld"

    @Test func aSoundStoreExitsZeroAndSaysWhatItNoticed() throws {
        let result = try ferry("check", Self.gallery, "--model", Self.galleryModel)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("\(Self.gallery) — checked against \(Self.galleryModel), version Gallery\n"))
        #expect(result.stdout.contains("warning cache.empty  Z_MODELCACHE holds no model"))
        #expect(result.stdout.hasSuffix("0 error(s), 1 warning(s), 0 note(s)\n"))
    }

    @Test func aStoreCoreDataWouldMisreadExitsOneInTextAndJSON() throws {
        let directory = TemporaryDirectory()
        let copy = try directory.write(Data(contentsOf: TestPaths.packageRoot.appendingPathComponent(Self.gallery)), to: "Gallery.sqlite")
        try DatabaseQueue(path: copy).write { try $0.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = 1 WHERE Z_NAME = 'Artwork'") }
        let text = try ferry("check", copy)
        #expect(text.status == 1)
        #expect(text.stdout.contains("error   keys.max"))
        #expect(text.stdout.contains("Artwork's Z_MAX is 1, below the highest Z_PK of ZARTWORK, 3: Core Data would give new objects keys already taken"))
        let json = try ferry("check", copy, "--format", "json")
        #expect(json.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any])
        #expect((object["counts"] as? [String: Int])?["error"] == 1)
        if JSONSchemaCheck.isAvailable {
            #expect(try JSONSchemaCheck.errors(in: json.stdoutData, schema: "check.schema.json") == [])
        }
    }

    @Test func noStoreIsRefusedAsByEveryCommand() throws {
        let missing = try ferry("check", "Tests/Fixtures/SQLMapping/Nothing.sqlite")
        #expect(missing.status == 66 || missing.status == 65, "\(missing.status) \(missing.stderr)")
        #expect(missing.stderr.hasPrefix("ferry: error: Tests/Fixtures/SQLMapping/Nothing.sqlite"))
        let directory = TemporaryDirectory()
        let plain = directory.url.appendingPathComponent("plain.sqlite").path
        try DatabaseQueue(path: plain).write { try $0.execute(sql: "CREATE TABLE t (x)") }
        let notCoreData = try ferry("check", plain)
        #expect(notCoreData.status == 65 && notCoreData.stderr.contains("not a Core Data or SwiftData store"))
    }
}
