import FerryCanonical
import FerryJSON
@testable import FerryStore
import FerryTestSupport
import Foundation
import GRDB
import Testing

/// Each canonical table is declared once (`Sources/FerryStore/Schema/Tables/`): the migrations
/// make exactly what is declared, the writer's statements come from it, and the few column
/// names the layers below the store use are declared ones.
@Suite struct CanonicalTablesTests {
    let directory = TemporaryDirectory("ferry-tables")

    func emptyStore() throws -> DatabaseQueue {
        let path = directory.url.appendingPathComponent("empty-\(UUID().uuidString).ferry").path
        try CanonicalStore(path: path).close()
        return try DatabaseQueue(path: path)
    }

    /// The values a shape's row holds, as text: what the tape would bind, column by column.
    static func row(_ shape: UpsertShape, of log: Log, _ bind: (inout RowBinder, UnsafePointer<Log>) -> Void) -> [String] {
        var tape = RowTape()
        tape.begin(log.source)
        withUnsafePointer(to: log) { pointer in _ = tape.add(shape, for: pointer, bind) }
        return tape.values.map { value in
            switch value {
            case .null: "NULL"
            case .integer(let integer): "integer \(integer)"
            case .real(let real): "real \(real)"
            case .text(let start, let count): "text " + String(decoding: tape.bytes[start..<(start + count)], as: UTF8.self)
            case .blob(let start, let count): "blob \(count) at \(start)"
            }
        }
    }

    /// Logs and snapshots are bound by a function of their own for speed: it must give what
    /// their declared fields give, every field told apart by a value of its own.
    @Test func theLogTablesDirectBindsGiveTheDeclaredRows() throws {
        var log = Log(id: "A0000000-0000-4000-8000-000000000001", source: SourceRef(app: SourceApp("brewguide"), entity: "BrewLog", key: "k", file: "f.json"),
                      kind: "brew", createdAt: "2024-01-01T00:00:00.000Z", modifiedAt: "2024-01-02T00:00:00.000Z")
        (log.title, log.startedAt, log.endedAt, log.outcome, log.note) = ("title", "2024-01-03T00:00:00.000Z", "2024-01-04T00:00:00.000Z", "outcome", "note")
        (log.durationSeconds, log.rating) = (30.5, 4)
        (log.recipeID, log.projectID) = ("B0000000-0000-4000-8000-000000000002", "C0000000-0000-4000-8000-000000000003")
        log.extras["own"] = "field"
        log.synthesizedTimes = ["createdAt": "modification time of f.json"]
        var snapshot = LogSnapshot(sourceType: "recipe", sourceID: "B0000000-0000-4000-8000-000000000002", title: "snap", method: "v60", kind: "coffee")
        snapshot.parameters = JSONObject([("dose", ["value": 15, "unit": "g"])])
        (snapshot.isReconstructed, snapshot.reconstructedFields) = (true, ["title", "method"])
        log.snapshot = snapshot
        for shape in [RowShapes.log, RowShapes.newLog, RowShapes.logSnapshot, RowShapes.newLogSnapshot] {
            let direct = Self.row(shape, of: log) { shape.row.bind(&$0, $1) }
            let declared = Self.row(shape, of: log) { shape.row.bindByFields(&$0, $1) }
            #expect(direct == declared, "\(shape.table)")
            #expect(Set(direct).count == direct.count, "\(shape.table): every value its own")
            #expect(direct.count == shape.columns.count)
        }
    }

    @Test func theMigrationsMakeExactlyTheDeclaredTablesAndColumns() throws {
        let queue = try emptyStore()
        defer { try? queue.close() }
        let tables = try queue.read {
            try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT IN (\(CanonicalTables.internalTablesSQL))")
        }
        #expect(Set(tables) == Set(CanonicalTables.all))
        #expect(CanonicalTables.all.count == 20)
        for (table, columns) in CanonicalTables.declarations {
            let made = try queue.read { db in
                try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map { row -> String in
                    let required = (row["notnull"] as Int) == 1
                    return "\(row["name"] as String) \(row["type"] as String)\(required ? " NOT NULL" : "")"
                }
            }
            let declared = columns.map { "\($0.name) \($0.type.rawValue)\($0.required ? " NOT NULL" : "")" }
            #expect(made == declared, "\(table): the migrations and the declaration differ")
        }
    }

    @Test func everyDeclaredTableHasItsWritersStatement() {
        var shaped: Set<String> = [RowShapes.recipe.table, RowShapes.recipeParameter.table, RowShapes.recipeStep.table, RowShapes.project.table,
                                   RowShapes.projectStep.table, RowShapes.log.table, RowShapes.logSnapshot.table, RowShapes.tag.table,
                                   RowShapes.technique.table, RowShapes.catalogItem.table, RowShapes.attachmentContent.table,
                                   RowShapes.importRun.table]
        for shapes in [RowShapes.materialLine.values.map(\.table), RowShapes.referenceLink.values.map(\.table),
                       RowShapes.attachment.values.map(\.table), RowShapes.nameJoins.values.map(\.table)] {
            shaped.formUnion(shapes)
        }
        #expect(shaped == Set(CanonicalTables.all))
        // A part's statement binds its own columns and exactly one owner.
        let material = RowShapes.materialLine[MaterialLineTable.logID.name]
        #expect(material?.columns == ["id", "log_id", "position", "catalog_key", "description", "quantity", "unit", "notes", "source_key", "extras"])
        #expect(RowShapes.newLog.sql.hasPrefix("INSERT INTO log (id, source_app,") && !RowShapes.newLog.sql.contains("ON CONFLICT"))
        #expect(RowShapes.log.sql.contains("ON CONFLICT(id) DO UPDATE SET source_app = excluded.source_app"))
    }

    /// FerryCanonical, below the store, marks made-up times by their column's name.
    @Test func theNamesTheModelLayerUsesAreDeclaredColumns() {
        for (table, columns) in CanonicalTables.declarations where [RecipeTable.table, ProjectTable.table, LogTable.table].contains(table) {
            let names = Set(columns.map(\.name))
            #expect(names.contains(SynthesizedTimes.createdAt) && names.contains(SynthesizedTimes.modifiedAt), "\(table)")
        }
    }
}
