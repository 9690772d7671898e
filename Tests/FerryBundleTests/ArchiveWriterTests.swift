import Crypto
import FerryArchive
import FerryTestSupport
import Foundation
import Testing

/// The archive writer's file: the digest it keeps for the seal, and what a refused write says.
@Suite struct ArchiveWriterTests {
    let directory = TemporaryDirectory("ferry-archive-writer")

    /// Several entries and one of 3 MB, so that libarchive writes in many blocks.
    func write(_ writer: ArchiveWriter) throws -> [UInt8] {
        try writer.addFile(named: "bag/bagit.txt", bytes: Array("BagIt-Version: 1.0\n".utf8))
        try writer.addFile(named: "bag/data/empty", bytes: [])
        var state: UInt64 = 7
        let noise = (0..<(3 << 20)).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        try writer.addFile(named: "bag/data/large", bytes: noise)
        return try writer.finish()
    }

    @Test(arguments: ArchiveFormat.allCases)
    func theDigestIsTheFilesOwn(format: ArchiveFormat) throws {
        let path = directory.url.appendingPathComponent("digest.\(format.rawValue)").path
        let digest = try write(try ArchiveWriter(path: path, format: format, modificationTime: 0))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.count > 3 << 20)
        #expect(digest == Array(SHA256.hash(data: bytes)))
        try ArchiveSeal.seal(path, format: format, digest: digest)
        #expect(try ArchiveSeal.check(path) == .valid)
    }

    @Test(.enabled(if: FileManager.default.isWritableFile(atPath: "/dev/full")))
    func aFullDiskIsSaidInTheError() throws {
        #expect {
            _ = try write(try ArchiveWriter(path: "/dev/full", format: .tarZstd, modificationTime: 0))
        } throws: { error in
            (error as? ArchiveError)?.reason.contains("No space left on device") == true
        }
    }
}
