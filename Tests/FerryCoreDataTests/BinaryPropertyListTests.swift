@testable import FerryCoreData
import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

@Suite struct BinaryPropertyListTests {
    @Test func readsWhatFoundationWrites() throws {
        let source: [String: Any] = [
            "string": "héllo ✓", "ascii": "plain", "int": 42, "negative": -7, "big": Int64.max, "double": 0.25,
            "bool": true, "date": Date(timeIntervalSinceReferenceDate: 123.5), "data": Data([0, 1, 2, 255]),
            "array": [1, "two", [3.0]], "nested": ["k": ["v"]], "empty": [String: Any](),
            "long": String(repeating: "x", count: 300),
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: source, format: .binary, options: 0)
        let plist = try BinaryPropertyList.read(data)
        #expect(plist["string"] == .string("héllo ✓"))
        #expect(plist["ascii"] == .string("plain"))
        #expect(plist["int"]?.integer == 42 && plist["negative"]?.integer == -7 && plist["big"]?.integer == Int64.max)
        #expect(plist["double"] == .real(0.25))
        #expect(plist["bool"] == .bool(true))
        #expect(plist["date"] == .date(123.5))
        #expect(plist["data"] == .data(Data([0, 1, 2, 255])))
        #expect(plist["array"] == .array([.integer(1), .string("two"), .array([.real(3)])]))
        #expect(plist["nested"]?["k"] == .array([.string("v")]))
        #expect(plist["empty"] == .dictionary([]))
        #expect(plist["long"]?.string?.count == 300)
    }

    @Test(.needsCorpus) func storeMetadataOfTheCorpusReads() throws {
        let data = try Data(contentsOf: TestPaths.corpus.appendingPathComponent(
            "coredata-sqlite/01__alemar11__CoreDataPlus/Tests/Resources/SampleModel/Fixtures/SampleModel.momd/VersionInfo.plist"))
        let plist = try BinaryPropertyList.read(data)
        #expect(plist["NSManagedObjectModel_CurrentVersionName"] == .string("SampleModel"))
        let hashes = try #require(plist["NSManagedObjectModel_VersionHashes"]?.members)
        #expect(Set(hashes.map(\.key)) == ["SampleModel", "SampleModel2", "SampleModel3"])
    }

    @Test(arguments: [
        ("", "not a binary property list"),
        ("bplist00", "not a binary property list"),
        ("<?xml version=\"1.0\"?><plist/>", "not a binary property list"),
    ])
    func nonBinaryInputIsRefused(text: String, reason: String) {
        #expect(throws: PropertyListError(reason)) { try BinaryPropertyList.read(Data(text.utf8)) }
    }

    @Test func everyTruncationOrBitFlipFailsCleanly() throws {
        let data = try PropertyListSerialization.data(fromPropertyList: ["a": [1, 2, ["b": "c"]], "d": Data(count: 20)],
                                                      format: .binary, options: 0)
        // A shorter file has no trailer where the trailer must be: every prefix is refused.
        for length in 0..<data.count {
            #expect(throws: PropertyListError.self, "the first \(length) bytes") { try BinaryPropertyList.read(data.prefix(length)) }
        }
        // A flipped bit may still be a valid property list (a changed number), or else it is
        // refused with the reader's own error: never a trap, never another error.
        var refused = 0
        for index in 0..<data.count {
            for bit in 0..<8 {
                var damaged = data
                damaged[index] ^= 1 << bit
                do {
                    _ = try BinaryPropertyList.read(damaged)
                } catch is PropertyListError {
                    refused += 1
                } catch {
                    Issue.record("byte \(index) bit \(bit): \(error)")
                }
            }
        }
        #expect(refused > data.count, "most flips break offsets, lengths or markers")
    }

    /// Inputs `make fuzz` found crashing, kept: each is now refused with an error.
    @Test(arguments: TestPaths.files(under: TestPaths.packageRoot.appendingPathComponent("Tests/FuzzRegressions/plist")) { _ in true })
    func fuzzFindingsFailCleanly(path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: PropertyListError.self) { try BinaryPropertyList.read(data) }
        #expect(KeyedArchiveDecoder().decode(data).failure != nil)
    }

    @Test func selfContainingArrayIsRefused() {
        // bplist00 · object 0: array of one reference to object 0.
        var bytes: [UInt8] = Array("bplist00".utf8) + [0xA1, 0x00]
        let offsetTable = bytes.count
        bytes += [0x08]
        bytes += [0, 0, 0, 0, 0, 0, 1, 1] + be(1) + be(0) + be(UInt64(offsetTable))
        #expect(throws: PropertyListError("object 0 contains itself")) { try BinaryPropertyList.read(Data(bytes)) }
    }

    @Test func exponentialSharingIsBounded() {
        // Object n is an array holding object n+1 twice: 2^40 leaves if expanded naively.
        let levels = 40
        var bytes: [UInt8] = Array("bplist00".utf8)
        var offsets: [Int] = []
        for level in 0..<levels {
            offsets.append(bytes.count)
            bytes += [0xA2, UInt8(level + 1), UInt8(level + 1)]
        }
        offsets.append(bytes.count)
        bytes += [0x10, 0x01]
        let offsetTable = bytes.count
        bytes += offsets.map { UInt8($0) }
        bytes += [0, 0, 0, 0, 0, 0, 1, 1] + be(UInt64(levels + 1)) + be(0) + be(UInt64(offsetTable))
        #expect(throws: PropertyListError("expands to more than 100000 objects")) {
            try BinaryPropertyList.read(Data(bytes), maximumExpandedObjects: 100_000)
        }
    }

    private func be(_ value: UInt64) -> [UInt8] { (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
}
