import FerryCoreData
import FerryModel
import FerryTestSupport
import Foundation
import GRDB
import Testing

/// An object is named by its UUID when no other row of its table holds that UUID, in any
/// spelling (16 bytes, text in either case, with or without dashes); rows that share one are
/// named `<Entity>/p<Z_PK>`, and the reader says so.
struct RecordIdentifierTests {
    static let first = "BE000000-1111-4222-8333-444444444444"
    static let firstBytes = Data([0xBE, 0, 0, 0, 0x11, 0x11, 0x42, 0x22, 0x83, 0x33, 0x44, 0x44, 0x44, 0x44, 0x44, 0x44])

    /// A store of `Pass` objects (a UUID `id` and a label) holding `ids` in turn, read with its model.
    func ids(_ ids: [DatabaseValue]) throws -> (ids: [Int64: String], warnings: [String: Int]) {
        let directory = TemporaryDirectory()
        let entity = {
            var entity = EntityDescription(name: "Pass")
            entity.attributes = [AttributeDescription(name: "id", type: .uuid), AttributeDescription(name: "label", type: .string)]
            return entity
        }()
        let model = DataModel(file: "Passes", versionName: nil, entities: [entity])
        let modelPath = try directory.write(ModelXMLWriter().contents(model), to: "Passes.xcdatamodel/contents")
        let path = directory.url.appendingPathComponent("Passes.sqlite").path
        let builder = try CoreDataStoreBuilder(path: path, model: model)
        for (index, id) in ids.enumerated() { _ = try builder.insert("Pass", ["id": id, "label": "pass \(index + 1)"]) }
        try builder.finish()
        var named: [Int64: String] = [:]
        let warnings = try CoreDataStoreReader(path: path, model: (modelPath as NSString).deletingLastPathComponent)
            .forEachRecord(entity: "Pass") { named[$0.primaryKey] = $0.id }
        return (named, warnings)
    }

    @Test func uuidsHeldOnceNameTheirRowsInEveryForm() throws {
        let (named, warnings) = try ids([Self.firstBytes.databaseValue, "c0000000-1111-4222-8333-444444444444".databaseValue,
                                         "C1000000111142228333444444444444".databaseValue, DatabaseValue.null])
        #expect(named == [1: Self.first, 2: "C0000000-1111-4222-8333-444444444444", 3: "C1000000111142228333444444444444", 4: "Pass/p4"])
        #expect(!warnings.keys.contains { $0.contains("held by several rows") }, "\(warnings)")
    }

    @Test(arguments: [
        // The first UUID as text: lower case with dashes, upper case without.
        "be000000-1111-4222-8333-444444444444", "BE000000111142228333444444444444",
    ])
    func aUUIDTwoRowsHoldNamesNeitherWhateverItsSpelling(_ text: String) throws {
        let (named, warnings) = try ids([Self.firstBytes.databaseValue, "C0000000-1111-4222-8333-444444444444".databaseValue, text.databaseValue])
        #expect(named == [1: "Pass/p1", 2: "C0000000-1111-4222-8333-444444444444", 3: "Pass/p3"])
        #expect(warnings.keys.contains { $0.contains("1 UUID value(s) held by several rows") }, "\(warnings)")
    }

    @Test func twoRowsOfTheSameBytesNameNeither() throws {
        let (named, _) = try ids([Self.firstBytes.databaseValue, "C0000000-1111-4222-8333-444444444444".databaseValue, Self.firstBytes.databaseValue])
        #expect(named == [1: "Pass/p1", 2: "C0000000-1111-4222-8333-444444444444", 3: "Pass/p3"])
    }

    /// Text that is no UUID is not judged by the first pass: SQLite's grouping finds it twice.
    @Test func twoRowsOfTheSameOtherTextNameNeither() throws {
        let (named, _) = try ids(["not a uuid".databaseValue, "NOT A UUID".databaseValue, "C0000000-1111-4222-8333-444444444444".databaseValue])
        #expect(named == [1: "Pass/p1", 2: "Pass/p2", 3: "C0000000-1111-4222-8333-444444444444"])
    }
}
