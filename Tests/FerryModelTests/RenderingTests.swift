import FerryModel
import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

@Suite struct RenderingTests {
    let everything = try! ModelBundle(at: fixture("Everything.xcdatamodel")).currentModel()

    @Test func mermaidDrawsEntitiesRelationshipPairsOnceAndInheritance() {
        let mermaid = MermaidRenderer().render(everything)
        let lines = mermaid.split(separator: "\n").map(String.init)
        #expect(lines.first == "erDiagram")
        #expect(lines.contains("    Bed {"))
        #expect(lines.contains(#"        Integer64 plantCount "optional""#))
        #expect(lines.contains("        Coordinate location \"optional\""))
        // Bed.plants and LivingThing.bed are one pair: drawn once, from the side that sorts first.
        #expect(lines.filter { $0.contains("plants") }.count == 1)
        #expect(lines.contains(#"    Bed |o--o{ Plant : "plants / bed""#))
        #expect(lines.contains(#"    LivingThing ||..o| Plant : "parent of""#))
    }

    @Test func mermaidFocusShowsTheEntityAndItsNeighbours() {
        let mermaid = MermaidRenderer().render(everything, entityName: "Garden")
        #expect(mermaid.contains("    Garden {") && mermaid.contains("    Bed {"))
        #expect(!mermaid.contains("    Tree {"))
    }

    @Test func dotEscapesAndMarksToManyEnds() {
        let dot = DOTRenderer().render(everything)
        #expect(dot.hasPrefix("digraph \"Everything\" {"))
        #expect(dot.contains(#""Bed" -> "Garden" [label="garden / beds", dir=both, arrowhead=tee, arrowtail=crow];"#))
        #expect(dot.contains(#""Plant" -> "LivingThing" [style=dashed, arrowhead=empty];"#))
        #expect(dot.contains("<I>LivingThing</I>"))
    }

    @Test(.enabled(if: CommandRunner.isAvailable("dot"), "Graphviz is not installed"),
          arguments: ["Everything.xcdatamodel", "Garden.xcdatamodeld"])
    func graphvizAcceptsTheDotOutput(name: String) throws {
        let directory = TemporaryDirectory()
        let source = try directory.write(DOTRenderer().render(try ModelBundle(at: fixture(name)).currentModel()), to: "model.dot")
        let result = try CommandRunner.run("/usr/bin/env", ["dot", "-Tsvg", source, "-o", directory.url.appendingPathComponent("model.svg").path])
        #expect(result.status == 0, "\(result.stderr)")
        let svg = try String(contentsOf: directory.url.appendingPathComponent("model.svg"), encoding: .utf8)
        #expect(svg.contains("<svg") && svg.contains("Bed") == name.hasPrefix("Everything"))
    }

    @Test(.needsCorpus, .enabled(if: CommandRunner.isAvailable("dot"), "Graphviz is not installed"), arguments: Corpus.modelsFolderContents.prefix(40))
    func graphvizAcceptsTheDotOutputOfRealModels(path: String) throws {
        let directory = TemporaryDirectory()
        let source = try directory.write(DOTRenderer().render(try ModelParser().parse(contentsOf: path)), to: "model.dot")
        let result = try CommandRunner.run("/usr/bin/env", ["dot", "-Tsvg", source, "-o", "/dev/null"])
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func textListsEveryPropertyWithItsFlags() throws {
        let bundle = try ModelBundle(at: fixture("Everything.xcdatamodel"))
        let text = ModelTextRenderer().render(everything, bundle: bundle, version: bundle.currentVersion)
        #expect(text.contains("5 entities · 16 attributes · 4 relationships · Swift · identifier \"garden-7\""))
        #expect(text.contains("Entity Tree : Plant  (stored in ZLIVINGTHING)"))
        #expect(text.contains("  inherits: height, species, plantedOn, sprouts, bed"))
        #expect(text.range(of: #"plants\s+→> Plant\s+optional, to-many ordered, inverse bed, cascade, renaming ID crops"#, options: .regularExpression) != nil)
        #expect(text.contains("  index byCode: code ↑, createdAt ↓"))
        #expect(text.contains("  Cloud (CloudKit): Garden, Bed"))
    }
}
