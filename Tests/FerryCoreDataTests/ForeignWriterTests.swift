import FerryCoreData
import FerryJSON
import FerryModel
import FerryTestSupport
import Foundation
import GRDB
import Testing

/// Stores written by other tools and damaged values: read with SQLite's own conversions, or
/// named, never a crash (a TEXT Z_ENT stopped the process in GRDB's typed subscripts, a huge
/// date in the date formatting).
@Suite struct ForeignWriterTests {
    static let modelXML = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="n1">
            <entity name="Note" representedClassName="Note" syncable="YES">
                <attribute name="title" optional="YES" attributeType="String"/>
                <attribute name="when" optional="YES" attributeType="Date"/>
            </entity>
        </model>
        """

    let directory = TemporaryDirectory()

    func store(_ whenValues: [Double]) throws -> (store: String, model: String) {
        let model = try directory.write(Self.modelXML, to: "Notes.xcdatamodel/contents")
        let store = directory.url.appendingPathComponent("Notes.sqlite").path
        let builder = try CoreDataStoreBuilder(path: store, model: try ModelParser().parse(contentsOf: model), identifiers: ["n1"])
        for (index, when) in whenValues.enumerated() { _ = try builder.insert("Note", ["title": "note \(index)", "when": when]) }
        try builder.finish()
        return (store, model)
    }

    @Test func bookkeepingColumnsStoredAsTextAreRead() throws {
        let (store, model) = try store([0, 86_400])
        // Another tool's table: no INTEGER affinity, so the row numbers stay text.
        let queue = try DatabaseQueue(path: store)
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE ZNOTE_T (Z_PK TEXT, Z_ENT TEXT, Z_OPT TEXT, ZTITLE VARCHAR, ZWHEN TIMESTAMP);
                INSERT INTO ZNOTE_T SELECT CAST(Z_PK AS TEXT), CAST(Z_ENT AS TEXT), CAST(Z_OPT AS TEXT), ZTITLE, ZWHEN FROM ZNOTE;
                DROP TABLE ZNOTE; ALTER TABLE ZNOTE_T RENAME TO ZNOTE;
                UPDATE Z_PRIMARYKEY SET Z_ENT = CAST(Z_ENT AS TEXT), Z_MAX = CAST(Z_MAX AS TEXT);
                """)
            #expect(try String.fetchOne(db, sql: "SELECT typeof(Z_ENT) FROM ZNOTE") == "text")
        }
        try queue.close()
        let reader = try CoreDataStoreReader(path: store, model: model)
        var titles: [String] = []
        try reader.forEachRecord { titles.append($0.values["title"]?.string ?? "") }
        #expect(titles.sorted() == ["note 0", "note 1"])
        #expect(reader.entityCounts().first { $0.entity == "Note" }?.rows == 2)
    }

    @Test(arguments: [1e300, -1e300, 4e11])
    func datesOutOfRangeAreMarkedRawValues(seconds: Double) throws {
        let (store, model) = try store([seconds, 0])
        var whens: [String] = []
        try CoreDataStoreReader(path: store, model: model).forEachRecord { whens.append($0.values["when"]?.string ?? "") }
        #expect(whens.sorted() == ["2001-01-01T00:00:00Z", "out of range: \(seconds) seconds since 2001"])
    }

    @Test func aForeignKeyThatIsNoRowNumberIsNamed() throws {
        let xml = Self.modelXML.replacingOccurrences(of: "</entity>", with: """
            <relationship name="parent" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Note"/></entity>
            """)
        let model = try directory.write(xml, to: "Tree.xcdatamodel/contents")
        let store = directory.url.appendingPathComponent("Tree.sqlite").path
        let builder = try CoreDataStoreBuilder(path: store, model: try ModelParser().parse(contentsOf: model), identifiers: ["n1"])
        _ = try builder.insert("Note", ["title": "root"])
        try builder.finish()
        let queue = try DatabaseQueue(path: store)
        try queue.write { db in try db.execute(sql: "UPDATE ZNOTE SET ZPARENT = X'0102'") }
        try queue.close()
        #expect(throws: CoreDataReadError.self) { try CoreDataStoreReader(path: store, model: model).forEachRecord { _ in } }
        do {
            try CoreDataStoreReader(path: store, model: model).forEachRecord { _ in }
        } catch {
            #expect("\(error)".contains("table ZNOTE, column ZPARENT, Z_PK 1"), "\(error)")
        }
    }
}
