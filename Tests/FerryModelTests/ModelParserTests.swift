import FerryModel
import FerryTestSupport
import FerryJSON
import Foundation
import Testing

@Suite struct ModelParserTests {
    let everything: DataModel

    init() throws {
        everything = try ModelBundle(at: fixture("Everything.xcdatamodel")).currentModel()
    }

    private func entity(_ name: String) throws -> EntityDescription {
        try #require(everything.entity(named: name))
    }

    @Test func modelAttributesAreKeptVerbatim() {
        #expect(everything.versionIdentifier == "garden-7")
        #expect(everything.attributes["lastSavedToolsVersion"] == "23231")
        #expect(everything.attributes["futureModelFlag"] == "on")
        #expect(!everything.usedWithCloudKit)
        #expect(everything.entities.map(\.name) == ["Bed", "Garden", "LivingThing", "Plant", "Tree"])
    }

    @Test func entitySettingsAreRead() throws {
        let bed = try entity("Bed")
        #expect(bed.representedClassName == "GardenBed")
        #expect(bed.renamingIdentifier == "Plot")
        #expect(bed.versionHashModifier == "beds-v2")
        #expect(bed.codeGenerationType == "category")
        #expect(bed.isSyncable == true)
        #expect(bed.userInfo == ["owner": "garden-team"])
        #expect(bed.uniquenessConstraints == [["uuid"], ["code", "garden"]])
        #expect(bed.fetchIndexes.map(\.name) == ["byCode"])
        #expect(bed.fetchIndexes[0].elements.map(\.order) == ["ascending", "descending"])
        #expect(bed.fetchIndexes[0].propertyNames == ["code", "createdAt"])
        #expect(try entity("Garden").compoundIndexes == [["name", "website"]])
        #expect(try entity("LivingThing").isAbstract)
    }

    @Test func everyAttributeSettingIsRead() throws {
        let bed = try entity("Bed")
        let area = try #require(bed.attribute(named: "area"))
        #expect(area.type == .decimal && area.isOptional && area.defaultValue == "1.5")
        #expect(area.minValue == "0" && area.maxValue == "500")
        let code = try #require(bed.attribute(named: "code"))
        #expect(!code.isOptional && code.regularExpression == "[A-Z][0-9]+" && code.isIndexedBySpotlight)
        #expect(code.renamingIdentifier == "shortCode" && code.versionHashModifier == "code-2")
        let createdAt = try #require(bed.attribute(named: "createdAt"))
        #expect(createdAt.defaultDateTimeInterval == "0" && createdAt.minDateTimeInterval == "-978307200")
        #expect(createdAt.hasDefault)
        let location = try #require(bed.attribute(named: "location"))
        #expect(location.type == .composite && location.compositeName == "Coordinate")
        let photo = try #require(bed.attribute(named: "photo"))
        #expect(photo.allowsExternalBinaryDataStorage && photo.allowsCloudEncryption)
        let count = try #require(bed.attribute(named: "plantCount"))
        #expect(count.isDerived && count.derivationExpression == "plants.@count" && count.usesScalarValueType == true)
        let soil = try #require(bed.attribute(named: "soil"))
        #expect(soil.valueTransformerName == "NSSecureUnarchiveFromDataTransformer" && soil.customClassName == "NSDictionary")
        #expect(soil.preservesValueInHistoryOnDeletion && soil.isStoredInExternalRecord)
        let uuid = try #require(bed.attribute(named: "uuid"))
        #expect(uuid.isIndexed && uuid.userInfo == ["sync.key": "uuid"] && uuid.line == 12)
    }

    @Test func attributeWithoutTypeIsUndefined() throws {
        let label = try #require(try entity("Bed").attribute(named: "cachedLabel"))
        #expect(label.type == .undefined)
        #expect(label.isTransient && label.isOptional)
    }

    @Test func relationshipSettingsAreRead() throws {
        let plants = try #require(try entity("Bed").relationship(named: "plants"))
        #expect(plants.destinationEntity == "Plant" && plants.inverseName == "bed" && plants.inverseEntity == "Plant")
        #expect(plants.isToMany && plants.isOrdered && plants.isOptional)
        #expect(plants.minCount == 1 && plants.maxCount == 40 && plants.deletionRule == .cascade)
        #expect(plants.renamingIdentifier == "crops")
        #expect(try entity("Garden").relationship(named: "beds")?.deletionRule == .deny)
        let bed = try #require(try entity("LivingThing").relationship(named: "bed"))
        #expect(!bed.isToMany && bed.maxCount == 1 && bed.deletionRule == .noAction)
    }

    @Test func fetchedPropertiesAndRequestsAreRead() throws {
        let tall = try #require(try entity("Bed").fetchedProperties.first)
        #expect(tall.name == "tallPlants" && tall.isOptional && tall.userInfo == ["purpose": "report"])
        #expect(tall.fetchRequest?.entity == "Plant")
        #expect(tall.fetchRequest?.predicate == "height > 100 AND bed == $FETCH_SOURCE")
        let request = try #require(everything.fetchRequests.first)
        #expect(request.name == "TallTrees" && request.entity == "Tree" && request.predicate == "height > $MIN")
        #expect(request.settings == ["fetchLimit": "20", "includeSubentities": "YES", "resultType": "2"])
    }

    @Test func configurationsCompositesAndLayoutAreRead() {
        #expect(everything.configurations.map(\.name) == ["Cloud", "Local"])
        #expect(everything.configurations[0].usedWithCloudKit && !everything.configurations[1].usedWithCloudKit)
        #expect(everything.configurations[0].memberEntities == ["Garden", "Bed"])
        #expect(everything.composites.map(\.name) == ["Coordinate"])
        #expect(everything.composites[0].attributes.map(\.name) == ["latitude", "longitude"])
        #expect(everything.layout.map(\.name) == ["Bed", "Garden"])
        #expect(everything.layout[1].positionX == 160.5)
    }

    @Test func unknownElementsAndAttributesAreKept() throws {
        let garden = try entity("Garden")
        #expect(garden.unknownElements.map(\.name) == ["futureElement"])
        #expect(garden.unknownElements[0].attributes == ["mode": "test"])
        #expect(garden.unknownElements[0].children.map(\.attributes) == [["value": "kept"]])
        let parsed = try model(#"<entity name="A" futureFlag="x"><attribute name="a" attributeType="String" newSetting="y"/></entity>"#)
        #expect(parsed.entities[0].otherAttributes == ["futureFlag": "x"])
        #expect(parsed.entities[0].attributes[0].otherAttributes == ["newSetting": "y"])
    }

    @Test func inheritanceIsResolved() throws {
        let tree = try entity("Tree")
        #expect(tree.superentityNames == ["Plant", "LivingThing"])
        #expect(tree.rootEntityName == "LivingThing")
        #expect(tree.inheritedAttributeNames == ["height", "species", "plantedOn", "sprouts"])
        #expect(tree.inheritedRelationshipNames == ["bed"])
        #expect(everything.allAttributes(of: tree).map(\.name) == ["height", "species", "plantedOn", "sprouts", "rings"])
        #expect(try entity("LivingThing").subentityNames == ["Plant"])
        #expect(everything.hierarchy(below: try entity("LivingThing")).map(\.name) == ["LivingThing", "Plant", "Tree"])
        #expect(everything.declaringEntity(of: "species", below: tree) == "LivingThing")
    }

    @Test func inheritanceCycleDoesNotHang() throws {
        let looped = try model("""
            <entity name="A" parentEntity="B"/>
            <entity name="B" parentEntity="A"/>
            """)
        #expect(looped.entity(named: "A")?.superentityNames == ["B"])
        #expect(looped.entity(named: "B")?.superentityNames == ["A"])
    }

    @Test func booleanFlagsAcceptTheSpellingsSeenInTheWild() throws {
        let parsed = try model(#"<entity name="A"/>"#, modelAttributes: #"usedWithCloudKit="false""#)
        #expect(!parsed.usedWithCloudKit)
        let yes = try model(#"<entity name="A"/>"#, modelAttributes: #"usedWithCloudKit="YES""#)
        #expect(yes.usedWithCloudKit)
    }

    @Test func jsonDocumentMatchesGoldenFile() throws {
        let bundle = try ModelBundle(at: fixture("Everything.xcdatamodel"))
        let document = ModelDocument(bundle: bundle, model: everything, version: bundle.currentVersion)
        let json = try JSONOutput.string(document).replacingOccurrences(of: fixtures.path + "/", with: "")
        try Golden.check(json, against: TestPaths.packageRoot.appendingPathComponent("Tests/FerryModelTests/Expected/Everything.json"))
    }
}
