import FerryCoreData
import FerryFiles
import FerryModel
import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

/// A compiled model written back as an `.xcdatamodeld` reads as its source did, for what
/// compiling keeps, and hashes as Core Data's compiled hashes.
@Suite struct DecompileTests {
    static let plus = TestPaths.corpus.appendingPathComponent("coredata-sqlite/01__alemar11__CoreDataPlus/Tests/Resources")

    @Test(.needsCorpus, arguments: [("SampleModel/Fixtures/SampleModel.momd", "SampleModel/SampleModel.xcdatamodeld"),
                      ("SampleModel3/Fixtures/SampleModel3.momd", "SampleModel3/SampleModel3.xcdatamodeld")])
    func decompiledBundleReadsAsItsSource(momd: String, source: String) throws {
        let directory = TemporaryDirectory()
        let compiled = try ModelBundle.opening(Self.plus.appendingPathComponent(momd).path)
        let written = directory.url.appendingPathComponent("Decompiled.xcdatamodeld").path
        try ModelXMLWriter().writeBundle(try compiled.versions.map { (name: $0.name, model: try compiled.load($0)) },
                                         current: compiled.currentVersion.name, to: written)
        let decompiled = try ModelBundle(at: written)
        let original = try ModelBundle(at: Self.plus.appendingPathComponent(source).path)
        let hashes = try CompiledModel(at: Self.plus.appendingPathComponent(momd).path).versionHashes
        #expect(decompiled.versions.map(\.name) == original.versions.map(\.name))
        #expect(decompiled.currentVersion.name == original.currentVersion.name && decompiled.currentVersionSource == .declared)
        for version in original.versions {
            let back = try decompiled.model(version: version.name)
            let source = try original.model(version: version.name)
            #expect(EntityVersionHash.hashes(of: back).mapValues { Data($0) } == hashes[version.name], "\(version.name)")
            #expect(back.entities.map(\.name) == source.entities.map(\.name).sorted())
            for entity in source.entities {
                let entry = try #require(back.entity(named: entity.name))
                #expect(entry.parentName == entity.parentName && entry.isAbstract == entity.isAbstract)
                #expect(entry.uniquenessConstraints == entity.uniquenessConstraints, "\(entity.name)")
                #expect(entry.renamingIdentifier == entity.renamingIdentifier)
                for attribute in entity.attributes {
                    let match = try #require(entry.attribute(named: attribute.name), "\(entity.name).\(attribute.name)")
                    #expect(match.type == attribute.type && match.isOptional == attribute.isOptional && match.isTransient == attribute.isTransient
                            && match.defaultValue == attribute.defaultValue && match.valueTransformerName == attribute.valueTransformerName
                            && match.preservesValueInHistoryOnDeletion == attribute.preservesValueInHistoryOnDeletion,
                            "\(version.name) \(entity.name).\(attribute.name)")
                }
                for relationship in entity.relationships {
                    let match = try #require(entry.relationship(named: relationship.name))
                    #expect(match.destinationEntity == relationship.destinationEntity && match.inverseName == relationship.inverseName
                            && match.isToMany == relationship.isToMany && match.isOrdered == relationship.isOrdered
                            && match.isOptional == relationship.isOptional && match.deletionRule == relationship.deletionRule,
                            "\(version.name) \(entity.name).\(relationship.name)")
                }
            }
        }
        // Written once: the folder exists now, and is never overwritten.
        #expect(throws: OutputError.self) { try ModelXMLWriter().writeBundle([], current: nil, to: written) }
    }

    /// Text that needs escaping survives the round trip.
    @Test func escapedTextReadsBack() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Note"><attribute name="body" optional="YES" attributeType="String" defaultValueString="a &lt;b&gt; &amp; &quot;c&quot;&#10;d"/>
                <userInfo><entry key="k&amp;" value="v&lt;"/></userInfo></entity>
            </model>
            """
        let model = try ModelParser().parse(data: Data(xml.utf8), file: "contents")
        let back = try ModelParser().parse(data: Data(ModelXMLWriter().contents(model).utf8), file: "contents")
        #expect(back.entity(named: "Note")?.attribute(named: "body")?.defaultValue == "a <b> & \"c\"\nd")
        #expect(back.entity(named: "Note")?.userInfo == ["k&": "v<"])
        #expect(EntityVersionHash.hashes(of: back) == EntityVersionHash.hashes(of: model))
    }
}
