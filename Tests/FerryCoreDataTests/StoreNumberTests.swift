import FerryJSON
import FerryCoreData
import FerryModel
import FerryTestSupport
import Foundation
import Testing

/// SQLite keeps whatever a column is given: an integer attribute's column may hold a real
/// number (written by other tools, or damaged). It is read as stored, never trapped on.
@Suite struct StoreNumberTests {
    @Test func realNumbersInIntegerColumnsAreReadAsStored() throws {
        let directory = TemporaryDirectory()
        let modelPath = try directory.write("""
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="n-1">
                <entity name="Reading" representedClassName="Reading" syncable="YES">
                    <attribute name="small" optional="YES" attributeType="Integer 16" defaultValueString="0" usesScalarValueType="YES"/>
                    <attribute name="medium" optional="YES" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
                    <attribute name="large" optional="YES" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
                </entity>
            </model>
            """, to: "Numbers.xcdatamodel/contents")
        let storePath = directory.url.appendingPathComponent("Numbers.sqlite").path
        let builder = try CoreDataStoreBuilder(path: storePath, model: try ModelParser().parse(contentsOf: modelPath), identifiers: ["n-1"])
        _ = try builder.insert("Reading", ["small": 1e30, "medium": 2.5, "large": 7.0])
        _ = try builder.insert("Reading", ["small": -4.0, "medium": -1e300, "large": 9.5e18])
        try builder.finish()

        var values: [[String: JSONValue]] = []
        try CoreDataStoreReader(path: storePath, model: modelPath).forEachRecord(entity: "Reading") { record in
            values.append(Dictionary(uniqueKeysWithValues: ["small", "medium", "large"].map { ($0, record.values[$0] ?? .null) }))
        }
        #expect(values.count == 2)
        #expect(values[0]["small"] == .double(1e30), "past Int64: kept as a real number")
        #expect(values[0]["medium"] == .double(2.5), "a fraction is not cut off")
        #expect(values[0]["large"] == .integer(7))
        #expect(values[1]["small"] == .integer(-4))
        #expect(values[1]["medium"] == .double(-1e300))
        #expect(values[1]["large"] == .double(9.5e18))
    }
}
