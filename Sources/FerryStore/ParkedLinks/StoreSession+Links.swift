import FerryCanonical
import FerryJSON
import Foundation
import GRDB

/// Links to records not seen yet, settled at the end of a session.
extension StoreSession {
    /// The tables and columns a parked link can be in.
    private static let linkFields = [(LogTable.table, LogTable.recipeID.name), (LogTable.table, LogTable.projectID.name),
                                     (ProjectTable.table, ProjectTable.recipeID.name), (ProjectTable.table, ProjectTable.parentID.name)]
    /// Whether the record a parked link `p` names is in the store now.
    static let targetExists = """
        ((p.target_table = '\(RecipeTable.table)' AND EXISTS (SELECT 1 FROM \(RecipeTable.table) WHERE \(RecipeTable.id) = p.target))
          OR (p.target_table = '\(ProjectTable.table)' AND EXISTS (SELECT 1 FROM \(ProjectTable.table) WHERE \(ProjectTable.id) = p.target)))
        """

    /// Links written empty because their record had not come yet, whose record came: set, and
    /// their ids taken out of `extras.danglingReferences` again. Chunk by chunk, in bounded memory.
    func restoreLateLinks() throws {
        var after: Int64 = 0
        while true {
            let rows = try Row.fetchAll(db, sql: """
                SELECT p.rowid, p.tbl, p.id, p.field, p.target FROM temp.ferry_pending_link p
                WHERE p.rowid > ? AND p.field != 'snapshot' AND \(Self.targetExists)
                ORDER BY p.rowid LIMIT 10000
                """, arguments: [after])
            guard let last = rows.last else { return }
            after = last[0]
            for row in rows {
                let table: String = row[1], id: String = row[2], field: String = row[3], target: String = row[4]
                guard Self.linkFields.contains(where: { $0.0 == table && $0.1 == field }),
                      let text = try String.fetchOne(db, sql: "SELECT extras FROM \(table) WHERE id = ?", arguments: [id])
                else { continue }
                // The record's rows are no longer the ones its digest was taken of.
                if let digested = RecordDigests.table(named: table) { try RecordDigests.forget(digested, id: id, db: db) }
                guard var extras = try? JSONReader().read(Array(text.utf8)).object else {
                    // Text SQLite holds as JSON but Ferry's reader refuses (deeper than it reads,
                    // say) is changed by SQLite alone, never replaced.
                    try db.execute(sql: "UPDATE \(table) SET \(field) = ?, extras = json_remove(extras, '$.danglingReferences.\(field)') WHERE id = ?",
                                   arguments: [target, id])
                    continue
                }
                SnapshotLinker.forgetDangling(&extras, field)
                try db.execute(sql: "UPDATE \(table) SET \(field) = ?, extras = ? WHERE id = ?",
                               arguments: [target, BatchWriter.json(extras), id])
            }
        }
    }

    /// Reports the links whose record never came: the first of them listed, the rest counted.
    /// One pass counts them all, unless `counted` already holds the counts; a kind of link is
    /// listed only when there are some.
    func reportDanglingLinks(counted: [LinkKind: Int]? = nil) throws {
        guard let report else { return }
        let missing = "NOT \(Self.targetExists)"
        var totals = counted ?? [:]
        if counted == nil {
            for row in try Row.fetchAll(db, sql: "SELECT p.tbl, p.field, count(*) FROM temp.ferry_pending_link p WHERE p.field != 'snapshot' AND \(missing) GROUP BY p.tbl, p.field") {
                totals[LinkKind(table: row[0], field: row[1])] = row[2]
            }
        }
        for (table, field) in Self.linkFields {
            // Every parked link's row is in the store (links of refused rows are not parked), so
            // the count needs no lookup of the row; only the listed ones are looked up.
            guard let total = totals[LinkKind(table: table, field: field)], total > 0 else { continue }
            var listed = 0
            let rows = try Row.fetchCursor(db, sql: """
                SELECT t.\(SharedColumns.sourceFile), t.\(SharedColumns.sourceEntity), t.\(SharedColumns.sourceKey), p.target
                FROM temp.ferry_pending_link p JOIN \(table) t ON t.id = p.id
                WHERE p.tbl = '\(table)' AND p.field = '\(field)' AND \(missing)
                ORDER BY p.rowid LIMIT \(ReportBuilder.listLimit)
                """)
            while let row = try rows.next() {
                report.dangling(file: row[0], record: "\(row[1] as String) \(row[2] as String? ?? "")", field: field, value: row[3],
                                action: SnapshotLinker.danglingAction)
                listed += 1
            }
            report.omitted("danglingReferences", total - listed)
        }
    }
}
