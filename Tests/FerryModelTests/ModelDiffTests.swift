import FerryModel
import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

/// A crafted pair of versions and the verdict Core Data's migration rules give it.
struct DiffCase: Sendable, CustomTestStringConvertible {
    var name: String
    var old: String
    var new: String
    var verdict: MigrationVerdict
    var testDescription: String { name }
}

private let note = #"<attribute name="title" optional="YES" attributeType="String"/>"#

private func entity(_ parts: String..., extra: String = "", named name: String = "Note") -> String {
    #"<entity name="\#(name)"\#(extra)>"# + parts.joined() + "</entity>"
}

let diffCases: [DiffCase] = [
    DiffCase(name: "identical", old: entity(note), new: entity(note), verdict: .identical),
    DiffCase(name: "add optional attribute", old: entity(note),
             new: entity(note, #"<attribute name="body" optional="YES" attributeType="String"/>"#), verdict: .lightweight),
    DiffCase(name: "add required attribute with default", old: entity(note),
             new: entity(note, #"<attribute name="pinned" attributeType="Boolean" defaultValueString="NO"/>"#), verdict: .lightweight),
    DiffCase(name: "add required attribute without default", old: entity(note),
             new: entity(note, #"<attribute name="createdAt" attributeType="Date"/>"#), verdict: .mappingModel),
    DiffCase(name: "remove attribute", old: entity(note, #"<attribute name="body" optional="YES" attributeType="String"/>"#),
             new: entity(note), verdict: .lightweight),
    DiffCase(name: "make optional", old: entity(#"<attribute name="title" attributeType="String"/>"#),
             new: entity(note), verdict: .lightweight),
    DiffCase(name: "make required with default", old: entity(note),
             new: entity(#"<attribute name="title" attributeType="String" defaultValueString="Untitled"/>"#), verdict: .lightweight),
    DiffCase(name: "make required without default", old: entity(note),
             new: entity(#"<attribute name="title" attributeType="String"/>"#), verdict: .mappingModel),
    DiffCase(name: "rename with renaming identifier", old: entity(note),
             new: entity(#"<attribute name="heading" optional="YES" attributeType="String" elementID="title"/>"#), verdict: .lightweight),
    DiffCase(name: "rename without renaming identifier", old: entity(note),
             new: entity(#"<attribute name="heading" optional="YES" attributeType="String"/>"#), verdict: .mappingModel),
    DiffCase(name: "change attribute type", old: entity(note),
             new: entity(#"<attribute name="title" optional="YES" attributeType="Integer 32"/>"#), verdict: .mappingModel),
    DiffCase(name: "change default value only", old: entity(#"<attribute name="n" attributeType="Integer 16" defaultValueString="0"/>"#),
             new: entity(#"<attribute name="n" attributeType="Integer 16" defaultValueString="5"/>"#), verdict: .noStoreEffect),
    DiffCase(name: "change class name only", old: entity(note), new: entity(note, extra: #" representedClassName="NoteMO""#),
             verdict: .noStoreEffect),
    DiffCase(name: "add optional relationship",
             old: entity(note) + entity(named: "Folder"),
             new: entity(note, #"<relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="notes" inverseEntity="Folder"/>"#)
                + entity(#"<relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note" inverseName="folder" inverseEntity="Note"/>"#, named: "Folder"),
             verdict: .lightweight),
    DiffCase(name: "add required to-one relationship",
             old: entity(note) + entity(named: "Folder"),
             new: entity(note, #"<relationship name="folder" maxCount="1" deletionRule="Nullify" destinationEntity="Folder"/>"#) + entity(named: "Folder"),
             verdict: .mappingModel),
    DiffCase(name: "required to-one relationship replaces an attribute",
             old: entity(note, #"<attribute name="color" optional="YES" attributeType="String"/>"#) + entity(named: "Color"),
             new: entity(note, #"<relationship name="color" maxCount="1" deletionRule="Nullify" destinationEntity="Color"/>"#) + entity(named: "Color"),
             verdict: .mappingModel),
    DiffCase(name: "optional to-one relationship replaces an attribute",
             old: entity(note, #"<attribute name="color" optional="YES" attributeType="String"/>"#) + entity(named: "Color"),
             new: entity(note, #"<relationship name="color" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Color"/>"#) + entity(named: "Color"),
             verdict: .lightweight),
    DiffCase(name: "to-one becomes to-many",
             old: entity(note, #"<relationship name="tag" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Tag"/>"#) + entity(named: "Tag"),
             new: entity(note, #"<relationship name="tag" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag"/>"#) + entity(named: "Tag"),
             verdict: .lightweight),
    DiffCase(name: "relationship retargeted",
             old: entity(note, #"<relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person"/>"#) + entity(named: "Person") + entity(named: "Team"),
             new: entity(note, #"<relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Team"/>"#) + entity(named: "Person") + entity(named: "Team"),
             verdict: .mappingModel),
    DiffCase(name: "add entity", old: entity(note), new: entity(note) + entity(note, named: "Folder"), verdict: .lightweight),
    DiffCase(name: "remove entity", old: entity(note) + entity(note, named: "Folder"), new: entity(note), verdict: .lightweight),
    DiffCase(name: "rename entity with renaming identifier", old: entity(note),
             new: entity(note, extra: #" elementID="Note""#, named: "Memo"), verdict: .lightweight),
    DiffCase(name: "rename entity without renaming identifier", old: entity(note), new: entity(note, named: "Memo"), verdict: .mappingModel),
    DiffCase(name: "move attribute up to a new parent",
             old: entity(note, named: "Note"),
             new: entity(note, named: "Document") + entity(extra: #" parentEntity="Document""#, named: "Note"), verdict: .lightweight),
    DiffCase(name: "merge two hierarchies",
             old: entity(note, named: "Note") + entity(#"<attribute name="data" optional="YES" attributeType="Binary"/>"#, named: "Photo"),
             new: entity(note, named: "Note") + entity(#"<attribute name="data" optional="YES" attributeType="Binary"/>"#, extra: #" parentEntity="Note""#, named: "Photo"),
             verdict: .mappingModel),
    DiffCase(name: "add fetch index", old: entity(note),
             new: entity(note, #"<fetchIndex name="byTitle"><fetchIndexElement property="title" type="Binary" order="ascending"/></fetchIndex>"#),
             verdict: .lightweight),
]

@Suite struct ModelDiffTests {
    @Test(arguments: diffCases)
    func craftedPairGetsItsVerdict(_ diffCase: DiffCase) throws {
        let comparison = ModelDiff().compare(try model(diffCase.old), try model(diffCase.new))
        #expect(comparison.verdict == diffCase.verdict, "\(comparison.changes.map { "\($0.location): \($0.detail) [\($0.impact.rawValue)]" })")
    }

    /// Beside the verdict, what Core Data itself decides: a default value or an index keeps every
    /// entity's version hash (no migration), a hash modifier or a new attribute changes it.
    @Test func versionHashesSayWhetherCoreDataMigrates() throws {
        let plain = try model(entity(note))
        let withDefault = try model(entity(#"<attribute name="title" optional="YES" attributeType="String" defaultValueString="x" indexed="YES"/>"#))
        let same = ModelDiff().compare(plain, withDefault)
        #expect(same.sameVersionHashes && same.versionHashChanged.isEmpty)
        let modified = ModelDiff().compare(plain, try model(entity(#"<attribute name="title" optional="YES" attributeType="String" versionHashModifier="2"/>"#)))
        #expect(!modified.sameVersionHashes && modified.versionHashChanged == ["Note"])
        let added = ModelDiff().compare(plain, try model(entity(note) + entity(note, named: "Tag")))
        #expect(!added.sameVersionHashes && added.versionHashChanged.isEmpty)
        let text = DiffTextRenderer().render([same, modified])
        #expect(text.contains("version hashes: all the same (Core Data opens the old store without migrating)"))
        #expect(text.contains("version hashes: changed for Note (Core Data migrates the old store)"))
    }

    /// Core Data's inferred mapping inserts each migrated object as new, so an added attribute
    /// with a default takes it in old rows, optional or not; without one, an optional gets nil.
    @Test func addedAttributeSaysWhatOldRowsGet() throws {
        let comparison = ModelDiff().compare(try model(entity(note)), try model(entity(note,
            #"<attribute name="hide" optional="YES" attributeType="Boolean" defaultValueString="NO" usesScalarValueType="YES"/>"#,
            #"<attribute name="body" optional="YES" attributeType="String"/>"#)))
        let reasons = Dictionary(uniqueKeysWithValues: comparison.changes.map { ($0.property ?? "", $0.reason) })
        #expect(reasons["hide"] == "existing rows get the default value, NO")
        #expect(reasons["body"] == "optional without a default: existing rows get nil")
    }

    /// Versions between the two compared are steps: an app migrating step by step meets each, so
    /// the verdict is the hardest of them and of the direct comparison, which is kept beside it.
    @Test func versionsBetweenAreComposedAsSteps() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-steps-\(UUID().uuidString)/Notes.xcdatamodeld")
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let bodies = ["Notes": entity(note),
                      "Notes 2": entity(#"<attribute name="heading" optional="YES" attributeType="String"/>"#),
                      "Notes 3": entity(#"<attribute name="heading" optional="YES" attributeType="String"/>"#,
                                        #"<attribute name="body" optional="YES" attributeType="String"/>"#)]
        for (name, body) in bodies {
            let version = folder.appendingPathComponent("\(name).xcdatamodel")
            try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
            try #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">\#(body)</model>"#
                .write(to: version.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        }
        let bundle = try ModelBundle(at: folder.path)
        let (first, last) = (try bundle.model(version: "Notes"), try bundle.model(version: "Notes 3"))
        let plain = ModelDiff().compare(first, last)
        #expect(plain.verdict == .lightweight && plain.steps == nil)
        let composed = try ModelDiff().compare(first, last, across: bundle)
        #expect(composed.verdict == .mappingModel && composed.directVerdict == .lightweight)
        #expect(composed.steps?.map(\.verdict) == [.mappingModel, .lightweight])
        #expect(DiffTextRenderer().render([composed]).contains("step by step: Notes → Notes 2 mapping-model, Notes 2 → Notes 3 lightweight (directly: lightweight)"))
        let neighbours = try ModelDiff().compare(try bundle.model(version: "Notes 2"), last, across: bundle)
        #expect(neighbours.steps == nil)
    }

    @Test func renameWithIdentifierIsReportedAsRename() throws {
        let comparison = ModelDiff().compare(
            try model(entity(note)),
            try model(entity(#"<attribute name="heading" optional="YES" attributeType="String" elementID="title"/>"#)))
        #expect(comparison.changes.map(\.kind) == [.attributeRenamed])
        #expect(comparison.changes.first?.location == "Note.heading")
    }

    @Test func renameWithoutIdentifierExplainsTheFix() throws {
        let comparison = ModelDiff().compare(
            try model(entity(note)), try model(entity(#"<attribute name="heading" optional="YES" attributeType="String"/>"#)))
        let added = try #require(comparison.changes.first { $0.kind == .attributeAdded })
        #expect(added.impact == .mappingModel)
        #expect(added.reason.contains(#"set the renaming ID of heading to "title""#))
    }

    @Test func inheritedAttributeChangeIsReportedOnceWhereDeclared() throws {
        let old = try model(entity(note, named: "Base") + entity(extra: #" parentEntity="Base""#, named: "Child"))
        let new = try model(entity(#"<attribute name="title" optional="YES" attributeType="Integer 16"/>"#, named: "Base")
                            + entity(extra: #" parentEntity="Base""#, named: "Child"))
        let comparison = ModelDiff().compare(old, new)
        #expect(comparison.changes.map(\.location) == ["Base.title"])
        #expect(comparison.verdict == .mappingModel)
    }

    @Test(.needsCorpus) func wiboscoVersionsNeedMappingModelsWhereTheRepositoryHasThem() throws {
        // The repository ships Migration1to2 and Migration2to3 mapping models, and none for 3 to 4.
        let bundle = try ModelBundle(at: TestPaths.corpus.appendingPathComponent(
            "models/010__wibosco__CoreDataMigration-Example__CoreDataMigration_Example.xcdatamodeld").path)
        let verdicts = try ModelDiff().compareConsecutiveVersions(of: bundle).map(\.verdict)
        #expect(verdicts == [.mappingModel, .mappingModel, .lightweight])
        // Across several versions, version 3's required `color` (replacing the attribute) needs
        // the mapping model too, directly and step by step.
        let first = try bundle.model(version: "CoreDataMigration_Example")
        for later in ["CoreDataMigration_Example 3", "CoreDataMigration_Example 4"] {
            let comparison = try ModelDiff().compare(first, try bundle.model(version: later), across: bundle)
            #expect(comparison.verdict == .mappingModel && comparison.directVerdict == .mappingModel, "\(later)")
        }
    }

    @Test(.needsCorpus) func revisedWiboscoVersionsAreLightweightThanksToRenamingIdentifiers() throws {
        let bundle = try ModelBundle(at: TestPaths.corpus.appendingPathComponent(
            "models/031__wibosco__CoreDataMigrationRevised-Example__CoreDataMigration_Example.xcdatamodeld").path)
        let comparisons = try ModelDiff().compareConsecutiveVersions(of: bundle)
        #expect(comparisons.map(\.verdict) == [.lightweight, .lightweight, .lightweight])
        #expect(comparisons[0].changes.map(\.kind) == [.attributeRenamed])
    }

    @Test(.needsCorpus) func glassArtBlobsToChildEntitiesIsInferableButDropsTheBlobs() throws {
        let five = try ModelParser().parse(contentsOf: TestPaths.corpus.appendingPathComponent("seedapps/molten/Molten5__contents.xml").path)
        let six = try ModelParser().parse(contentsOf: TestPaths.corpus.appendingPathComponent("seedapps/molten/Molten6__contents.xml").path)
        let comparison = ModelDiff().compare(five, six)
        #expect(comparison.changes.contains { $0.kind == .attributeRemoved && $0.location == "ProjectLog.glass_items_data" })
        #expect(comparison.changes.contains { $0.kind == .entityAdded })
    }

    @Test(.needsCorpus, arguments: Corpus.bundles)
    func everyCorpusBundleComparesVersionByVersion(path: String) throws {
        let bundle = try ModelBundle(at: path)
        let comparisons = try ModelDiff().compareConsecutiveVersions(of: bundle)
        #expect(comparisons.count == bundle.versions.count - 1)
        for comparison in comparisons {
            #expect(comparison.verdict == MigrationVerdict(changesOf: comparison))
            #expect(comparison.changes.allSatisfy { !$0.detail.isEmpty && !$0.reason.isEmpty })
        }
    }
}

extension MigrationVerdict {
    /// The verdict recomputed from the changes' impacts, as a check of ``ModelComparison``.
    init(changesOf comparison: ModelComparison) {
        switch comparison.changes.map(\.impact).max() {
        case nil: self = .identical
        case .noStoreEffect: self = .noStoreEffect
        case .lightweight: self = .lightweight
        case .mappingModel: self = .mappingModel
        }
    }
}
