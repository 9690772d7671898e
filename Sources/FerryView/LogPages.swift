import FerryJSON
import FerryFormats
import FerryStore
import Foundation

/// Logs in time order, a table row each: when, what (linked to its recipe or project while that
/// exists), rating, outcome, what it was made with (its snapshot, marked where Ferry
/// reconstructed it) and the note. The one section as large as the data: rows are written
/// straight from SQLite's column bytes into the page.
struct LogPages {
    /// The pages' order is time, ties by rowid. A store usually keeps its logs in that order
    /// already (converting an app's logs appends them as the app wrote them), so the table is
    /// first read as it is stored; the first log out of order stops that reading, and the pages
    /// are written again in the order of the `log_started` index (which holds time and rowid: one
    /// pass over the index and a lookup by rowid per log, 0.4 s more at a million logs).
    ///
    /// A log's snapshot is looked for at the same rowid first, where Ferry writes it beside its
    /// log (`+` keeps SQLite on the rowid); when it is not there, by `log_id` (``snapshotByLog``).
    /// Probing `log_id` for every log took three times as long at a million logs.
    private typealias Column = LogTable
    private typealias Snapshot = LogSnapshotTable
    private static let logColumns = Selection([
        Column.id, Column.startedAt, Column.title, Column.kind, Column.rating, Column.outcome, Column.note, Column.recipeID,
        Column.projectID, Column.sourceApp,
    ])
    private static let snapshotColumns = Selection([Snapshot.title, Snapshot.parameters, Snapshot.isReconstructed, Snapshot.reconstructedFields,
                                                    Snapshot.logID])
    /// Where each column is in the rows: read by place, a million times.
    private static let id = logColumns.place(Column.id), startedAt = logColumns.place(Column.startedAt),
                       title = logColumns.place(Column.title), kind = logColumns.place(Column.kind),
                       rating = logColumns.place(Column.rating), outcome = logColumns.place(Column.outcome),
                       note = logColumns.place(Column.note), recipeID = logColumns.place(Column.recipeID),
                       projectID = logColumns.place(Column.projectID), sourceApp = logColumns.place(Column.sourceApp)
    /// The snapshot's columns follow the log's.
    private static let snapshotStart = logColumns.columns.count
    private static let snapshotLogID = snapshotStart + snapshotColumns.place(Snapshot.logID)
    private static let columns = "SELECT \(logColumns.list("l")), \(snapshotColumns.list("s"))"
    /// As stored, optionally only the rows `condition` keeps (`l.rowid < 500001`).
    private static func inStorageOrder(where condition: String? = nil) -> String {
        columns + "\nFROM \(Column.table) l LEFT JOIN \(Snapshot.table) s ON s.rowid = l.rowid AND +s.\(Snapshot.logID) = l.\(Column.id)"
            + (condition.map { " WHERE \($0)" } ?? "") + " ORDER BY l.rowid"
    }
    private static let inTimeOrder = columns + "\n" + """
        FROM (SELECT rowid AS ordered FROM \(Column.table) ORDER BY \(Column.startedAt), rowid) o
             JOIN \(Column.table) l ON l.rowid = o.ordered
             LEFT JOIN \(Snapshot.table) s ON s.rowid = l.rowid AND +s.\(Snapshot.logID) = l.\(Column.id)
        """
    private static let snapshotByLog = "SELECT \(snapshotColumns.list()) FROM \(Snapshot.table) WHERE \(Snapshot.logID) = ?1"

    /// Logs per app, counted on the way for the overview.
    private(set) var apps: [String: Int] = [:]
    private(set) var count = 0
    /// The logs other pages link to (those with attachments), and where each is.
    private let linked: Set<String>
    private(set) var places: [String: String] = [:]

    init(linkedFrom session: FrozenStoreSession) throws {
        var linked: Set<String> = []
        try session.select("SELECT DISTINCT \(AttachmentTable.logID) FROM \(AttachmentTable.table) WHERE \(AttachmentTable.logID) IS NOT NULL") { row in
            if let id = row.text(0) { linked.insert(id) }
        }
        self.linked = linked
    }

    /// A log's anchor is the first 8 characters of its id, the whole id when those are not
    /// upper-case hex or another log on the same page has them: a million UUIDs are a third of
    /// the compressed pages, 8 characters a tenth. Written straight into the page.
    private static func anchor(_ id: UnsafeBufferPointer<UInt8>, used: inout Set<UInt64>, into html: inout HTMLBuffer) {
        var key: UInt64 = 0
        if id.count > 8 {
            for byte in id.prefix(8) {
                guard (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) else { key = 0; break }
                key = key << 8 | UInt64(byte)
            }
        }
        if key != 0, used.insert(key).inserted {
            html.appendBytes(ArraySlice(id.prefix(8)))
        } else {
            html.anchor(utf8: id)
        }
    }

    /// Writes the pages; a page written twice (the storage order given up) is meant as its last.
    /// With `snapshot`, a store of four pages or more is read in two halves side by side, the
    /// second on its own connection and thread: at a million logs the view is the last job of an
    /// export, and one half of it fills the core the tables left.
    mutating func render(places recordPlaces: RecordPlaces, perPage: Int, session: FrozenStoreSession, frozen: FrozenStore? = nil,
                         storageOrderFirst: Bool = true, write: @escaping (String, [UInt8]) throws -> Void) throws {
        let total = try session.count("SELECT count(*) FROM \(Column.table)")
        let withParts = try OwnedParts.exist(for: .log, session: session)
        let pageCount = max(1, (total + perPage - 1) / perPage)
        let serialized = SerializedWrites(write)
        var parts: [Part]?
        if storageOrderFirst {
            if let frozen, pageCount >= 4 {
                parts = try halves(total: total, pageCount: pageCount, perPage: perPage, withParts: withParts, places: recordPlaces,
                                   session: session, frozen: frozen, write: serialized)
            } else {
                parts = try renderPart(Self.inStorageOrder(), firstPage: 1, total: total, stopUnlessSorted: true, withParts: withParts,
                                       places: recordPlaces, perPage: perPage, session: session, write: serialized.write).map { [$0] }
            }
        }
        let done = try parts ?? [renderPart(Self.inTimeOrder, firstPage: 1, total: total, stopUnlessSorted: false, withParts: withParts,
                                            places: recordPlaces, perPage: perPage, session: session, write: serialized.write)].compactMap { $0 }
        var contents = SectionPages(.logs, total: total, perPage: perPage, write: write)
        for part in done {
            contents.ranges += part.ranges
            count += part.count
            apps.merge(part.apps, uniquingKeysWith: +)
            places.merge(part.places) { first, _ in first }
        }
        try contents.writeContents(describing: "logs")
    }

    /// The first pages on this thread, the rest on another; nil when either half, or the seam
    /// between them, is out of time order.
    private func halves(total: Int, pageCount: Int, perPage: Int, withParts: Bool, places: RecordPlaces, session: FrozenStoreSession,
                        frozen: FrozenStore, write: SerializedWrites) throws -> [Part]? {
        let firstHalf = pageCount / 2 * perPage
        var seam: String?
        try session.select("SELECT rowid FROM \(Column.table) ORDER BY rowid LIMIT 1 OFFSET \(firstHalf)") { seam = $0.text(0) }
        guard let seam else { return nil }
        let later = Self.inStorageOrder(where: "l.rowid >= \(seam)")
        let earlier = Self.inStorageOrder(where: "l.rowid < \(seam)")
        let other = BackgroundJob { [self] in
            try frozen.session("writing the bundle's view") { session in
                try renderPart(later, firstPage: pageCount / 2 + 1, total: total, stopUnlessSorted: true, withParts: withParts, places: places,
                               perPage: perPage, session: session, write: write.write)
            }
        }
        let first: Part?
        do {
            first = try renderPart(earlier, firstPage: 1, total: total, stopUnlessSorted: true, withParts: withParts, places: places,
                                   perPage: perPage, session: session, write: write.write)
        } catch {
            // Waited for: no page is written once this has returned.
            _ = try? other.value()
            throw error
        }
        let second = try other.value()
        guard let first, let second, second.firstStarted.map({ !$0.lexicographicallyPrecedes(first.lastStarted ?? []) }) ?? (first.lastStarted == nil) else {
            return nil
        }
        return [first, second]
    }

    /// What rendering some of the pages gave.
    struct Part: Sendable {
        var ranges: [(first: String, last: String)] = []
        var count = 0
        var apps: [String: Int] = [:]
        var places: [String: String] = [:]
        /// The first and last log's time (nil for none), to check the seam between parts.
        var firstStarted: [UInt8]?
        var lastStarted: [UInt8]?
    }

    /// The pages of `query`'s logs, numbered from `firstPage`; nil when `stopUnlessSorted` and a
    /// log came out of time order.
    private func renderPart(_ query: String, firstPage: Int, total: Int, stopUnlessSorted: Bool, withParts: Bool, places recordPlaces: RecordPlaces,
                            perPage: Int, session: FrozenStoreSession, write: @escaping (String, [UInt8]) throws -> Void) throws -> Part? {
        var part = Part()
        var pages = SectionPages(.logs, total: total, perPage: perPage, write: write)
        var html = HTMLBuffer()
        var page = firstPage - 1
        var onPage = 0
        var first = ""
        var lastStarted: [UInt8] = []
        var lastWasTimed = false
        // Where each row's last cell ends, to add the parts cell when logs have parts.
        var rowEnds: [(id: String, end: Int)] = []
        var anchors: Set<UInt64> = []
        var lastApp: [UInt8] = []
        var lastAppCount = 0
        let lookup = try session.prepare(Self.snapshotByLog)

        func finishPage() throws {
            html.raw("</tbody></table>\n")
            if withParts { try addParts(to: &html, rows: rowEnds, places: recordPlaces, session: session) }
            try pages.finish(&html, page: page, first: ViewWords.time(first),
                             last: lastStarted.isEmpty ? "(no time)" : ViewWords.time(String(decoding: lastStarted, as: UTF8.self)))
        }

        let cursor = try session.cursor(query)
        var started = false
        while let row = try cursor.next() {
            // Each column's text once: every call into SQLite counts, a million times.
            let idText = row.shown(Self.id), startedText = row.shown(Self.startedAt), titleText = row.shown(Self.title)
            if stopUnlessSorted, started {
                // NULL comes first in time order; equal times keep their rowid order.
                let inOrder = startedText.map { !$0.lexicographicallyPrecedes(lastStarted) } ?? !lastWasTimed
                if !inOrder { return nil }
            }
            if !started { part.firstStarted = startedText.map { Array($0) } }
            started = true
            lastWasTimed = startedText != nil
            if onPage == pages.perPage {
                try finishPage()
                onPage = 0
            }
            if onPage == 0 {
                page += 1
                html = pages.start(page: page)
                html.raw("<table class=\"logs\"><thead><tr><th scope=\"col\">Started (UTC)</th><th scope=\"col\">Log</th><th scope=\"col\">Kind</th><th scope=\"col\">Rating</th><th scope=\"col\">Outcome</th><th scope=\"col\">Made with</th><th scope=\"col\">Note</th>")
                if withParts { html.raw("<th scope=\"col\">Tags, materials, attachments</th>") }
                html.raw("</tr></thead><tbody>\n")
                rowEnds.removeAll(keepingCapacity: true)
                anchors.removeAll(keepingCapacity: true)
                first = startedText.map { String(decoding: $0, as: UTF8.self) } ?? "(no time)"
            }
            onPage += 1
            part.count += 1
            let snapshotLog = row.shown(Self.snapshotLogID)
            // The id as a String only where it is needed: most logs have their snapshot beside them.
            let id = withParts || snapshotLog == nil || !linked.isEmpty ? idText.map { String(decoding: $0, as: UTF8.self) } ?? "" : ""
            html.raw("<tr id=\"")
            let anchorStart = html.count
            if let idText { Self.anchor(idText, used: &anchors, into: &html) }
            if linked.contains(id) {
                part.places[id] = ViewLayout.Section.logs.page(page) + "#" + String(decoding: html.bytes[anchorStart...], as: UTF8.self)
            }
            html.raw("\"><td>")
            ViewWords.time(startedText, into: &html)
            html.raw("<td>")
            let recipe = row.shown(Self.recipeID), project = row.shown(Self.projectID)
            let target = recipe == nil && project == nil ? nil : recipe.flatMap { recordPlaces.recipe(String(decoding: $0, as: UTF8.self)) }
                ?? project.flatMap { recordPlaces.project(String(decoding: $0, as: UTF8.self)) }
            if let target {
                html.raw("<a href=\"")
                html.text(target)
                html.raw("\">")
            }
            if let titleText {
                if !ViewWords.title(titleText, into: &html) { html.text(utf8: titleText) }
            } else {
                html.raw("(untitled)")
            }
            if target != nil { html.raw("</a>") }
            html.raw("<td>")
            ViewWords.code(row.shown(Self.kind), into: &html)
            // A rating is REAL: 4, not SQLite's 4.0.
            html.raw("<td>")
            if let rating = row.text(Self.rating) { html.text(rating) }
            html.raw("<td>")
            ViewWords.code(row.shown(Self.outcome), into: &html)
            html.raw("<td>")
            if snapshotLog != nil {
                madeWith(row, at: Self.snapshotStart, logTitle: titleText, into: &html)
            } else {
                try lookup.select([id]) { snapshot in madeWith(snapshot, at: 0, logTitle: titleText, into: &html) }
            }
            html.raw("<td>")
            html.text(utf8: row.shown(Self.note))
            if withParts { rowEnds.append((id, html.count)) }
            html.raw("\n")
            lastStarted.removeAll(keepingCapacity: true)
            if let startedText { lastStarted.append(contentsOf: startedText) }
            // Logs come app by app more often than not: count runs, not every row in a dictionary.
            if let app = row.shown(Self.sourceApp) {
                if app.elementsEqual(lastApp) {
                    lastAppCount += 1
                } else {
                    if lastAppCount > 0 { part.apps[String(decoding: lastApp, as: UTF8.self), default: 0] += lastAppCount }
                    lastApp = Array(app)
                    lastAppCount = 1
                }
            }
        }
        if lastAppCount > 0 { part.apps[String(decoding: lastApp, as: UTF8.self), default: 0] += lastAppCount }
        if onPage > 0 { try finishPage() }
        part.ranges = pages.ranges
        part.lastStarted = lastWasTimed ? lastStarted : nil
        return part
    }

    /// The snapshot: its title where it differs from the log's, each parameter as "name value
    /// unit", and which fields were filled in from the record as it was at conversion.
    /// Its columns (``snapshotColumns``) from `first`.
    private func madeWith(_ row: FrozenStoreRow, at first: Int, logTitle: UnsafeBufferPointer<UInt8>?, into html: inout HTMLBuffer) {
        let columns = Self.snapshotColumns
        if let snapshotTitle = row.shown(first + columns.place(Snapshot.title)), logTitle.map({ !$0.elementsEqual(snapshotTitle) }) ?? true {
            html.text(utf8: snapshotTitle)
            html.raw(": ")
        }
        if let bytes = row.shown(first + columns.place(Snapshot.parameters)) {
            let start = html.count
            if !ParameterText.render(bytes, into: &html) {
                html.truncate(to: start)
                Self.parameters(read: bytes, into: &html)
            }
        }
        if row.integer(first + columns.place(Snapshot.isReconstructed)) == 1 {
            html.raw(" <em class=\"reconstructed\">(reconstructed")
            if let fields = row.withBytes(first + columns.place(Snapshot.reconstructedFields), { try? JSONReader().read($0).array }) ?? nil, !fields.isEmpty {
                html.raw(": ")
                // `parameters.grindDescriptor` reads as the parameter's name, `grind descriptor`.
                html.text(fields.compactMap(\.string).map { ViewWords.name($0.hasPrefix("parameters.") ? String($0.dropFirst(11)) : $0) }
                    .joined(separator: ", "))
            }
            html.raw(")</em>")
        }
    }

    /// Parameters of any other shape: read whole, each member shown as JSON where it is not a
    /// value, a unit or a text.
    private static func parameters(read bytes: UnsafeBufferPointer<UInt8>, into html: inout HTMLBuffer) {
        guard let parameters = try? JSONReader().read(bytes).object else { return html.text(utf8: bytes) }
        for (index, member) in parameters.enumerated() {
            if index > 0 { html.raw(", ") }
            html.text(ViewWords.name(member.key))
            html.raw(" ")
            if let text = member.value["text"]?.string {
                html.text(text)
            } else if let number = member.value["value"]?.number {
                html.text(number.text)
                if let unit = member.value["unit"]?.string {
                    html.raw(" ")
                    html.text(unit)
                }
            } else {
                html.text(JSONWriter.string(member.value))
            }
        }
    }

    /// The page's logs' tags, materials and attachments, each in a last cell of its row.
    private func addParts(to html: inout HTMLBuffer, rows: [(id: String, end: Int)], places: RecordPlaces, session: FrozenStoreSession) throws {
        let parts = try OwnedParts(of: .log, ids: rows.map(\.id), session: session)
        var result = HTMLBuffer(capacity: html.count + rows.count * 16)
        var copied = 0
        let bytes = html.bytes
        for (id, end) in rows {
            result.appendBytes(bytes[copied..<end])
            copied = end
            result.raw("<td>")
            PartsHTML.names(parts.tags[id], label: "Tags", into: &result)
            PartsHTML.names(parts.techniques[id], label: "Techniques", into: &result)
            if let materials = parts.materials[id] { PartsHTML.materialList(materials, places: places, into: &result) }
            for attachment in parts.attachments[id] ?? [] {
                result.raw("<p>")
                PartsHTML.attachment(attachment, owner: "log", into: &result)
                result.raw("</p>")
            }
        }
        result.appendBytes(bytes[copied...])
        html = result
    }
}

/// A page sink two threads can call: one call at a time.
final class SerializedWrites: @unchecked Sendable {
    private let lock = NSLock()
    private let sink: (String, [UInt8]) throws -> Void

    init(_ sink: @escaping (String, [UInt8]) throws -> Void) {
        self.sink = sink
    }

    func write(_ name: String, _ bytes: [UInt8]) throws {
        try lock.withLock { try sink(name, bytes) }
    }
}
