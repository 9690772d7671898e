import FerryJSON
import FerryCoreData
import FerryModel
import FerryTestSupport
import Foundation
import GRDB
import Testing

/// Relationship storage and external binary data, on stores laid out by the builder.
@Suite struct StoreLayoutTests {
    static let modelXML = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="24A335" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="lib-1">
            <entity name="Author" representedClassName="Author" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <attribute name="portrait" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
                <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="authors" inverseEntity="Book"/>
            </entity>
            <entity name="Book" representedClassName="Book" syncable="YES">
                <attribute name="title" optional="YES" attributeType="String"/>
                <attribute name="uuid" optional="YES" attributeType="UUID"/>
                <relationship name="authors" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Author" inverseName="books" inverseEntity="Author"/>
                <relationship name="chapters" optional="YES" toMany="YES" ordered="YES" deletionRule="Cascade" destinationEntity="Chapter" inverseName="book" inverseEntity="Chapter"/>
            </entity>
            <entity name="Chapter" representedClassName="Chapter" syncable="YES">
                <attribute name="heading" optional="YES" attributeType="String"/>
                <relationship name="book" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Book" inverseName="chapters" inverseEntity="Book"/>
            </entity>
        </model>
        """

    let directory = TemporaryDirectory()
    let storePath: String
    let modelPath: String

    init() throws {
        modelPath = try directory.write(Self.modelXML, to: "Library.xcdatamodel/contents")
        storePath = directory.url.appendingPathComponent("Library.sqlite").path
        let model = try ModelParser().parse(contentsOf: modelPath)
        let builder = try CoreDataStoreBuilder(path: storePath, model: model, identifiers: ["lib-1"])
        let portrait = Data((0..<300).map { UInt8($0 % 251) })
        try directory.write(portrait, to: ".Library_SUPPORT/_EXTERNAL_DATA/5C1B0000-0000-4000-8000-00000000ABCD")
        let austen = try builder.insert("Author", ["name": "Austen", "portrait": Data([0x02]) + Data("5C1B0000-0000-4000-8000-00000000ABCD".utf8) + Data([0])])
        let bronte = try builder.insert("Author", ["name": "Brontë", "portrait": Data([0x01, 0xCA, 0xFE])])
        let missing = try builder.insert("Author", ["name": "Lost", "portrait": Data([0x02]) + Data("NOT-THERE".utf8) + Data([0])])
        _ = missing
        let book = try builder.insert("Book", ["title": "Letters", "uuid": CoreDataStoreBuilder.uuid("E0E0E0E0-1111-4222-8333-444444444444")])
        try builder.link("Book", book, "authors", to: [bronte, austen])
        for (position, heading) in ["Three", "One", "Two"].enumerated() {
            let chapter = try builder.insert("Chapter", ["heading": heading, "book": book])
            try builder.setOrder("Chapter", primaryKey: chapter, inverse: "book", position: [3, 1, 2][position])
        }
        try builder.finish()
    }

    private func records(_ entity: String) throws -> [CoreDataRecord] {
        var result: [CoreDataRecord] = []
        let reader = try CoreDataStoreReader(path: storePath, model: modelPath)
        // The builder writes the model's own entity version hashes, as Core Data does.
        #expect(reader.versionMatch?.method == .computedVersionHashes)
        try reader.forEachRecord(entity: entity) { result.append($0) }
        return result
    }

    @Test func manyToManyIsReadThroughTheJoinTableFromBothSides() throws {
        let book = try #require(try records("Book").first)
        #expect(Set(book.values["authors"]?.array ?? []) == ["Author/p1", "Author/p2"])
        let authors = try records("Author")
        #expect(authors[0].values["books"] == ["E0E0E0E0-1111-4222-8333-444444444444"])
    }

    @Test func orderedToManyFollowsTheOrderKey() throws {
        let book = try #require(try records("Book").first)
        #expect(book.values["chapters"] == ["Chapter/p2", "Chapter/p3", "Chapter/p1"])
    }

    @Test func externalBinaryDataIsReadFromTheSupportFolder() throws {
        let authors = try records("Author")
        let portrait = Data((0..<300).map { UInt8($0 % 251) })
        #expect(authors[0].values["portrait"] == .string(portrait.base64EncodedString()))
        #expect(authors[1].values["portrait"] == .string(Data([0xCA, 0xFE]).base64EncodedString()))
    }

    @Test func missingExternalFileIsReportedAndTheReferenceKept() throws {
        let reader = try CoreDataStoreReader(path: storePath, model: modelPath)
        var lost: CoreDataRecord?
        let warnings = try reader.forEachRecord(entity: "Author") { if $0.values["name"] == "Lost" { lost = $0 } }
        #expect(lost?.values["portrait"]?["externalData"] == "NOT-THERE")
        #expect(warnings.keys.contains { $0.hasPrefix("Author.portrait: external data NOT-THERE: no file") })
    }

    @Test func inferredSchemaFindsTheJoinTable() throws {
        let reader = try CoreDataStoreReader(path: storePath)
        #expect(reader.schemaSource == .inferred)
        var book: CoreDataRecord?
        try reader.forEachRecord(entity: "Book") { book = $0 }
        #expect(Set(book?.values["authors"]?.array ?? []) == ["Author/p1", "Author/p2"])
        // A blob column holding only 16-byte values is read as UUIDs, so the id is found too.
        #expect(book?.id == "E0E0E0E0-1111-4222-8333-444444444444")
    }
}
