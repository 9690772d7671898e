import FerryArchive
import FerryConvert
import FerryTestSupport
import Foundation
import GRDB
import Testing

/// A time is marked as Ferry's stand-in exactly when it is one: in the store converted from
/// Samples/, every time marked "modification time of X" is X's modification time, and no unmarked
/// time of a row from X is.
@Suite struct SynthesizedTimesTests {
    @Test func marksAgreeWithTheTimesTheyExplain() throws {
        let folder = TemporaryDirectory("ferry-synthesized")
        let store = folder.url.appendingPathComponent("samples.ferry").path
        _ = try ConversionJob(inputs: [TestPaths.samples.path], store: store, options: ConversionOptions(openArchive: ArchiveReader.opener)).run()
        var fileTimes: [String: String] = [:]
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        for file in FileManager.default.enumerator(atPath: TestPaths.samples.path)?.compactMap({ $0 as? String }) ?? [] {
            let path = TestPaths.samples.appendingPathComponent(file).path
            if let date = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date {
                fileTimes[(file as NSString).lastPathComponent] = formatter.string(from: date)
            }
        }
        let queue = try DatabaseQueue(path: store)
        var marked = 0, checked = 0
        try queue.read { db in
            for table in ["recipe", "project", "log"] {
                for row in try Row.fetchAll(db, sql: "SELECT source_file, created_at, modified_at, json_extract(extras, '$.synthesizedTimes') AS marks FROM \(table)") {
                    let marks = (row["marks"] as String?).flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String] } ?? [:]
                    for field in ["created_at", "modified_at"] {
                        let value = String((row[field] as String? ?? "").prefix(19))
                        if let from = marks[field], from.hasPrefix("modification time of ") {
                            let name = String(from.dropFirst("modification time of ".count).prefix { $0 != " " })
                            #expect(fileTimes[name] == value, "\(table) \(field) marked from \(name): \(value)")
                            marked += 1
                        } else if marks[field] == nil, let file = row["source_file"] as String?, let fileTime = fileTimes[(file as NSString).lastPathComponent] {
                            #expect(value != fileTime, "\(table) \(field) of \(file) is the file's time, unmarked")
                            checked += 1
                        }
                    }
                }
            }
        }
        try queue.close()
        #expect(marked > 20 && checked > 20, "\(marked) marked, \(checked) checked")
    }
}
