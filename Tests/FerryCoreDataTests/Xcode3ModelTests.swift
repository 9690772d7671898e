@testable import FerryCoreData
import FerryModel
import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

/// Models saved by Xcode 3 (`elements` + `layout`, no `contents`): decoded, linted and hashed.
@Suite struct Xcode3ModelTests {
    static let corpus = TestPaths.corpus.appendingPathComponent("pre-xcode4-models")
    static let restKit = corpus.appendingPathComponent("08__RestKit__RestKit/Examples/RKTwitterCoreData")
    static let books = corpus.appendingPathComponent("15__gilpa__iphone_sqlite_test")

    /// Book ⇄ Shelf, as Xcode 3 would save it, with one setting no field takes.
    static func shelfArchive(typeOfPages: Int64 = 100, bookDestination: Bool = true, root: String? = nil) -> Data {
        var builder = Xcode3ArchiveBuilder()
        let book = builder.reserve(), shelf = builder.reserve()
        let bookShelf = builder.reserve(), shelfBooks = builder.reserve()
        builder.fillRelationship(bookShelf, "shelf", destination: bookDestination ? shelf : nil, inverse: shelfBooks, toMany: false, deleteRule: 1)
        builder.fillRelationship(shelfBooks, "books", destination: book, inverse: bookShelf, toMany: true, deleteRule: 2)
        let userInfo = builder.dictionary([("shelfmark", builder.string("A-1")),
                                           ("com.apple.syncservices.Syncable", builder.string("NO"))])
        builder.fillEntity(book, name: "Book", settings: [("XD_PSK_entityClassName", builder.string("LBBook")), ("XD_PSK_isAbstract", .bool(false)),
                                                          ("XD_PSK_userInfo", userInfo), ("XD_PSK_versionHashModifier", .uid(0))], properties: [
            ("title", builder.attribute("title", type: 700, optional: false, more: [("XD_PAttK_defaultValueAsString", builder.string("Untitled")),
                                                                                   ("XD_PAttK_minValueString", builder.string("1"))])),
            ("pages", builder.attribute("pages", type: typeOfPages, optional: true, more: [("XD_PAttK_someLaterKey", builder.string("kept"))])),
            ("read", builder.attribute("read", type: 800, optional: true)),
            ("added", builder.attribute("added", type: 900, optional: true)),
            ("shelf", bookShelf),
        ])
        builder.fillEntity(shelf, name: "Shelf", settings: [("XD_PSK_entityClassName", builder.string("NSManagedObject"))], properties: [
            ("name", builder.attribute("name", type: 700, optional: true)),
            ("books", shelfBooks),
        ])
        let model = root.map { builder.object($0, []) } ?? builder.model(entities: [("Shelf", shelf), ("Book", book)], versionIdentifier: "1.0")
        return builder.archive(root: model)
    }

    /// The same model as Xcode 4 would write it (`books` ordered, as `XD_PRK_ordered` says).
    static let shelfXML = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model userDefinedModelVersionIdentifier="1.0" type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Book" representedClassName="LBBook" syncable="YES">
                <attribute name="added" optional="YES" attributeType="Date"/>
                <attribute name="pages" optional="YES" attributeType="Integer 16"/>
                <attribute name="read" optional="YES" attributeType="Boolean"/>
                <attribute name="title" attributeType="String" minValueString="1" defaultValueString="Untitled"/>
                <relationship name="shelf" optional="YES" minCount="1" maxCount="1" deletionRule="Nullify" destinationEntity="Shelf" inverseName="books" inverseEntity="Shelf"/>
            </entity>
            <entity name="Shelf" representedClassName="NSManagedObject" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="books" optional="YES" toMany="YES" deletionRule="Cascade" ordered="YES" destinationEntity="Book" inverseName="shelf" inverseEntity="Book"/>
            </entity>
        </model>
        """

    @Test func decodedModelEqualsTheSameModelInXML() throws {
        let decoded = try Xcode3ModelArchive.decode(Self.shelfArchive(), file: "Shelf.xcdatamodel/elements", versionName: "Shelf")
        let xml = try ModelParser().parse(data: Data(Self.shelfXML.utf8), file: "contents")
        #expect(decoded.entities.map(\.name) == ["Book", "Shelf"])
        #expect(decoded.versionIdentifier == "1.0")
        #expect(EntityVersionHash.hashes(of: decoded) == EntityVersionHash.hashes(of: xml))
        for entity in xml.entities {
            let twin = try #require(decoded.entity(named: entity.name))
            #expect(twin.representedClassName == entity.representedClassName)
            for attribute in entity.attributes {
                let match = try #require(twin.attribute(named: attribute.name), "\(entity.name).\(attribute.name)")
                #expect(match.type == attribute.type && match.isOptional == attribute.isOptional
                        && match.defaultValue == attribute.defaultValue && match.minValue == attribute.minValue, "\(entity.name).\(attribute.name)")
            }
            for relationship in entity.relationships {
                let match = try #require(twin.relationship(named: relationship.name))
                #expect(match.destinationEntity == relationship.destinationEntity && match.inverseName == relationship.inverseName
                        && match.isToMany == relationship.isToMany && match.deletionRule == relationship.deletionRule
                        && match.minCount == relationship.minCount && match.maxCount == relationship.maxCount, "\(relationship.name)")
            }
        }
        let book = try #require(decoded.entity(named: "Book"))
        #expect(book.userInfo == ["shelfmark": "A-1", "com.apple.syncservices.Syncable": "NO"])
        #expect(decoded.entity(named: "Shelf")?.relationship(named: "books")?.isOrdered == true)
        // A setting no field takes is kept, named, not dropped.
        #expect(book.attribute(named: "pages")?.otherAttributes == ["xcode3:XD_PAttK_someLaterKey": "kept"])
        #expect(ModelLinter().lint(decoded).findings.filter { $0.severity == .error }.isEmpty)
    }

    @Test func aModelFolderAndABundleOfXcode3VersionsOpen() throws {
        let directory = TemporaryDirectory()
        let folder = try directory.write(Self.shelfArchive(), to: "Shelf.xcdatamodel/elements")
        try directory.write(Data("layout".utf8), to: "Shelf.xcdatamodel/layout")
        let single = try ModelBundle.opening(URL(fileURLWithPath: folder).deletingLastPathComponent().path)
        #expect(single.currentVersion.format == .xcode3Archive && single.currentVersion.displayPath.hasSuffix("Shelf.xcdatamodel/elements"))
        #expect(try single.currentModel().entities.count == 2)
        // Xcode 3 kept versions in a bundle too; Xcode 4 re-saves them one at a time, so both kinds mix.
        try directory.write(Self.shelfArchive(), to: "Library.xcdatamodeld/Library.xcdatamodel/elements")
        try directory.write(Self.shelfXML, to: "Library.xcdatamodeld/Library 2.xcdatamodel/contents")
        let bundle = try ModelBundle.opening(directory.url.appendingPathComponent("Library.xcdatamodeld").path)
        #expect(bundle.versions.map(\.format) == [.xcode3Archive, .xml])
        let hashes = try bundle.versions.map { EntityVersionHash.hashes(of: try bundle.load($0)) }
        #expect(hashes[0] == hashes[1])
        // Without FerryCoreData's decoder, FerryModel says what the file is.
        let plain = try ModelBundle(at: directory.url.appendingPathComponent("Library.xcdatamodeld").path)
        let error = try #require(throws: ModelError.self) { try plain.model(version: "Library") }
        #expect(error.kind == .preXcode4Model)
    }

    @Test func damagedArchivesAreRefusedByName() throws {
        func kind(_ data: Data) -> ModelError.Kind? {
            do {
                _ = try Xcode3ModelArchive.decode(data, file: "Shelf.xcdatamodel/elements", versionName: nil)
                return nil
            } catch { return error.kind }
        }
        #expect(kind(Data("not a plist".utf8)) == .badXcode3Archive("not a keyed archive: not a binary property list"))
        #expect(kind(Self.shelfArchive(root: "NSManagedObjectModel")) == .badXcode3Archive("the archive holds NSManagedObjectModel, not Xcode 3's XDPMModel"))
        let wrongType = try #require(throws: ModelError.self) {
            try Xcode3ModelArchive.decode(Self.shelfArchive(typeOfPages: 4242), file: "Shelf.xcdatamodel/elements", versionName: nil)
        }
        #expect(wrongType.description == #"Shelf.xcdatamodel/elements: entity "Book": attribute "pages": XD_PAttK_attributeType "4242" is not a known attribute type"#)
        let noDestination = try #require(throws: ModelError.self) {
            try Xcode3ModelArchive.decode(Self.shelfArchive(bookDestination: false), file: "Shelf.xcdatamodel/elements", versionName: nil)
        }
        #expect(noDestination.description == #"Shelf.xcdatamodel/elements: entity "Book": relationship "shelf": Xcode 3 model (elements file): no destination entity"#)
        let directory = TemporaryDirectory()
        try directory.write(Data("layout".utf8), to: "Lost.xcdatamodel/layout")
        let layoutOnly = try #require(throws: ModelError.self) { try ModelBundle.opening(directory.url.appendingPathComponent("Lost.xcdatamodel").path) }
        #expect(layoutOnly.kind == .xcode3LayoutOnly)
    }

    /// RestKit's example: the hashes computed from `elements` are the ones its store holds, and
    /// the store reads with the model.
    @Test(.needsCorpus) func restKitModelHashesEqualItsStore() throws {
        let modelPath = Self.restKit.appendingPathComponent("Resources/RKTwitterCoreData.xcdatamodel").path
        let model = try ModelBundle.opening(modelPath).currentModel()
        #expect(model.entities.map(\.name) == ["Tweet", "User"])
        let reader = try CoreDataStoreReader(path: Self.restKit.appendingPathComponent("RKSeedDatabase.sqlite").path)
        #expect(EntityVersionHash.hashes(of: model).mapValues { Data($0) } == reader.metadata.versionHashes)
        #expect(ModelLinter().lint(model).findings.filter { $0.severity == .error }.isEmpty)
        // Every setting of the real file is taken: none left over as `xcode3:`.
        var leftovers: [String: String] = [:]
        for entity in model.entities {
            for other in entity.attributes.map(\.otherAttributes) + entity.relationships.map(\.otherAttributes) + [entity.otherAttributes] {
                leftovers.merge(other) { first, _ in first }
            }
        }
        #expect(leftovers.isEmpty, "\(leftovers)")
        // An elements file named on its own is read too.
        let single = try ModelBundle.opening(modelPath + "/elements").currentModel()
        #expect(single.entities.count == 2)
        let withModel = try CoreDataStoreReader(path: Self.restKit.appendingPathComponent("RKSeedDatabase.sqlite").path, model: modelPath)
        #expect(withModel.entityCounts().map { "\($0.entity) \($0.rows)" } == ["Tweet 20", "User 2"])
        var users: Set<String> = []
        try withModel.forEachRecord(entity: "Tweet") { record in
            if let user = record.values["user"]?.string { users.insert(user) }
        }
        // Every tweet of the seed database is by one of its two users.
        #expect(users == ["User/p7"])
    }

    /// CoreDataBooks: the model gained `contents` after its store was made, and the store's
    /// `ZCONTENTS` column was added by hand (`ALTER TABLE … DEFAULT test`, not Core Data's SQL).
    /// The model's hash without `contents` is the store's own.
    @Test(.needsCorpus) func coreDataBooksHashEqualsItsStoreWithoutTheAttributeAddedByHand() throws {
        let model = try ModelBundle.opening(Self.books.appendingPathComponent("CoreDataBooks.xcdatamodel").path).currentModel()
        let reader = try CoreDataStoreReader(path: Self.books.appendingPathComponent("CoreDataBooks.sqlite").path)
        let stored = try #require(reader.metadata.versionHashes["Book"])
        #expect(EntityVersionHash.hashes(of: model)["Book"].map { Data($0) } != stored)
        var before = model
        let index = try #require(before.entities.firstIndex { $0.name == "Book" })
        #expect(before.entities[index].attributes.map(\.name) == ["author", "contents", "copyright", "title"])
        before.entities[index].attributes.removeAll { $0.name == "contents" }
        #expect(EntityVersionHash.hash(of: before.entities[index], in: before) == Array(stored))
        let book = try #require(model.entity(named: "Book"))
        #expect(book.attribute(named: "copyright")?.type == .date && book.attribute(named: "title")?.defaultValue == "Title")
        #expect(book.attribute(named: "title")?.isOptional == false && book.attribute(named: "contents")?.isOptional == true)
    }
}
