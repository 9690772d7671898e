import FerryModel
import Foundation
import Testing

@Suite struct ModelParserBadInputTests {
    /// Parses a fixture from `Fixtures/Bad` and returns the error it must raise.
    private func failure(_ name: String) throws -> ModelError {
        let path = fixture("Bad/\(name)")
        do {
            _ = try ModelParser().parse(contentsOf: path, displayPath: name)
        } catch {
            return error
        }
        Issue.record("\(name) parsed without error")
        throw CancellationError()
    }

    @Test(arguments: [
        ("empty", "empty: file is empty"),
        ("blank", "blank: file is empty"),
        ("not-xml.json", #"not-xml.json: not an XML model file (starts with "{"entiti")"#),
        ("binary.bplist", "binary.bplist: binary property list, not an XML model file (a compiled .mom or a pre-Xcode 4 model?)"),
        ("utf16.xml", "utf16.xml: unsupported text encoding: UTF-16 (byte order mark); model files are UTF-8"),
        ("truncated.xml", "truncated.xml: truncated XML: the file ends at line 2 before the model is closed"),
        ("mismatched-tags.xml", "mismatched-tags.xml: malformed XML at line 5, column 20: mismatched end tag"),
        ("undefined-entity.xml", "undefined-entity.xml: malformed XML at line 3, column 28: reference to an undefined entity"),
        ("wrong-root.plist", "wrong-root.plist: line 2: root element is <plist>, expected <model>: not a Core Data model file"),
        ("billion-laughs.xml", "billion-laughs.xml: XML with a document type or entity declaration (<!DOCTYPE) is refused: model files never have one"),
        ("xxe.xml", "xxe.xml: XML with a document type or entity declaration (<!DOCTYPE) is refused: model files never have one"),
        ("external-dtd.xml", "external-dtd.xml: XML with a document type or entity declaration (<!DOCTYPE) is refused: model files never have one"),
        ("deep.xml", "deep.xml: XML nested more than 32 levels deep at line 2; not a model file"),
        ("bad-attribute-type.xml", #"bad-attribute-type.xml: line 5: entity "Course": attribute "credits": attributeType "Integer 128" is not a known attribute type"#),
        ("bad-deletion-rule.xml", #"bad-deletion-rule.xml: line 4: entity "Course": relationship "teacher": deletionRule "Explode" is not Nullify, Cascade, Deny or No Action"#),
        ("bad-flag.xml", #"bad-flag.xml: line 4: entity "Course": attribute "title": optional "maybe" is not YES or NO"#),
        ("missing-name.xml", #"missing-name.xml: line 4: entity "Course": missing required XML attribute "name""#),
        // Found by `make fuzz`: XMLParser trapped on an invalid UTF-8 byte in an attribute name.
        ("invalid-utf8-attribute-name.xml", "invalid-utf8-attribute-name.xml: malformed XML at line 3, column 27: text is not valid UTF-8"),
    ])
    func badInputGivesOneSpecificLine(name: String, message: String) throws {
        let error = try failure(name)
        #expect(error.description == message)
        #expect(!error.description.contains("\n"))
    }

    @Test func entityDeclarationWithoutDoctypeIsRefused() throws {
        let xml = #"<?xml version="1.0"?><model><!ENTITY x "y"></model>"#
        #expect(throws: ModelError.self) { try ModelParser().parse(data: Data(xml.utf8), file: "inline") }
    }

    @Test func contentAfterTheRootIsRefused() throws {
        let xml = "<model>\n<entity name=\"A\"/>\n</model>\n<<<<<<< HEAD\n"
        let error = try #require(throws: ModelError.self) { try ModelParser().parse(data: Data(xml.utf8), file: "merged") }
        #expect(error.description == "merged: malformed XML at line 4, column 1: content after the end of the root element")
    }

    /// One value past libxml2's 10,000,000-byte limit is named with its size and place, not
    /// called truncated or "libxml2 error 1" (10 MB and 20 MB, in an attribute and as text).
    @Test(arguments: [10 << 20, 20 << 20])
    func anOverlongValueIsNamed(bytes: Int) throws {
        let long = String(repeating: "x", count: bytes)
        for (xml, column) in [
            (#"<?xml version="1.0"?><model>"# + "\n" + #"<entity name="A"><attribute name="t" optional="YES" attributeType="String" defaultValueString=""# + long + #""/></entity></model>"#, 96),
            (#"<?xml version="1.0"?><model>"# + "\n" + #"<entity name="A"><userInfo><entry key="k" value="v"/></userInfo></entity><!-- "# + long + " --></model>", 1),
        ] {
            let error = try #require(throws: ModelError.self) { try ModelParser().parse(data: Data(xml.utf8), file: "long") }
            if column > 1 {
                #expect(error.description == "long: malformed XML at line 2, column \(column): a value of \(bytes) bytes, over libxml2's limit of 10000000 bytes for one value")
            }
            #expect(!error.description.contains("truncated") && !error.description.contains("libxml2 error"), "\(error)")
        }
    }

    @Test func declaredForeignEncodingIsRefused() throws {
        let xml = #"<?xml version="1.0" encoding="UTF-7"?><model/>"#
        let error = try #require(throws: ModelError.self) { try ModelParser().parse(data: Data(xml.utf8), file: "utf7") }
        #expect(error.kind == .unsupportedEncoding(#"declares encoding "UTF-7""#))
    }

    @Test func oversizedFileIsRefusedBeforeReading() throws {
        var parser = ModelParser()
        parser.maximumFileSize = 100
        let error = try #require(throws: ModelError.self) {
            try parser.parse(contentsOf: fixture("Everything.xcdatamodel/contents"), displayPath: "big")
        }
        guard case .tooLarge(_, 100) = error.kind else { Issue.record("expected tooLarge, got \(error)"); return }
    }

    @Test func missingFileIsNamed() throws {
        let error = try #require(throws: ModelError.self) { try ModelParser().parse(contentsOf: "/no/such/contents") }
        #expect(error.description == "/no/such/contents: no such file or directory")
    }

    /// A real billion-laughs expansion would take gigabytes: the declaration is refused before
    /// libxml2 sees the bytes, so nothing is ever expanded.
    @Test func billionLaughsIsRefusedBeforeParsing() throws {
        let layers = (1...9).map { level in
            "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">"
        }.joined(separator: "\n")
        let xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE model [\n<!ENTITY lol0 \"lol\">\n\(layers)\n]>\n<model><entity name=\"&lol9;\"/></model>"
        let error = try #require(throws: ModelError.self) { try ModelParser().parse(data: Data(xml.utf8), file: "laughs") }
        #expect(error.kind == .declarationRefused("<!DOCTYPE"))
    }
}
