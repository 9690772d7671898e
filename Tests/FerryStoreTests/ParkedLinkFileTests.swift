import FerryTestSupport
import Foundation
import GRDB
import Testing
@testable import FerryStore

/// The file a session parks its links in: read back whole and in order across any number of
/// buffer-sized writes and reads, leaving no file behind, and failing with the folder named.
@Suite struct ParkedLinkFileTests {
    let directory = TemporaryDirectory("ferry-parked-links")

    static func link(_ number: Int) -> ParkedLink {
        ParkedLink(table: number % 3 == 0 ? "project" : "log", id: String(format: "%08X-0000-4000-8000-000000000000", number),
                   field: ["recipe_id", "snapshot", "parent_id", ""][number % 4], target: number % 5 == 0 ? "Crème brûlée ☕ \(number)" : "T\(number)",
                   targetTable: number % 2 == 0 ? "recipe" : "project", withSnapshot: number % 7 == 0)
    }

    @Test(arguments: [64, 1 << 20])
    func everyLinkComesBackInOrder(bufferSize: Int) throws {
        let file = ParkedLinkFile(bufferSize: bufferSize, folder: directory.url.path)
        let links = (0..<3_000).map(Self.link)
        for link in links { try file.append(link) }
        #expect(file.count == 3_000)
        var read: [ParkedLink] = []
        try file.forEach { read.append($0); return true }
        #expect(read == links)
        // Read twice: settling may read the links again after appending more.
        try file.append(Self.link(3_000))
        var again = 0
        try file.forEach { #expect($0 == Self.link(again)); again += 1; return true }
        #expect(again == 3_001)
    }

    @Test func readingStopsWhenTold() throws {
        let file = ParkedLinkFile(bufferSize: 64, folder: directory.url.path)
        for number in 0..<500 { try file.append(Self.link(number)) }
        var read = 0
        try file.forEach { _ in read += 1; return read < 120 }
        #expect(read == 120)
    }

    @Test func theFileHasNoNameAndAnEmptyOneReadsNothing() throws {
        let folder = directory.url.appendingPathComponent("unnamed").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = ParkedLinkFile(bufferSize: 64, folder: folder)
        var read = 0
        try file.forEach { _ in read += 1; return true }
        #expect(read == 0)
        for number in 0..<200 { try file.append(Self.link(number)) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    @Test func aFolderItCannotWriteInIsNamed() throws {
        let file = ParkedLinkFile(folder: "/nonexistent/ferry")
        #expect {
            try file.append(Self.link(1))
        } throws: { error in
            let message = (error as? DatabaseError)?.message ?? ""
            return message.contains("parked links (temporary file in /nonexistent/ferry)") && message.contains("No such file")
        }
    }

    @Test func theFolderIsWhereSQLitePutsItsTemporaryFiles() {
        let folder = directory.url.path
        #expect(ParkedLinkFile.temporaryFolder(["SQLITE_TMPDIR": folder, "TMPDIR": "/tmp"]) == folder)
        #expect(ParkedLinkFile.temporaryFolder(["SQLITE_TMPDIR": "/nonexistent", "TMPDIR": folder]) == folder)
        #expect(ParkedLinkFile.temporaryFolder([:]) == "/var/tmp")
    }
}
