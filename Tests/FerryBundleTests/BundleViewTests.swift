import FerryArchive
import FerryBundle
import FerryJSON
import FerryStore
import FerryTestSupport
@testable import FerryView
import Foundation
import GRDB
import Testing

/// The HTML view inside every export: what it shows, that every link inside it lands, that
/// data cannot break out of its text, that it stays small, and that the bag covers it.
@Suite struct BundleViewTests {
    let directory = TemporaryDirectory("ferry-bundle-view")

    func path(_ name: String) -> String { directory.url.appendingPathComponent(name).path }

    /// The bag's files by their path inside the bag (the top-level folder dropped).
    func files(of bundle: String) throws -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        for entry in try BundleFixtures.entries(of: bundle) {
            result[String(entry.name.drop { $0 != "/" }.dropFirst())] = entry.bytes
        }
        return result
    }

    func text(_ bytes: [UInt8]?) -> String { String(decoding: bytes ?? [], as: UTF8.self) }

    func samples() throws -> (store: String, titles: [String]) {
        let store = try BundleFixtures.sampleStore(at: path("samples.ferry"))
        let titles = try DatabaseQueue(path: store).read { db in
            try String.fetchAll(db, sql: "SELECT title FROM recipe UNION ALL SELECT title FROM project")
        }
        return (store, titles)
    }

    @Test func everyRecipeAndProjectIsOnAPageAndEveryLinkLands() throws {
        let (store, titles) = try samples()
        let bundle = path("samples.tar.zst")
        let summary = try BundleExporter(view: BundleView(rowsPerPage: 3, recordsPerPage: 2)).export(store: store, to: bundle)
        let bag = try files(of: bundle)
        let pages = bag.filter { $0.key == ViewLayout.index || $0.key.hasPrefix("view/") }
        #expect(summary.viewFiles == pages.count)
        let html = pages.filter { $0.key.hasSuffix(".html") }.mapValues(text)
        let shown = html.filter { $0.key.hasPrefix("view/recipes-") || $0.key.hasPrefix("view/projects-") }.values.joined()
        for title in titles { #expect(shown.contains("<h2>\(escaped(title)) <span") || shown.contains("<h2>\(escaped(title))</h2>"), "\(title) is on no page") }

        // Paged: 8 recipes at 2 a page, 14 logs at 3.
        #expect(html["view/recipes-4.html"] != nil && html["view/recipes-5.html"] == nil)
        #expect(html["view/logs-5.html"] != nil && html["view/logs-6.html"] == nil)
        // Ratings read as people write them: 4, not 4.0.
        let ratings = try DatabaseQueue(path: store).read { db in try Double.fetchAll(db, sql: "SELECT rating FROM log WHERE rating IS NOT NULL") }
        #expect(!ratings.isEmpty)
        let logText = html.filter { $0.key.hasPrefix("view/logs-") }.values.joined()
        for rating in ratings where rating == rating.rounded() { #expect(logText.contains("<td>\(Int(rating))<td>")) }
        #expect(!logText.contains(".0<td>"))
        let logRows = html.filter { $0.key.hasPrefix("view/logs-") }.values.map { $0.components(separatedBy: "<tr id=\"").count - 1 }
        #expect(logRows.reduce(0, +) == summary.counts["log"])

        // Every link to a file of the bag finds it, and every #anchor an element with that id.
        var broken: [String] = []
        for (page, content) in html {
            let folder = page.contains("/") ? "view/" : ""
            for href in matches(#"href="([^"]*)""#, in: content) where !href.hasPrefix("http") {
                let parts = href.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let target = parts[0].isEmpty ? page : normalized(folder + parts[0])
                guard let targetBytes = bag[target] else { broken.append("\(page) → \(href)"); continue }
                if parts.count == 2, !text(targetBytes).contains("id=\"\(parts[1])\"") { broken.append("\(page) → \(href)") }
            }
            for source in matches(#"src="([^"]*)""#, in: content) where bag[normalized(folder + source)] == nil {
                broken.append("\(page) → \(source)")
            }
        }
        #expect(broken == [])
        // Every record has one anchor: recipes and projects their id, logs its first 8 characters
        // (the whole id where another log on the page has them).
        let (ids, logIDs) = try DatabaseQueue(path: store).read { db in
            (try String.fetchAll(db, sql: "SELECT id FROM recipe UNION ALL SELECT id FROM project"), try String.fetchAll(db, sql: "SELECT id FROM log"))
        }
        let everything = html.values.joined()
        for id in ids { #expect(everything.components(separatedBy: "id=\"\(id)\"").count == 2, "\(id)") }
        let logPages = html.filter { $0.key.hasPrefix("view/logs-") }.values.joined()
        for id in logIDs {
            #expect(logPages.components(separatedBy: "<tr id=\"\(id.prefix(8))\"").count + logPages.components(separatedBy: "<tr id=\"\(id)\"").count == 3, "\(id)")
        }
    }

    @Test func theViewIsCoveredByTheBagAndLeavesTheBundleIDAlone() throws {
        let (store, _) = try samples()
        try FileManager.default.createDirectory(atPath: path("again"), withIntermediateDirectories: true)
        let withView = try BundleExporter().export(store: store, to: path("with.tar.zst"))
        let without = try BundleExporter(view: nil).export(store: store, to: path("without.tar.zst"))
        #expect(withView.bundleID == without.bundleID)
        #expect(without.viewFiles == 0)
        let bag = try files(of: path("with.tar.zst"))
        let tagManifest = text(bag["tagmanifest-sha256.txt"])
        for name in bag.keys where name == ViewLayout.index || name.hasPrefix("view/") {
            #expect(tagManifest.contains("  \(name)\n"), "\(name) is not in the tag manifest")
        }
        let bundleJSON = try JSONReader().read(bag["bundle.json"] ?? [])
        #expect(bundleJSON["view"]?.string == "index.html")
        let bare = try files(of: path("without.tar.zst"))
        #expect(bare.keys.allSatisfy { $0 != ViewLayout.index && !$0.hasPrefix("view/") })
        #expect(try JSONReader().read(bare["bundle.json"] ?? [])["view"] == nil)
        #expect(try BundleVerifier().verify(path("with.tar.zst")).problems == [])
        // The same store gives the same bytes, view included.
        _ = try BundleExporter().export(store: store, to: path("again/with.tar.zst"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path("again/with.tar.zst"))) == Data(contentsOf: URL(fileURLWithPath: path("with.tar.zst"))))
        // A bundle without a view imports like any other.
        let imported = try BundleImporter().importBundle(path("without.tar.zst"), into: path("imported.ferry"))
        #expect(imported.counts["recipe"] == withView.counts["recipe"])
    }

    @Test func aChangedPageIsAProblemFoundEvenUnderAFreshSeal() throws {
        let (store, _) = try samples()
        let bundle = path("pages.tar.zst")
        _ = try BundleExporter().export(store: store, to: bundle)
        let tampered = path("tampered.tar.zst")
        let writer = try ArchiveWriter(path: tampered, format: .tarZstd, modificationTime: 0)
        for entry in try BundleFixtures.entries(of: bundle) {
            var bytes = entry.bytes
            if entry.name.hasSuffix("/view/logs-1.html") { bytes += Array("<p>added</p>".utf8) }
            try writer.addFile(named: entry.name, bytes: bytes)
        }
        try ArchiveSeal.seal(tampered, format: .tarZstd, digest: try writer.finish())
        let problems = try BundleVerifier().verify(tampered).problems
        #expect(problems.map(\.path) == ["view/logs-1.html"], "\(problems)")
        #expect(throws: BundleError.self) { try BundleImporter().importBundle(tampered, into: path("refused.ferry")) }
    }

    /// Text from the data is shown as text wherever it lands: titles, names, notes, links.
    @Test func dataCannotBreakOutOfItsText() throws {
        let (store, _) = try samples()
        let script = "<script>alert(1)</script>"
        let attribute = "\" onerror=\"alert(2)"
        try DatabaseQueue(path: store).write { db in
            try db.execute(sql: "UPDATE recipe SET title = ? WHERE id = (SELECT min(id) FROM recipe)", arguments: [script])
            try db.execute(sql: "UPDATE project SET title = ?, notes = ? WHERE id = (SELECT min(id) FROM project)", arguments: [attribute, "</div><img src=x>"])
            try db.execute(sql: "UPDATE log SET title = ?, note = ? WHERE id = (SELECT min(id) FROM log)", arguments: ["<b>bold</b>", "a & b 'c'"])
            try db.execute(sql: "UPDATE attachment SET name = ? WHERE sha256 IS NOT NULL", arguments: ["../../../etc/passwd\"><img src=x>"])
            try db.execute(sql: "UPDATE reference_link SET url = 'javascript:alert(3)'")
            try db.execute(sql: "UPDATE catalog_item SET name = ?", arguments: ["<iframe src=https://example.com>"])
        }
        let bundle = path("hostile.tar.zst")
        _ = try BundleExporter().export(store: store, to: bundle)
        let pages = try files(of: bundle).filter { $0.key.hasSuffix(".html") }.mapValues(text)
        let all = pages.values.joined()
        #expect(all.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(!all.contains(script))
        #expect(all.contains("&quot; onerror=&quot;alert(2)"))
        #expect(!all.contains("<img src=x") && !all.contains("<iframe") && !all.contains("<b>bold"))
        #expect(!all.contains("href=\"javascript:"))
        #expect(all.contains("a &amp; b &#39;c&#39;"))
        // Attachment files are named by their SHA-256 alone: a name never becomes a path.
        for source in matches(#"<img src="([^"]*)""#, in: all) {
            #expect(source.hasPrefix("../data/attachments/") && source.count == "../data/attachments/".count + 64, "\(source)")
        }
        // Nothing on any page loads from outside the bundle.
        for page in pages.values {
            for reference in matches(#"(?:src|href)="([^"]*)""#, in: page) where !reference.hasPrefix("http") {
                #expect(!reference.contains("//") && !reference.lowercased().hasPrefix("javascript:"), "\(reference)")
            }
            #expect(matches(#"src="(https?:[^"]*)""#, in: page).isEmpty)
        }
    }

    /// The overview stays under 64 KiB however many apps, conversions and inputs there are.
    @Test func theOverviewStaysSmallWhateverTheDataHolds() throws {
        let (store, _) = try samples()
        let long = String(repeating: "x", count: 5_000)
        try DatabaseQueue(path: store).write { db in
            try db.execute(sql: "UPDATE project SET source_app = 'app-' || rowid || '-' || ?", arguments: [long])
            for run in 0..<200 {
                let inputs = JSONWriter.string(.array((0..<50).map { .string("/input/\(run)/\($0)/\(long)") }))
                try db.execute(sql: "INSERT INTO import_run (id, ferry_version, inputs, counts) VALUES (?, ?, ?, '{}')",
                               arguments: [UUID().uuidString, long, inputs])
            }
        }
        let bundle = path("large-overview.tar.zst")
        _ = try BundleExporter().export(store: store, to: bundle)
        let bag = try files(of: bundle)
        let index = try #require(bag[ViewLayout.index])
        #expect(index.count < 64 * 1024, "index.html is \(index.count) bytes")
        // All of it is one click away.
        let sources = text(bag["view/sources.html"])
        #expect(sources.components(separatedBy: "<li>Ferry ").count - 1 == 201)
        #expect(text(index).contains("href=\"view/sources.html\""))
    }

    /// Logs read as the store keeps them, or by the time index, give the same pages: the first
    /// reading holds when the store keeps them in time order and gives way when it does not.
    @Test func logsReadAsStoredOrByTheTimeIndexGiveTheSamePages() throws {
        let (store, _) = try samples()
        func pages(storageOrderFirst: Bool) throws -> (pages: [String: [UInt8]], writtenTwice: Int) {
            var view = BundleView(rowsPerPage: 4, recordsPerPage: 3)
            view.logsInStorageOrderFirst = storageOrderFirst
            var pages: [String: [UInt8]] = [:]
            var again = 0
            _ = try view.writePages(of: FrozenStore(path: store, of: store)) { name, bytes in
                if pages.updateValue(bytes, forKey: name) != nil { again += 1 }
            }
            return (pages, again)
        }
        // The samples are stored app by app, not in time order.
        #expect(try pages(storageOrderFirst: true).pages == (try pages(storageOrderFirst: false)).pages)
        // Times that follow the rowid, two logs without one first: the stored order is time order.
        try DatabaseQueue(path: store).write { db in
            try db.execute(sql: "UPDATE log SET started_at = CASE WHEN rowid <= 2 THEN NULL ELSE printf('2025-01-%02dT08:00:00Z', rowid / 2) END")
        }
        let sorted = try pages(storageOrderFirst: true)
        #expect(sorted.writtenTwice == 0)
        #expect(sorted.pages == (try pages(storageOrderFirst: false)).pages)
        // The last log stored the earliest: found out of order after pages were written, which
        // are written again.
        try DatabaseQueue(path: store).write { db in
            try db.execute(sql: "UPDATE log SET started_at = '2024-12-01T08:00:00Z' WHERE rowid = (SELECT max(rowid) FROM log)")
        }
        let late = try pages(storageOrderFirst: true)
        #expect(late.writtenTwice > 0)
        #expect(late.pages == (try pages(storageOrderFirst: false)).pages)
        #expect(late.pages != sorted.pages)
        // Four pages and more are read in two halves side by side: each half in order, but the
        // second starting before the first ends, is out of order all the same.
        try DatabaseQueue(path: store).write { db in
            try db.execute(sql: "UPDATE log SET started_at = printf('2025-01-%02dT08:00:00Z', CASE WHEN rowid <= 8 THEN rowid + 10 ELSE rowid END)")
        }
        let seam = try pages(storageOrderFirst: true)
        #expect(seam.writtenTwice > 0)
        #expect(seam.pages == (try pages(storageOrderFirst: false)).pages)
    }

    private func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "'", with: "&#39;")
    }

    private func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == ".." { _ = parts.popLast() } else { parts.append(part) }
        }
        return parts.joined(separator: "/")
    }

    private func matches(_ pattern: String, in text: String) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }
}
