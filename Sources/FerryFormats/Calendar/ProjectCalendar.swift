import FerryJSON
import FerryStore

/// Planner data as iCalendar (RFC 5545), one calendar per app: each `assignment` a `VTODO`
/// (`DUE`, `STATUS`, `COMPLETED`, `PERCENT-COMPLETE`, `PRIORITY`, `CATEGORIES` = its course,
/// `RELATED-TO` = its parent), each other project with a start a `VEVENT` (study sessions,
/// semesters, photo sessions), each planned meal of a `meal-plan` (a step with a date) an
/// all-day `VEVENT`; recurrence as `RRULE`. Apple Reminders and Calendar, Thunderbird and
/// Nextcloud import it. Format notes: `Formats/export-formats.md`.
/// Writing the formats stopped because another job of the export failed.
package struct FormatsCancelled: Error {}

package struct ProjectCalendar {
    private typealias Column = ProjectTable
    private typealias Step = ProjectStepTable
    static let todoKinds: Set<String> = ["assignment"]
    static let mealPlanKind = "meal-plan"
    private static let columns = Selection([
        Column.id, Column.sourceApp, Column.kind, Column.title, Column.category, Column.status, Column.startAt, Column.endAt, Column.dueAt,
        Column.estimatedMinutes, Column.importance, Column.recurrence, Column.notes, Column.completedAt, Column.createdAt,
        Column.modifiedAt, Column.parentID, Column.gradeWeightPercent, Column.gradePossible, Column.gradeEarned, Column.gradePercent,
        Column.gradeLetter, Column.difficulty, Column.deletedAt,
    ])
    private static let gradeColumns = [Column.gradeWeightPercent, Column.gradePossible, Column.gradeEarned, Column.gradePercent, Column.gradeLetter]

    /// Without Ferry's version: the formats are payload, and the bundle's id is the payload's,
    /// which would otherwise change with every release for the same data.
    package static let productID = "-//Ferry//Ferry//EN"

    package init() {}

    /// Where a calendar's bytes go, a piece at a time.
    package typealias Output = ([UInt8]) throws -> Void

    /// Writes a calendar per app with dated records (with `oneCalendar`, one named `ferry`
    /// holding them all), each through the output `open` gives for its app when its first entry
    /// is ready: an app without one gets none. Apps in the order of their names as SQLite
    /// compares them; the bytes of a calendar go out every 256 KiB, so no calendar is held whole.
    /// - Returns: the apps written, in that order.
    @discardableResult
    package func calendars(_ session: FrozenStoreSession, oneCalendar: Bool = false, fidelity: FormatFidelity? = nil,
                           isCancelled: () -> Bool = { false }, open: (String) throws -> Output) throws -> [String] {
        var written: [String] = []
        var current: (app: String, text: ICalendarText, output: Output?)?
        func flush(ending: Bool) throws {
            guard var calendar = current, calendar.text.entries > 0 else { return }
            if ending { calendar.text.line("END", "VCALENDAR") }
            guard ending || calendar.text.bytes.count >= 256 << 10 else { return }
            if calendar.output == nil {
                calendar.output = try open(calendar.app)
                written.append(calendar.app)
            }
            try calendar.output?(calendar.text.take())
            current = calendar
        }
        let sql = """
            SELECT \(Self.columns.list("x")), p.\(Column.title), p.\(Column.kind) FROM \(Column.table) x
            LEFT JOIN \(Column.table) p ON p.\(Column.id) = x.\(Column.parentID)
            ORDER BY x.\(Column.sourceApp), x.\(Column.id)
            """
        let steps = try session.prepare("""
            SELECT \(Step.id), \(Step.title), \(Step.kind), \(Step.dueAt), \(Step.startAt), \(Step.notes) FROM \(Step.table)
            WHERE \(Step.projectID) = ?1 ORDER BY \(Step.position), \(Step.id)
            """)
        let cursor = try session.cursor(sql)
        while let row = try cursor.next() {
            guard !isCancelled() else { throw FormatsCancelled() }
            let values = (0..<row.columnCount).map { row.text($0) }
            let project = TextRow(values: values, selection: Self.columns)
            let app = oneCalendar ? "ferry" : project[Column.sourceApp] ?? ""
            if current?.app != app {
                try flush(ending: true)
                current = (app, start(app), nil)
            }
            guard project[Column.deletedAt] == nil else {
                fidelity?.dropped("project", why: "deleted in the app (the tables keep it, with the time it was deleted)")
                continue
            }
            let parent = (title: project.computed(0), kind: project.computed(1))
            let kind = project[Column.kind] ?? ""
            if Self.todoKinds.contains(kind) {
                todo(project, parent: parent, recurrence: recurrence(of: project, fidelity: fidelity), into: &current!.text, fidelity: fidelity)
            } else if project[Column.startAt].flatMap(ICalendarText.dateTime) != nil {
                event(project, parent: parent, recurrence: recurrence(of: project, fidelity: fidelity), into: &current!.text, fidelity: fidelity)
            } else if kind != Self.mealPlanKind {
                fidelity?.dropped("project", why: "not an assignment and no start time: not a calendar entry (\(kind))")
            }
            if kind == Self.mealPlanKind, let id = project[Column.id] {
                try steps.select([id]) { step in
                    guard let date = (step.text(3) ?? step.text(4)).flatMap(ICalendarText.date) else {
                        fidelity?.dropped("project_step", why: "a planned meal without a date")
                        return
                    }
                    meal(id: step.text(0) ?? "", title: step.text(1), kind: step.text(2), date: date, notes: step.text(5), plan: project,
                         into: &current!.text, fidelity: fidelity)
                }
            }
            try flush(ending: false)
        }
        try flush(ending: true)
        return written
    }

    /// The apps ``calendars(_:oneCalendar:fidelity:isCancelled:open:)`` writes a calendar for,
    /// in its order, asked of SQLite without writing them (for the view's links).
    package static func apps(_ session: FrozenStoreSession) throws -> [String] {
        typealias Column = ProjectTable
        let utcTime = "'____-__-__T__:__:__*Z'"
        var apps: [String] = []
        try session.select("""
            SELECT DISTINCT x.\(Column.sourceApp) FROM \(Column.table) x WHERE x.\(Column.deletedAt) IS NULL AND (
                x.\(Column.kind) IN (\(todoKinds.sorted().map { "'\($0)'" }.joined(separator: ", ")))
                OR x.\(Column.startAt) GLOB \(utcTime.replacingOccurrences(of: "_", with: "?"))
                OR (x.\(Column.kind) = '\(mealPlanKind)' AND EXISTS (SELECT 1 FROM \(Step.table) s WHERE s.\(Step.projectID) = x.\(Column.id)
                    AND coalesce(s.\(Step.dueAt), s.\(Step.startAt)) GLOB '????-??-??*')))
            ORDER BY 1
            """) { row in apps.append(row.text(0) ?? "") }
        return apps
    }

    private func start(_ app: String) -> ICalendarText {
        var text = ICalendarText()
        text.line("BEGIN", "VCALENDAR")
        text.line("VERSION", "2.0")
        text.line("PRODID", Self.productID)
        text.line("CALSCALE", "GREGORIAN")
        text.text("X-WR-CALNAME", app)
        return text
    }

    /// UID, DTSTAMP (the record's modification time, so that the same store gives the same bytes), and the times kept.
    private func common(_ project: TextRow, into text: inout ICalendarText, fidelity: FormatFidelity?) {
        text.text("UID", project[Column.id] ?? "")
        let stamp = project[Column.modifiedAt].flatMap(ICalendarText.dateTime) ?? "19700101T000000Z"
        text.line("DTSTAMP", stamp)
        text.text("SUMMARY", project[Column.title] ?? "")
        fidelity?.kept("project.\(Column.title.name)", as: "SUMMARY")
        if let created = project[Column.createdAt].flatMap(ICalendarText.dateTime) { text.line("CREATED", created) }
        text.line("LAST-MODIFIED", stamp)
        if let notes = project[Column.notes] {
            text.text("DESCRIPTION", notes)
            fidelity?.kept("project.\(Column.notes.name)", as: "DESCRIPTION")
        }
        if let parent = project[Column.parentID] {
            text.text("RELATED-TO", parent)
            fidelity?.kept("project.\(Column.parentID.name)", as: "RELATED-TO")
        }
        if project.values.count > 0, Self.gradeColumns.contains(where: { project[$0] != nil }) {
            fidelity?.dropped("project.grade_*", why: "iCalendar has no grades")
        }
        if project[Column.difficulty] != nil { fidelity?.dropped("project.\(Column.difficulty.name)", why: "iCalendar has no difficulty") }
    }

    private func todo(_ project: TextRow, parent: (title: String?, kind: String?), recurrence: JSONValue?, into text: inout ICalendarText,
                      fidelity: FormatFidelity?) {
        text.line("BEGIN", "VTODO")
        common(project, into: &text, fidelity: fidelity)
        let due = project[Column.dueAt].flatMap(ICalendarText.dateTime)
        var start = project[Column.startAt].flatMap(ICalendarText.dateTime)
        if project[Column.dueAt] != nil, due == nil { fidelity?.dropped("project.\(Column.dueAt.name)", why: "not a UTC time iCalendar can write") }
        // A to-do is due at or after its start (§3.8.2.3): a start after the due time is left out.
        if let given = start, let due, given > due {
            start = nil
            fidelity?.dropped("project.\(Column.startAt.name)", why: "after the due time, which iCalendar does not allow")
        }
        // A recurring to-do needs a start (§3.8.5.3): its due time stands in when it has none.
        let rule = start ?? due != nil ? rrule(recurrence, fidelity: fidelity) : nil
        if start ?? due == nil, project[Column.recurrence] != nil {
            fidelity?.dropped("project.\(Column.recurrence.name)", why: "a to-do with neither start nor due time cannot recur in iCalendar")
        }
        if let dtstart = start ?? (rule != nil ? due : nil) { text.line("DTSTART", dtstart) }
        if start != nil { fidelity?.kept("project.\(Column.startAt.name)", as: "DTSTART") }
        if let due {
            text.line("DUE", due)
            fidelity?.kept("project.\(Column.dueAt.name)", as: "DUE")
        }
        let status = (project[Column.status] ?? "").lowercased()
        let completed = project[Column.completedAt].flatMap(ICalendarText.dateTime)
        if completed != nil || ["completed", "done", "finished"].contains(status) {
            text.line("STATUS", "COMPLETED")
            text.line("PERCENT-COMPLETE", "100")
            if let completed { text.line("COMPLETED", completed) }
            fidelity?.kept("project.\(Column.status.name)", as: "STATUS")
        } else if ["cancelled", "canceled", "dropped"].contains(status) {
            text.line("STATUS", "CANCELLED")
            fidelity?.kept("project.\(Column.status.name)", as: "STATUS")
        } else if ["in-progress", "in_progress", "inprogress", "started"].contains(status) {
            text.line("STATUS", "IN-PROCESS")
            fidelity?.kept("project.\(Column.status.name)", as: "STATUS")
        } else {
            text.line("STATUS", "NEEDS-ACTION")
            if !status.isEmpty, status != "open" { fidelity?.coarsened("project.\(Column.status.name)", as: "STATUS", why: "\"\(status)\" is NEEDS-ACTION") }
        }
        if let importance = project[Column.importance].flatMap(Double.init), importance.isFinite {
            // 1 is the highest priority and 9 the lowest (§3.8.1.9); importance 1 is the highest.
            let priority = Int(((1 - min(1, max(0, importance))) * 8 + 1).rounded())
            text.line("PRIORITY", String(priority))
            fidelity?.coarsened("project.\(Column.importance.name)", as: "PRIORITY", why: "0…1 in nine steps")
        }
        var categories = [parent.kind == "course" ? parent.title : nil, project[Column.category]].compactMap { $0 }.filter { !$0.isEmpty }
        if categories.count == 2, categories[0] == categories[1] { categories.removeLast() }
        if !categories.isEmpty {
            text.line("CATEGORIES", categories.map(ICalendarText.escaped).joined(separator: ","))
            fidelity?.kept("project.\(Column.category.name) and the course's title", as: "CATEGORIES")
        }
        if let rule { text.line("RRULE", rule) }
        if project[Column.estimatedMinutes] != nil {
            fidelity?.dropped("project.\(Column.estimatedMinutes.name)", why: "a to-do's DURATION would move its start: not written")
        }
        text.line("END", "VTODO")
        fidelity?.wrote("VTODO")
    }

    private func event(_ project: TextRow, parent: (title: String?, kind: String?), recurrence: JSONValue?, into text: inout ICalendarText,
                       fidelity: FormatFidelity?) {
        text.line("BEGIN", "VEVENT")
        common(project, into: &text, fidelity: fidelity)
        let start = project[Column.startAt].flatMap(ICalendarText.dateTime) ?? ""
        text.line("DTSTART", start)
        fidelity?.kept("project.\(Column.startAt.name)", as: "DTSTART")
        if project[Column.dueAt] != nil { fidelity?.dropped("project.\(Column.dueAt.name)", why: "an event has a start and an end, no due time") }
        if let end = project[Column.endAt].flatMap(ICalendarText.dateTime), end > start {
            text.line("DTEND", end)
            fidelity?.kept("project.\(Column.endAt.name)", as: "DTEND")
        } else if let minutes = project[Column.estimatedMinutes].flatMap(Double.init), minutes > 0, minutes < 1e9 {
            text.line("DURATION", "PT\(Int64(minutes.rounded()))M")
            fidelity?.coarsened("project.\(Column.estimatedMinutes.name)", as: "DURATION", why: "whole minutes")
        }
        if let kind = project[Column.kind] { text.text("CATEGORIES", kind) }
        if let rule = rrule(recurrence, fidelity: fidelity) { text.line("RRULE", rule) }
        text.line("END", "VEVENT")
        fidelity?.wrote("VEVENT")
    }

    private func meal(id: String, title: String?, kind: String?, date: String, notes: String?, plan: TextRow, into text: inout ICalendarText,
                      fidelity: FormatFidelity?) {
        text.line("BEGIN", "VEVENT")
        text.text("UID", id)
        text.line("DTSTAMP", plan[Column.modifiedAt].flatMap(ICalendarText.dateTime) ?? "19700101T000000Z")
        text.line("DTSTART;VALUE=DATE", date)
        text.text("SUMMARY", title ?? kind ?? "Meal")
        if let kind { text.text("CATEGORIES", kind) }
        if let notes { text.text("DESCRIPTION", notes) }
        text.text("RELATED-TO", plan[Column.id] ?? "")
        text.line("TRANSP", "TRANSPARENT")
        text.line("END", "VEVENT")
        fidelity?.kept("project_step (a planned meal)", as: "VEVENT (all day)")
        fidelity?.wrote("VEVENT")
    }

    /// `FREQ=WEEKLY;INTERVAL=2;COUNT=10` from the canonical recurrence; nil when it has no
    /// frequency iCalendar knows. Skipping weekends or holidays has no RRULE form.
    /// A project's `recurrence`, read; text that does not read (a damaged row) is counted as dropped.
    private func recurrence(of project: TextRow, fidelity: FormatFidelity?) -> JSONValue? {
        guard let text = project[Column.recurrence] else { return nil }
        guard let value = StoredJSON.read(text) else {
            fidelity?.dropped("project.\(Column.recurrence.name)", why: "not JSON: a damaged row, carried as stored in the tables")
            return nil
        }
        return value
    }

    private func rrule(_ value: JSONValue?, fidelity: FormatFidelity?) -> String? {
        guard let value else { return nil }
        let frequencies = ["daily": "DAILY", "weekly": "WEEKLY", "monthly": "MONTHLY", "yearly": "YEARLY", "annually": "YEARLY"]
        guard let frequency = value["frequency"]?.string.flatMap({ frequencies[$0.lowercased()] }) else {
            fidelity?.dropped("project.\(Column.recurrence.name)", why: "a frequency iCalendar has no name for")
            return nil
        }
        var rule = "FREQ=\(frequency)"
        if let interval = value["interval"]?.number?.int64, interval > 1 { rule += ";INTERVAL=\(interval)" }
        switch value["end"]?["kind"]?.string {
        case "afterOccurrences": if let count = value["end"]?["count"]?.number?.int64, count > 0 { rule += ";COUNT=\(count)" }
        case "until":
            let end = value["end"]?["date"]?.string
            if let until = end.flatMap(ICalendarText.dateTime) {
                rule += ";UNTIL=\(until)"
            } else if let day = end.flatMap(ICalendarText.date) {
                // A date alone ends the series with that day (UNTIL is a UTC time when DTSTART is one).
                rule += ";UNTIL=\(day)T235959Z"
                fidelity?.coarsened("project.\(Column.recurrence.name)", as: "RRULE UNTIL", why: "an end date alone: the end of that day in UTC")
            } else {
                // An end it cannot read would make the series endless: no rule rather than a wrong one.
                fidelity?.dropped("project.\(Column.recurrence.name)", why: "an end iCalendar cannot read")
                return nil
            }
        default: break
        }
        if let skip = value["skipPolicy"]?.object, skip.members.contains(where: { $0.value == .bool(true) }) {
            fidelity?.coarsened("project.\(Column.recurrence.name)", as: "RRULE", why: "skipping weekends or holidays has no RRULE form")
        } else {
            fidelity?.kept("project.\(Column.recurrence.name)", as: "RRULE")
        }
        return rule
    }
}
