import FerryJSON
import FerryCoreData
import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

/// Archives are made here by Foundation's own NSKeyedArchiver: an independent writer.
private func archive(_ object: Any) throws -> Data {
    try NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: false)
}

@Suite struct KeyedArchiveDecoderTests {
    @Test func foundationValuesBecomeJSON() throws {
        let decoder = KeyedArchiveDecoder()
        #expect(decoder.decode(try archive(["boro", "sculpture"] as NSArray)).value == ["boro", "sculpture"])
        #expect(decoder.decode(try archive(NSString(string: "héllo"))).value == "héllo")
        #expect(decoder.decode(try archive(NSNumber(value: 42))).value == 42)
        #expect(decoder.decode(try archive(NSNumber(value: 2.5))).value == .double(2.5))
        #expect(decoder.decode(try archive(NSNull())).value == .null)
        #expect(decoder.decode(try archive(NSDate(timeIntervalSinceReferenceDate: 782611200.25))).value == "2025-10-20T00:00:00.25Z")
        #expect(decoder.decode(try archive(NSUUID(uuidString: "c0c0c0c0-1111-4222-8333-444444444444")!)).value
                == "C0C0C0C0-1111-4222-8333-444444444444")
        #expect(decoder.decode(try archive(NSURL(string: "https://example.com/a?b=c")!)).value == "https://example.com/a?b=c")
        #expect(decoder.decode(try archive(NSSet(array: ["x"]))).value == ["x"])
        #expect(decoder.decode(try archive(NSOrderedSet(array: ["b", "a"]))).value == ["b", "a"])
        #expect(decoder.decode(try archive(NSData(data: Data([1, 2, 3])))).value == "AQID")
    }

    @Test func dictionariesKeepTheirMembers() throws {
        let decoded = KeyedArchiveDecoder().decode(try archive(["name": "rod", "sizes": [5, 6], "meta": ["k": NSNull()]] as NSDictionary))
        let object = try #require(decoded.value.object)
        #expect(Set(object.keys) == ["name", "sizes", "meta"])
        #expect(object["name"] == "rod" && object["sizes"] == [5, 6] && object["meta"]?["k"] == .null)
    }

    @Test func archivedJSONBytesAreParsed() throws {
        let json = #"[{"naturalKey":"be-0100-0","quantity":0.5,"unit":"rods"}]"#
        let decoded = KeyedArchiveDecoder().decode(try archive(NSData(data: Data(json.utf8))))
        #expect(decoded.value.array?.first?["quantity"]?.number?.text == "0.5")
        #expect(decoded.unknownClasses.isEmpty && decoded.failure == nil)
    }

    @Test(.needsCorpus) func theGlassArtBlobOfTheCorpusDecodes() throws {
        let blob = try Data(contentsOf: TestPaths.corpus.appendingPathComponent("seedapps/_generated/molten.glass_items_data.keyedarchive.bplist"))
        let expected = try JSONReader().read(Array(try Data(contentsOf: TestPaths.corpus.appendingPathComponent("seedapps/_generated/molten.glass_items_data.json"))))
        let decoded = KeyedArchiveDecoder().decode(blob)
        #expect(decoded.value.array?.count == 2)
        // Same members, whatever the key order.
        for (ours, theirs) in zip(decoded.value.array ?? [], expected.array ?? []) {
            #expect(Set(ours.object?.keys ?? []) == Set(theirs.object?.keys ?? []))
            #expect(ours["naturalKey"] == theirs["naturalKey"] && ours["quantity"] == theirs["quantity"])
        }
    }

    @Test func unknownClassesKeepTheBytesAsBase64AndAreNamed() throws {
        let blob = try archive(["color": NSValue(range: NSRange(location: 1, length: 2))] as NSDictionary)
        let decoded = KeyedArchiveDecoder().decode(blob)
        #expect(decoded.unknownClasses == ["NSValue"])
        #expect(decoded.value == .string(blob.base64EncodedString()))
    }

    @Test func nonArchivesAreKeptAsBase64WithTheReason() {
        let decoded = KeyedArchiveDecoder().decode(Data("not an archive".utf8))
        #expect(decoded.failure == "not a binary property list")
        #expect(decoded.value == .string(Data("not an archive".utf8).base64EncodedString()))
    }
}
