import FerryModel
import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

/// One crafted model per rule: the rule must fire at the named location.
struct LintCase: Sendable, CustomTestStringConvertible {
    var rule: LintRule
    var location: String
    var body: String
    var modelAttributes = ""
    var testDescription: String { rule.rawValue }
}

let lintCases: [LintCase] = [
    LintCase(rule: .cloudKitUniquenessConstraint, location: "Note", body: """
        <entity name="Note"><attribute name="id" optional="YES" attributeType="UUID"/>
        <uniquenessConstraints><uniquenessConstraint><constraint value="id"/></uniquenessConstraint></uniquenessConstraints></entity>
        """, modelAttributes: #"usedWithCloudKit="YES""#),
    LintCase(rule: .cloudKitUnsupportedAttributeType, location: "Note.handle", body: """
        <entity name="Note"><attribute name="handle" optional="YES" attributeType="ObjectID"/></entity>
        """, modelAttributes: #"usedWithCloudKit="YES""#),
    LintCase(rule: .cloudKitRequiredAttribute, location: "Note.title", body: """
        <entity name="Note"><attribute name="title" attributeType="String"/></entity>
        """, modelAttributes: #"usedWithCloudKit="YES""#),
    LintCase(rule: .cloudKitRequiredRelationship, location: "Note.folder", body: """
        <entity name="Note"><relationship name="folder" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="notes" inverseEntity="Folder"/></entity>
        <entity name="Folder"><relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note" inverseName="folder" inverseEntity="Note"/></entity>
        """, modelAttributes: #"usedWithCloudKit="YES""#),
    LintCase(rule: .cloudKitMissingInverse, location: "Note.folder", body: """
        <entity name="Note"><relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder"/></entity>
        <entity name="Folder"/>
        """, modelAttributes: #"usedWithCloudKit="YES""#),
    LintCase(rule: .cloudKitDenyDeleteRule, location: "Folder.notes", body: """
        <entity name="Note"><relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="notes" inverseEntity="Folder"/></entity>
        <entity name="Folder"><relationship name="notes" optional="YES" toMany="YES" deletionRule="Deny" destinationEntity="Note" inverseName="folder" inverseEntity="Note"/></entity>
        """, modelAttributes: #"usedWithCloudKit="YES""#),
    LintCase(rule: .cloudKitOrderedRelationship, location: "Folder.notes", body: """
        <entity name="Note"><relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="notes" inverseEntity="Folder"/></entity>
        <entity name="Folder"><relationship name="notes" optional="YES" toMany="YES" ordered="YES" deletionRule="Cascade" destinationEntity="Note" inverseName="folder" inverseEntity="Note"/></entity>
        """, modelAttributes: #"usedWithCloudKit="YES""#),
    LintCase(rule: .cloudKitCrossConfigurationRelationship, location: "Note.author", body: """
        <entity name="Note"><relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="notes" inverseEntity="Person"/></entity>
        <entity name="Person"><relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note" inverseName="author" inverseEntity="Note"/></entity>
        <configuration name="Cloud" usedWithCloudKit="YES"><memberEntity name="Note"/></configuration>
        <configuration name="Local"><memberEntity name="Person"/></configuration>
        """),
    LintCase(rule: .transformableCollection, location: "ProjectLog.glass_items_data", body: """
        <entity name="ProjectLog"><attribute name="glass_items_data" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromDataTransformer"/></entity>
        """),
    LintCase(rule: .transformableInsecureTransformer, location: "ProjectLog.settings", body: """
        <entity name="ProjectLog"><attribute name="settings" optional="YES" attributeType="Transformable" valueTransformerName=""/></entity>
        """),
    LintCase(rule: .transformableSwiftClassName, location: "Recipe.steps", body: """
        <entity name="Recipe"><attribute name="steps" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromDataTransformer" customClassName="[String]"/></entity>
        """),
    LintCase(rule: .relationshipMissingInverse, location: "Note.folder", body: """
        <entity name="Note"><relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder"/></entity>
        <entity name="Folder"/>
        """),
    LintCase(rule: .relationshipInverseMismatch, location: "Image.artist", body: """
        <entity name="Artist"><relationship name="thumbnail" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Image" inverseName="thumbnail" inverseEntity="Image"/></entity>
        <entity name="Image">
        <relationship name="artist" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Artist" inverseName="thumbnail" inverseEntity="Artist"/>
        <relationship name="thumbnail" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Artist" inverseName="thumbnail" inverseEntity="Artist"/>
        </entity>
        """),
    LintCase(rule: .relationshipMissingDestination, location: "Note.folder", body: """
        <entity name="Note"><relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder"/></entity>
        """),
    LintCase(rule: .duplicateName, location: "Note.title", body: """
        <entity name="Note"><attribute name="title" optional="YES" attributeType="String"/>
        <attribute name="title" optional="YES" attributeType="Integer 16"/></entity>
        """),
    LintCase(rule: .undefinedAttributeNotTransient, location: "Note.cache", body: """
        <entity name="Note"><attribute name="cache" optional="YES"/></entity>
        """),
    LintCase(rule: .indexMissingProperty, location: "Note", body: """
        <entity name="Note"><attribute name="title" optional="YES" attributeType="String"/>
        <fetchIndex name="byDate"><fetchIndexElement property="date" type="Binary" order="ascending"/></fetchIndex></entity>
        """),
    LintCase(rule: .uniquenessMissingProperty, location: "Note", body: """
        <entity name="Note"><attribute name="title" optional="YES" attributeType="String"/>
        <uniquenessConstraints><uniquenessConstraint><constraint value="slug"/></uniquenessConstraint></uniquenessConstraints></entity>
        """),
    LintCase(rule: .missingParentEntity, location: "Note", body: """
        <entity name="Note" parentEntity="Document"/>
        """),
    LintCase(rule: .inheritanceCycle, location: "Note", body: """
        <entity name="Note" parentEntity="Page"/><entity name="Page" parentEntity="Note"/>
        """),
    LintCase(rule: .missingComposite, location: "Place.position", body: """
        <entity name="Place"><attribute name="position" optional="YES" attributeType="Composite" composite="Coordinate"/></entity>
        """),
    LintCase(rule: .missingEntityReference, location: "fetch request Recent", body: """
        <entity name="Note"/><fetchRequest name="Recent" entity="Memo"/>
        """),
    LintCase(rule: .invalidDefaultValue, location: "Note.count", body: """
        <entity name="Note"><attribute name="count" optional="YES" attributeType="Integer 16" defaultValueString="NO"/></entity>
        """),
]

@Suite struct ModelLinterTests {
    @Test(arguments: lintCases)
    func craftedModelTriggersItsRule(_ lintCase: LintCase) throws {
        let report = ModelLinter().lint(try model(lintCase.body, modelAttributes: lintCase.modelAttributes))
        let hits = report.findings.filter { $0.rule == lintCase.rule }
        #expect(hits.map(\.location).contains(lintCase.location), "findings: \(report.findings.map { "\($0.rule.rawValue) \($0.location)" })")
        #expect(hits.allSatisfy { $0.severity == lintCase.rule.severity && !$0.hint.isEmpty && $0.line != nil })
        #expect(report.hasErrors == report.findings.contains { $0.severity == .error })
    }

    @Test func everyRuleHasACraftedCase() {
        #expect(Set(lintCases.map(\.rule)) == Set(LintRule.allCases))
    }

    @Test func cleanModelHasNoFindings() throws {
        let report = ModelLinter(forceCloudKit: true).lint(try model("""
            <entity name="Note"><attribute name="title" optional="YES" attributeType="String"/>
            <attribute name="count" attributeType="Integer 32" defaultValueString="0"/>
            <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="notes" inverseEntity="Folder"/></entity>
            <entity name="Folder"><relationship name="notes" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Note" inverseName="folder" inverseEntity="Note"/></entity>
            """))
        #expect(report.findings.isEmpty)
        #expect(report.cloudKit.applies && report.cloudKit.reason == "requested with --cloudkit")
    }

    @Test func cloudKitRulesApplyOnlyWhenDeclaredOrRequested() throws {
        let body = #"<entity name="Note"><attribute name="title" attributeType="String"/></entity>"#
        #expect(ModelLinter().lint(try model(body)).findings.isEmpty)
        #expect(!ModelLinter().lint(try model(body)).cloudKit.applies)
        let forced = ModelLinter(forceCloudKit: true).lint(try model(body))
        #expect(forced.findings.map(\.rule) == [.cloudKitRequiredAttribute])
    }

    @Test func cloudKitConfigurationScopesTheRulesToItsEntitiesAndTheirHierarchy() throws {
        let parsed = try model("""
            <entity name="Base"><attribute name="a" attributeType="String"/></entity>
            <entity name="Synced" parentEntity="Base"><attribute name="b" attributeType="String"/></entity>
            <entity name="Local"><attribute name="c" attributeType="String"/></entity>
            <configuration name="Cloud" usedWithCloudKit="YES"><memberEntity name="Synced"/></configuration>
            """)
        let report = ModelLinter().lint(parsed)
        #expect(report.cloudKit.entities == ["Base", "Synced"])
        #expect(report.findings.map(\.location).sorted() == ["Base.a", "Synced.b"])
    }

    @Test func transientUndefinedAttributesAreFine() throws {
        let report = ModelLinter(forceCloudKit: true).lint(try model(#"<entity name="N"><attribute name="cache" optional="YES" transient="YES"/></entity>"#))
        #expect(report.findings.isEmpty)
    }

    @Test(arguments: [
        ("tags", nil, true), ("techniques_used", nil, true), ("reference_urls_data", nil, true),
        ("glassItemsData", nil, true), ("recurrenceData", nil, false), ("status", nil, false), ("address", nil, false),
        ("settings", "NSDictionary", true), ("payload", "NSArray", true), ("color", "UIColor", false),
        ("names", "UIColor", false), ("colorList", nil, true),
    ] as [(String, String?, Bool)])
    func collectionHeuristic(name: String, className: String?, isCollection: Bool) throws {
        let classAttribute = className.map { #" customClassName="\#($0)""# } ?? ""
        let report = ModelLinter().lint(try model("""
            <entity name="E"><attribute name="\(name)" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromDataTransformer"\(classAttribute)/></entity>
            """))
        #expect(report.findings.contains { $0.rule == .transformableCollection } == isCollection)
    }

    @Test(.needsCorpus) func glassArtModelFiveIsFlaggedAndModelNineIsClean() throws {
        let five = ModelLinter().lint(try ModelParser().parse(contentsOf: TestPaths.corpus.appendingPathComponent("seedapps/molten/Molten5__contents.xml").path))
        let collections = five.findings.filter { $0.rule == .transformableCollection }.map(\.location)
        #expect(Set(collections) == ["ProjectLog.glass_items_data", "ProjectLog.tags", "ProjectLog.techniques_used",
                                     "ProjectPlan.glass_items_data", "ProjectPlan.reference_urls_data", "ProjectPlan.tags",
                                     "ProjectStep.glass_items_needed_data"])
        let nine = ModelLinter().lint(try ModelParser().parse(contentsOf: TestPaths.corpus.appendingPathComponent("seedapps/molten/Molten9__contents.xml").path))
        #expect(nine.cloudKit.applies && !nine.hasErrors)
    }

    @Test(.needsCorpus, arguments: Corpus.modelsFolderContents)
    func corpusModelsDeclaringCloudKitHaveNoCloudKitErrors(path: String) throws {
        let report = ModelLinter().lint(try ModelParser().parse(contentsOf: path))
        let cloudKitErrors = report.findings.filter { $0.rule.isCloudKitRule && $0.severity == .error }
        #expect(cloudKitErrors.isEmpty, "\(cloudKitErrors.map { "\($0.location): \($0.message)" })")
    }

    @Test(.needsCorpus) func corpusHasModelsThatDeclareCloudKit() throws {
        let declaring = try Corpus.modelsFolderContents.filter { try ModelLinter().lint(ModelParser().parse(contentsOf: $0)).cloudKit.applies }
        #expect(declaring.count >= 6)
    }
}
