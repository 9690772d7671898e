import FerryArchive
import FerryCanonical
@testable import FerryConvert
import FerryCoreData
import FerryJSON
@testable import FerryStore
import FerryModel
import FerryTestSupport
import FerryTestTraits
import Foundation
import GRDB
import Testing

/// `convert --as core-data`: the converted records as a Core Data store, of the canonical
/// mirror or of the app's own model, read back with Ferry's store reader (what `ferry dump`
/// prints) and compared with the canonical store and the legacy files.
@Suite struct CoreDataConversionTests {
    let directory = TemporaryDirectory("ferry-coredata-convert")
    static let canonicalModel = TestPaths.formats.appendingPathComponent("canonical/Ferry.xcdatamodeld").path

    /// The records of a Core Data store as `ferry dump` writes them, by entity.
    static func dumped(_ store: String, model: String) throws -> [String: [JSONObject]] {
        let reader = try CoreDataStoreReader(path: store, model: model)
        var bytes: [UInt8] = []
        _ = try CoreDataStoreDump().write(reader) { bytes.append(contentsOf: $0) }
        var records: [String: [JSONObject]] = [:]
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            let object = try #require(try JSONReader().read(Array(line)).object)
            records[object["entity"]?.string ?? "", default: []].append(object)
        }
        return records
    }

    /// A folder holding an app's model, as Xcode keeps it, from its file in the corpus.
    func modelBundle(_ name: String, contents corpusFile: String) throws -> String {
        let contents = try String(contentsOf: TestPaths.corpus.appendingPathComponent(corpusFile), encoding: .utf8)
        _ = try directory.write(contents, to: "\(name).xcdatamodeld/\(name).xcdatamodel/contents")
        return directory.url.appendingPathComponent("\(name).xcdatamodeld").path
    }

    func convert(_ inputs: [String], to name: String, appModel: String? = nil) throws -> (store: String, report: ConversionReport) {
        let store = directory.url.appendingPathComponent(name).path
        let job = ConversionJob(inputs: inputs, store: store, options: ConversionOptions(openArchive: ArchiveReader.opener))
        let model = try appModel.map { (path: $0, model: try ModelBundle.opening($0).model()) }
        return (store, try CoreDataConversion(job: job, appModel: model).run())
    }

    // MARK: The canonical mirror

    @Test func theSamplesAsCoreDataHoldEveryCanonicalRowAndValue() throws {
        let canonical = directory.url.appendingPathComponent("samples.ferry").path
        _ = try ConversionJob(inputs: [TestPaths.samples.path], store: canonical, options: ConversionOptions(openArchive: ArchiveReader.opener)).run()
        let (store, report) = try convert([TestPaths.samples.path], to: "Ferry.sqlite")
        let records = try Self.dumped(store, model: Self.canonicalModel)
        let queue = try DatabaseQueue(path: canonical)
        defer { try? queue.close() }
        let tables = try queue.read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT IN (\(CanonicalTables.internalTablesSQL))") }
        #expect(tables.count == 20)
        var compared = 0
        for table in tables {
            let entity = CanonicalCoreDataWriter.entityName(ofTable: table)
            let rows = try queue.read { try Row.fetchAll($0, sql: "SELECT rowid AS pk, * FROM \(table) ORDER BY rowid") }
            #expect((records[entity] ?? []).count == rows.count, "\(entity)")
            #expect(report.coreData?.objects[entity] == rows.count, "\(entity)")
            let byKey = Dictionary((records[entity] ?? []).compactMap { record in record["pk"]?.wholeNumber.map { ($0, record) } }, uniquingKeysWith: { a, _ in a })
            for row in rows {
                let values = try #require(byKey[row["pk"]]?["values"]?.object, "\(table) row \(row["pk"] as Int64)")
                for column in row.columnNames where column != "pk" {
                    let isLink = column.hasSuffix("_id") && values[CanonicalCoreDataWriter.entityName(ofTable: String(column.dropLast(3))).prefix(1).lowercased()
                        + CanonicalCoreDataWriter.entityName(ofTable: String(column.dropLast(3))).dropFirst()] != nil
                    let name = isLink ? String(column.dropLast(3)) : column
                    let property = CanonicalCoreDataWriter.entityName(ofTable: name)
                    let key = property.prefix(1).lowercased() + property.dropFirst()
                    let dumpedValue = try #require(values[key], "\(table).\(column) has no property \(key)")
                    #expect(Self.same(row[column] as DatabaseValue, dumpedValue), "\(table) row \(row["pk"] as Int64) \(column): \(row[column] as DatabaseValue) vs \(dumpedValue)")
                    compared += 1
                }
            }
        }
        #expect(compared > 1500)
    }

    /// A canonical cell and the value `dump` prints for it: times as the same instant, UUIDs
    /// and links as the same id, flags as Booleans.
    static func same(_ cell: DatabaseValue, _ value: JSONValue) -> Bool {
        switch (cell.storage, value) {
        case (.null, .null): return true
        case (.string(let text), .string(let other)):
            if text == other { return true }
            if let a = CoreDataDate.secondsSince2001(iso8601: text), let b = CoreDataDate.secondsSince2001(iso8601: other) { return abs(a - b) < 0.001 }
            return false
        case (.int64(let number), .bool(let flag)): return number == (flag ? 1 : 0)
        case (.int64(let number), .number(let other)): return other.double == Double(number)
        case (.double(let number), .number(let other)): return other.double == number
        case (.blob(let bytes), .string(let text)): return Data(base64Encoded: text) == bytes
        default: return false
        }
    }

    /// Tables move in one `INSERT … SELECT` each: the same rows as row by row, every table;
    /// a value the row path refuses sends its table there, which names the row.
    @Test func tablesInBulkHoldWhatRowByRowHolds() throws {
        let canonical = directory.url.appendingPathComponent("samples.ferry").path
        _ = try ConversionJob(inputs: [TestPaths.samples.path], store: canonical, options: ConversionOptions(openArchive: ArchiveReader.opener)).run()
        func written(_ name: String, bulk: Bool) throws -> String {
            var writer = try CanonicalCoreDataWriter(canonicalStore: canonical)
            writer.movesRowsInBulk = bulk
            let path = directory.url.appendingPathComponent(name).path
            try writer.write(to: path, storeUUID: "7E1F0000-0000-4000-8000-000000000001")
            return path
        }
        let (bulk, rows) = (try written("bulk.sqlite", bulk: true), try written("rows.sqlite", bulk: false))
        let tables = try DatabaseQueue(path: rows).read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") }
        #expect(tables.count > 20)
        for table in tables {
            let sql = "SELECT * FROM \(table) ORDER BY 1"
            #expect(try DatabaseQueue(path: bulk).read { try Row.fetchAll($0, sql: sql) } == DatabaseQueue(path: rows).read { try Row.fetchAll($0, sql: sql) }, "\(table)")
        }
        try DatabaseQueue(path: canonical).write { try $0.execute(sql: "UPDATE log SET started_at = 'yesterday' WHERE rowid = 2") }
        for bulk in [true, false] {
            let error = try #require(throws: CoreDataWriteError.self) { try written("damaged-\(bulk).sqlite", bulk: bulk) }
            #expect("\(error)".contains("log row 2: started_at: startedAt is a Date attribute; \"yesterday\" is not an ISO 8601 time in UTC"), "\(error)")
        }
    }

    /// The bulk path leaves out the type checks a `STRICT` table's declared types make true, and
    /// keeps them for a table that is not one: a value of the wrong type there still sends the
    /// table row by row, which names the row, and the bulk path stops on it too.
    @Test func typeChecksAreLeftOutOnlyWhereTheTableHoldsTheType() throws {
        let canonical = directory.url.appendingPathComponent("loose.ferry").path
        _ = try ConversionJob(inputs: [TestPaths.samples.appendingPathComponent("brewguide").path], store: canonical,
                              options: ConversionOptions(openArchive: ArchiveReader.opener)).run()
        let model = try CanonicalCoreDataWriter.canonicalModel()
        let log = try #require(model.entity(named: "Log"))
        func ratingExpression() throws -> String {
            let plan = try DatabaseQueue(path: canonical).read { try CanonicalCoreDataWriter.TablePlan(table: "log", entity: log, model: model, db: $0) }
            let bulk = try #require(BulkValues(plan: plan, database: "canonical"))
            return try #require(bulk.attributes.first { $0.name == "rating" }?.expression)
        }
        #expect(try ratingExpression() == "t.\"rating\"")
        // The same table, not STRICT: SQLite keeps text in a REAL column there.
        try DatabaseQueue(path: canonical).writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            let sql = try #require(try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'log'"))
            #expect(sql.hasSuffix(") STRICT"))
            try db.inTransaction {
                try db.execute(sql: sql.replacingOccurrences(of: "\"log\"", with: "log_loose").replacingOccurrences(of: ") STRICT", with: ")"))
                let columns = try #require(try String.fetchOne(db, sql: "SELECT group_concat(name, ', ') FROM pragma_table_info('log')"))
                try db.execute(sql: "INSERT INTO log_loose (rowid, \(columns)) SELECT rowid, \(columns) FROM log")
                try db.execute(sql: "DROP TABLE log")
                try db.execute(sql: "ALTER TABLE log_loose RENAME TO log")
                try db.execute(sql: "UPDATE log SET rating = 'high' WHERE rowid = 2")
                return .commit
            }
        }
        #expect(try ratingExpression().hasPrefix("CASE WHEN typeof(t.\"rating\") IN ('real', 'null')"))
        for bulk in [true, false] {
            var writer = try CanonicalCoreDataWriter(canonicalStore: canonical)
            writer.movesRowsInBulk = bulk
            let error = try #require(throws: CoreDataWriteError.self) { try writer.write(to: directory.url.appendingPathComponent("loose-\(bulk).sqlite").path) }
            #expect("\(error)".contains("log row 2: rating: rating is a Double attribute"), "\(error)")
        }
        // A to-one naming no row is refused in bulk too (not written empty), and named row by row.
        try DatabaseQueue(path: canonical).writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(sql: "UPDATE log SET rating = NULL, project_id = 'E5E5E5E5-5555-4666-8777-888888888888' WHERE rowid = 2")
        }
        for bulk in [true, false] {
            var writer = try CanonicalCoreDataWriter(canonicalStore: canonical)
            writer.movesRowsInBulk = bulk
            let error = try #require(throws: CoreDataWriteError.self) { try writer.write(to: directory.url.appendingPathComponent("dangling-\(bulk).sqlite").path) }
            #expect("\(error)".contains("log row 2: project_id names") && "\(error)".contains("which no Project has"), "\(error)")
        }
    }

    /// Which checks a `STRICT` table lets go: only those its column's declared type answers.
    /// A flag's 0/1, a small integer's range, a type other than the attribute's, and `ANY` keep theirs.
    @Test func aStrictColumnDropsOnlyTheCheckItsTypeAnswers() throws {
        let model = try ModelParser().parse(data: Data("""
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Item" representedClassName="Item">
                    <attribute name="flag" optional="YES" attributeType="Boolean"/>
                    <attribute name="small" optional="YES" attributeType="Integer 16"/>
                    <attribute name="big" optional="YES" attributeType="Integer 64"/>
                    <attribute name="count" optional="YES" attributeType="Integer 64"/>
                    <attribute name="realCount" optional="YES" attributeType="Integer 64"/>
                    <attribute name="seenAt" optional="YES" attributeType="Date"/>
                    <attribute name="realSeenAt" optional="YES" attributeType="Date"/>
                    <attribute name="name" optional="YES" attributeType="String"/>
                    <attribute name="anything" optional="YES" attributeType="String"/>
                    <attribute name="weight" optional="YES" attributeType="Float"/>
                    <attribute name="bytes" optional="YES" attributeType="Binary"/>
                </entity>
            </model>
            """.utf8), file: "Item.xcdatamodel", versionName: "Item")
        let entity = try #require(model.entity(named: "Item"))
        let columns = """
            flag INTEGER, small INTEGER, big INTEGER, count INT, real_count REAL, seen_at TEXT, real_seen_at REAL,
            name TEXT, anything ANY, weight REAL, bytes BLOB
            """
        let kept = try [" STRICT", ""].map { strictness in
            let queue = try DatabaseQueue()
            let plan = try queue.write { db in
                try db.execute(sql: "CREATE TABLE item (\(columns))\(strictness)")
                return try CanonicalCoreDataWriter.TablePlan(table: "item", entity: entity, model: model, db: db)
            }
            let bulk = try #require(BulkValues(plan: plan, database: "canonical"))
            return Set(bulk.attributes.filter { $0.expression.hasPrefix("CASE WHEN") }.map(\.name))
        }
        #expect(kept[0] == ["flag", "small", "realCount", "realSeenAt", "anything"])
        #expect(kept[1] == Set(entity.attributes.map(\.name)), "a table that is not STRICT keeps every check")
    }

    /// A log's snapshot is looked for at the log's own rowid first: where the two do not line
    /// up (a store whose snapshots were written in another order), each log still gets its own
    /// snapshot, in bulk and row by row.
    @Test func oneToOnesFindTheirRowWhereRowidsDoNotLineUp() throws {
        let canonical = directory.url.appendingPathComponent("shifted.ferry").path
        _ = try ConversionJob(inputs: [TestPaths.samples.appendingPathComponent("brewguide").path], store: canonical,
                              options: ConversionOptions(openArchive: ArchiveReader.opener)).run()
        let expected = try DatabaseQueue(path: canonical).write { db -> [String: String] in
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM log l JOIN log_snapshot s ON s.log_id = l.id AND s.rowid = l.rowid") ?? 0 > 2)
            // Every other snapshot moves away from its log's rowid.
            try db.execute(sql: "UPDATE log_snapshot SET rowid = rowid + 1000 WHERE rowid % 2 = 0")
            return Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT l.id, s.source_type || '/' || coalesce(s.title, '') FROM log l JOIN log_snapshot s ON s.log_id = l.id")
                .map { ($0[0] as String, $0[1] as String) })
        }
        #expect(expected.count > 4)
        for bulk in [true, false] {
            var writer = try CanonicalCoreDataWriter(canonicalStore: canonical)
            writer.movesRowsInBulk = bulk
            let path = directory.url.appendingPathComponent("shifted-\(bulk).sqlite").path
            try writer.write(to: path)
            let found = try DatabaseQueue(path: path).read { db in
                try Row.fetchAll(db, sql: """
                    SELECT l.ZID, s.ZSOURCETYPE || '/' || coalesce(s.ZTITLE, '') FROM ZLOG l JOIN ZLOGSNAPSHOT s ON s.Z_PK = l.ZSNAPSHOT AND s.ZLOG = l.Z_PK
                    """).map { (UUIDText.uppercase($0[0] as Data), $0[1] as String) }
            }
            #expect(Dictionary(uniqueKeysWithValues: found) == expected, "bulk: \(bulk)")
        }
    }

    /// The UUID parser of the bulk path and of `load` reads what Foundation reads, and refuses what it refuses.
    @Test func uuidTextIsReadAsFoundationReadsIt() {
        var texts = (0..<200).map { _ in UUID().uuidString } + (0..<200).map { _ in UUID().uuidString.lowercased() }
        texts += ["", "not a uuid", "E621E1F8-C36C-495A-93FC-0C247A3E6E5", "E621E1F8-C36C-495A-93FC-0C247A3E6E5FF", "E621E1F8C36C-495A-93FC-0C247A3E6E5F-",
                  "G621E1F8-C36C-495A-93FC-0C247A3E6E5F", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"]
        for text in texts {
            let ours = Array(text.utf8).withUnsafeBufferPointer { UUIDText.bytes($0) }
            let foundation = UUID(uuidString: text).map { uuid in withUnsafeBytes(of: uuid.uuid) { [UInt8]($0) } }
            #expect(ours == foundation, "\(text)")
        }
    }

    @Test func theSameInputsGiveTheSameIDsAndKeysOnAnotherMachine() throws {
        // Two copies of the samples in different places with different file times, as two
        // machines would have them.
        var stores: [[String: [String]]] = []
        for (index, place) in ["first/machine", "second"].enumerated() {
            let copy = directory.url.appendingPathComponent(place).appendingPathComponent("Samples")
            try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: TestPaths.samples, to: copy)
            for file in TestPaths.files(under: copy, where: { _ in true }) {
                try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 86_400)], ofItemAtPath: file)
            }
            let (store, _) = try convert([copy.path], to: "\(index).sqlite")
            var ids: [String: [String]] = [:]
            for (entity, records) in try Self.dumped(store, model: Self.canonicalModel) {
                ids[entity] = records.map { "\($0["pk"]?.wholeNumber ?? 0) \($0["id"]?.string ?? "") \($0["values"]?.object?["id"]?.string ?? "-")" }
            }
            stores.append(ids)
        }
        // Every record but the run's own (an import run is this conversion, at this time).
        #expect(Set(stores[0].keys) == Set(stores[1].keys))
        for entity in stores[0].keys.sorted() where entity != "ImportRun" {
            #expect(stores[0][entity] == stores[1][entity], "\(entity)")
        }
        #expect((stores[0]["Log"] ?? []).count == 14)
        #expect(stores[0]["Project"]?.allSatisfy { !$0.hasSuffix(" -") } == true)
    }

    // MARK: Roots into Roots.xcdatamodeld

    static let rootsModelFile = "seedapps/roots/SharedCore__Persistence__Roots.xcdatamodeld__Roots.xcdatamodel__contents"

    @Test(.needsCorpus) func rootsJSONBecomesOneObjectPerSemesterCourseTaskAndSession() throws {
        let model = try modelBundle("Roots", contents: Self.rootsModelFile)
        let roots = TestPaths.samples.appendingPathComponent("roots")
        let (store, report) = try convert([roots.path], to: "Roots.sqlite", appModel: model)
        let records = try Self.dumped(store, model: model)
        func json(_ name: String) throws -> JSONValue { try JSONReader().read(Array(try Data(contentsOf: roots.appendingPathComponent(name)))) }
        let courses = try json("courses.json"), tasks = try json("tasks.json"), timer = try json("TimerState.json")
        let legacy: [(entity: String, records: [JSONValue], links: [String: String])] = [
            ("Semester", courses.object?["semesters"]?.array ?? [], [:]),
            ("Course", courses.object?["courses"]?.array ?? [], ["semesterId": "semester"]),
            ("Assignment", tasks.array ?? [], ["courseId": "course"]),
            ("TimerSession", timer.object?["pastSessions"]?.array ?? [], [:]),
        ]
        for (entity, objects, links) in legacy {
            #expect(!objects.isEmpty)
            let written = Dictionary((records[entity] ?? []).compactMap { record in record["id"]?.string.map { ($0, record) } }, uniquingKeysWith: { a, _ in a })
            #expect(written.count == objects.count, "\(entity)")
            for object in objects {
                let id = try #require(object.object?["id"]?.string)
                let values = try #require(written[id]?["values"]?.object, "\(entity) \(id)")
                for (key, attribute) in links { #expect(values[attribute]?.string == object.object?[key]?.string, "\(entity) \(id) \(key)") }
            }
        }
        // Attachments: in courses and tasks, and the courses' files.
        let owners = (courses.object?["courses"]?.array ?? []) + (tasks.array ?? [])
        let attachments = owners.reduce(0) { $0 + ($1.object?["attachments"]?.array?.count ?? 0) } + (courses.object?["courseFiles"]?.array?.count ?? 0)
        #expect(attachments == 3)
        #expect((records["Attachment"] ?? []).count == attachments)
        #expect(report.coreData?.notMapped.contains { $0.from == "project kind activity" } == true)
    }

    /// Every leaf of the Roots records written is in a value of its object, or the report names
    /// the canonical column or extras key that holds it.
    @Test(.needsCorpus) func everyRootsLeafIsWrittenOrReported() throws {
        let model = try modelBundle("Roots", contents: Self.rootsModelFile)
        let roots = TestPaths.samples.appendingPathComponent("roots")
        let canonical = directory.url.appendingPathComponent("roots.ferry").path
        _ = try ConversionJob(inputs: [roots.path], store: canonical).run()
        let (store, report) = try convert([roots.path], to: "Roots.sqlite", appModel: model)
        let notMapped = Set((report.coreData?.notMapped ?? []).map(\.from))
        var byID: [String: JSONObject] = [:]
        for (_, records) in try Self.dumped(store, model: model) {
            for record in records { if let id = record["id"]?.string, let values = record["values"]?.object { byID[id] = values } }
        }
        // Where each canonical row keeps each value: column or extras key, by record id.
        let queue = try DatabaseQueue(path: canonical)
        defer { try? queue.close() }
        var canonicalValues: [String: [(name: String, value: JSONValue)]] = [:]
        for table in ["project", "log", "attachment"] {
            for row in try queue.read({ try Row.fetchAll($0, sql: "SELECT * FROM \(table)") }) {
                let id: String = row["id"]
                for column in row.columnNames where column != "extras" {
                    let value = (row[column] as DatabaseValue).storage
                    switch value {
                    case .string(let text): canonicalValues[id, default: []].append(("\(table).\(column)", .string(text)))
                    case .int64(let number): canonicalValues[id, default: []].append(("\(table).\(column)", .integer(number)))
                    case .double(let number): canonicalValues[id, default: []].append(("\(table).\(column)", .number(JSONNumber(real: number))))
                    default: break
                    }
                }
                for member in try JSONReader().read(Array((row["extras"] as String).utf8)).object ?? JSONObject() {
                    canonicalValues[id, default: []].append(("\(table).extras.\(member.key)", member.value))
                }
            }
        }
        func equal(_ leaf: JSONValue, _ value: JSONValue, key: String) -> Bool {
            if leaf == value { return true }
            switch (leaf, value) {
            case (.number(let a), .number(let b)): return a.double == b.double
            case (.number(let a), .string(let text)):
                // Dates: seconds since 2001 in Roots' files, ISO 8601 in dumps and canonical rows.
                guard let seconds = a.double, let other = CoreDataDate.secondsSince2001(iso8601: text) else { return false }
                return abs(seconds - other) < 0.001 || (key == "due" && abs(seconds - other) < 86_400)
            case (.bool(let flag), .number(let number)): return number.double == (flag ? 1 : 0)
            case (.string(let a), .string(let b)): return SampleConversionTests.aliases[a] == b || a.uppercased() == b
            default: return false
            }
        }
        var checked = 0
        func check(_ object: JSONObject, file: String) {
            guard let id = object["id"]?.string, let written = byID[id] else { return }
            for member in object where member.key != "recurrence" && member.key != "attachments" {
                if case .array = member.value { continue }
                if case .null = member.value { continue }
                let inValue = written.members.contains { equal(member.value, $0.value, key: member.key) }
                let reported = (canonicalValues[id] ?? []).contains { notMapped.contains($0.name) && equal(member.value, $0.value, key: member.key) }
                #expect(inValue || reported, "\(file) \(id) \(member.key) = \(member.value)")
                checked += 1
            }
            for attachment in object["attachments"]?.array ?? [] { if let attachment = attachment.object { check(attachment, file: file) } }
        }
        func json(_ name: String) throws -> JSONValue { try JSONReader().read(Array(try Data(contentsOf: roots.appendingPathComponent(name)))) }
        for semester in try json("courses.json").object?["semesters"]?.array ?? [] { check(semester.object ?? JSONObject(), file: "courses.json") }
        for course in try json("courses.json").object?["courses"]?.array ?? [] { check(course.object ?? JSONObject(), file: "courses.json") }
        for file in try json("courses.json").object?["courseFiles"]?.array ?? [] { check(file.object ?? JSONObject(), file: "courses.json") }
        for task in try json("tasks.json").array ?? [] { check(task.object ?? JSONObject(), file: "tasks.json") }
        for session in try json("TimerState.json").object?["pastSessions"]?.array ?? [] { check(session.object ?? JSONObject(), file: "TimerState.json") }
        #expect(checked > 80)
        // The recurrence rules are kept whole in the canonical store and reported here.
        #expect(report.coreData?.notMapped.first { $0.from == "project.recurrence" }?.count == 3)
    }

    @Test(.needsCorpus) func aRequiredValueMissingNamesTheRecordAndWritesNothing() throws {
        let model = try modelBundle("Roots", contents: Self.rootsModelFile)
        let input = try directory.write("""
            {"semesters":[{"id":"6F1C2B9E-3D4A-4E5F-8A9B-0C1D2E3F4A5B","semesterTerm":"Fall","startDate":778464000,"endDate":787795200}],"courses":[]}
            """, to: "in/courses.json")
        let target = directory.url.appendingPathComponent("Roots.sqlite").path
        let job = ConversionJob(inputs: [input], store: target)
        let error = #expect(throws: CoreDataWriteError.self) {
            try CoreDataConversion(job: job, appModel: (model, try ModelBundle.opening(model).model())).run()
        }
        #expect(error?.description.contains("courses.json") == true)
        #expect(error?.description.contains("6F1C2B9E-3D4A-4E5F-8A9B-0C1D2E3F4A5B") == true)
        #expect(error?.description.contains("educationLevel") == true)
        #expect(!FileManager.default.fileExists(atPath: target))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".") }.isEmpty)
    }

    /// With --keep-going, a record the model cannot take is set aside and reported, and the rest go in.
    @Test(.needsCorpus) func keepGoingSetsTheRecordAsideAndWritesTheRest() throws {
        let model = try modelBundle("Roots", contents: Self.rootsModelFile)
        let input = try directory.write("""
            {"semesters":[{"id":"6F1C2B9E-3D4A-4E5F-8A9B-0C1D2E3F4A5B","semesterTerm":"Fall","startDate":778464000,"endDate":787795200},
            {"id":"5E0B1A8D-2C39-4D4E-9F8A-1B2C3D4E5F60","semesterTerm":"Spring","educationLevel":"College","startDate":768464000,"endDate":777795200}],"courses":[]}
            """, to: "in/courses.json")
        let target = directory.url.appendingPathComponent("Roots.sqlite").path
        var options = ConversionOptions()
        options.keepGoing = true
        let job = ConversionJob(inputs: [input], store: target, options: options)
        let report = try CoreDataConversion(job: job, appModel: (model, try ModelBundle.opening(model).model())).run()
        #expect(report.rejected.count == 1)
        #expect(report.rejected.first?.key == "6F1C2B9E-3D4A-4E5F-8A9B-0C1D2E3F4A5B")
        #expect(report.rejected.first?.message.contains("educationLevel") == true)
        #expect(report.coreData?.objects["Semester"] == 1)
        #expect(try Self.dumped(target, model: model)["Semester"]?.map { $0["id"]?.string } == ["5E0B1A8D-2C39-4D4E-9F8A-1B2C3D4E5F60"])
        #expect(report.coreData?.notMapped.contains { $0.from.hasPrefix("project kind semester") } == false)
    }

    @Test func aModelFerryHasNoMappingForIsRefusedBeforeAnythingIsRead() throws {
        // Forager's model: neither Roots' nor Molten's (Itori, Roots renamed, would be Roots').
        let model = TestPaths.formats.appendingPathComponent("legacy/Forager.xcdatamodel").path
        let bundle = try ModelBundle.opening(model)
        let target = directory.url.appendingPathComponent("Other.sqlite").path
        let job = ConversionJob(inputs: [directory.url.appendingPathComponent("missing.json").path], store: target)
        let error = #expect(throws: CoreDataWriteError.self) { try CoreDataConversion(job: job, appModel: (model, try bundle.model())).run() }
        #expect(error?.description.contains("Roots (Semester") == true)
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    @Test func anExistingStoreIsBackedUpThenReplaced() throws {
        let roots = TestPaths.samples.appendingPathComponent("roots").path
        let (store, first) = try convert([roots], to: "Ferry.sqlite")
        #expect(first.backup == nil)
        let (_, second) = try convert([TestPaths.samples.appendingPathComponent("molten").path], to: "Ferry.sqlite")
        let backup = try #require(second.backup)
        #expect(try Self.dumped(backup, model: Self.canonicalModel)["Project"]?.count == first.coreData?.objects["Project"])
        #expect(try Self.dumped(store, model: Self.canonicalModel)["Recipe"]?.count == second.coreData?.objects["Recipe"])
    }

    /// The temporary canonical store is checked, foreign keys included (its conversion left them
    /// out), before the Core Data store is put in place: a snapshot naming no log, which no input
    /// makes, fails the conversion with the target named, leaves the store there as it was, and
    /// keeps no backup or temporary file.
    @Test func aDamagedTemporaryStoreFailsTheConversionAndLeavesTheTarget() throws {
        let brewguide = TestPaths.samples.appendingPathComponent("brewguide").path
        let (store, first) = try convert([brewguide], to: "Ferry.sqlite")
        #expect(first.coreData?.objects["LogSnapshot"] ?? 0 > 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
        var damaged = false
        var conversion = CoreDataConversion(job: ConversionJob(inputs: [brewguide], store: store, options: ConversionOptions(openArchive: ArchiveReader.opener)))
        conversion.afterConverting = { canonical in
            try DatabaseQueue(path: canonical).writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA foreign_keys = OFF")
                try db.execute(sql: """
                    INSERT INTO log_snapshot (log_id, source_type, title, parameters)
                    VALUES ('D4D4D4D4-4444-4555-8666-777777777777', 'recipe', 'V60', '{}')
                    """)
            }
            damaged = true
        }
        let error = try #require(throws: StoreError.self) { try conversion.run() }
        #expect(damaged)
        #expect(error.path == store, "the target named, not the temporary store: \(error)")
        #expect("\(error)".contains("integrity check failed: 1 row refers to missing rows, first in log_snapshot (rowid")
                && "\(error)".contains("naming a missing log"), "\(error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        let after = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
        #expect(after == files, "\(after)")
    }

    // MARK: Molten model 5 into model 9

    @Test(.needsCorpus) func moltenModel5BlobsBecomeOrderedRowsOfModel9() throws {
        let model = try modelBundle("Molten", contents: "seedapps/molten/Molten9__contents.xml")
        let source = TestPaths.samples.appendingPathComponent("molten/Molten.sqlite").path
        let (store, report) = try convert([source], to: "Molten9.sqlite", appModel: model)
        let written = try Self.dumped(store, model: model)
        let legacy = try Self.dumped(source, model: TestPaths.formats.appendingPathComponent("legacy/Molten.xcdatamodeld").path)
        func rows(_ entity: String, of owner: String, through relationship: String) -> [JSONObject] {
            (written[entity] ?? []).compactMap { $0["values"]?.object }.filter { $0[relationship]?.string == owner }
                .sorted { ($0["orderIndex"]?.wholeNumber ?? 0) < ($1["orderIndex"]?.wholeNumber ?? 0) }
        }
        func sameItems(_ blob: [JSONValue], _ rows: [JSONObject], _ place: String) {
            let items: [JSONObject] = blob.map { $0.object ?? JSONObject() }
            let ids: [String?] = items.map { $0["id"]?.string }
            #expect(rows.map { $0["id"]?.string } == ids, "\(place) ids in order")
            let keys: [String?] = items.map { $0["naturalKey"]?.string ?? $0["stableId"]?.string }
            #expect(rows.map { $0["itemNaturalKey"]?.string } == keys, "\(place)")
            let quantities: [Double?] = items.map { item -> Double? in
                guard let quantity = item["quantity"] else { return nil }
                return quantity.realNumber ?? quantity.string.flatMap { Double($0) }
            }
            #expect(rows.map { $0["quantity"]?.realNumber } == quantities, "\(place)")
            let notes: [String?] = items.map { $0["notes"]?.string }
            #expect(rows.map { $0["notes"]?.string } == notes, "\(place)")
        }
        var blobs = 0
        for plan in legacy["ProjectPlan"] ?? [] {
            let values = try #require(plan["values"]?.object), id = try #require(plan["id"]?.string)
            sameItems(values["glass_items_data"]?.array ?? [], rows("ProjectGlassItem", of: id, through: "plan"), "plan \(id)")
            let urls = rows("ProjectReferenceUrl", of: id, through: "plan")
            #expect(urls.map { $0["url"]?.string } == (values["reference_urls_data"]?.array ?? []).map { $0.object?["url"]?.string })
            let tags = (written["UserTags"] ?? []).compactMap { $0["values"]?.object }.filter { $0["owner_id"]?.string == id }.map { $0["tag"]?.string ?? "" }
            #expect(tags == (values["tags"]?.array ?? []).map { $0.string ?? "" })
            blobs += (values["glass_items_data"]?.array?.count ?? 0) + (values["reference_urls_data"]?.array?.count ?? 0) + tags.count
        }
        for step in legacy["ProjectStep"] ?? [] {
            let values = try #require(step["values"]?.object), id = try #require(step["id"]?.string)
            sameItems(values["glass_items_needed_data"]?.array ?? [], rows("ProjectStepGlassItem", of: id, through: "step"), "step \(id)")
        }
        for log in legacy["ProjectLog"] ?? [] {
            let values = try #require(log["values"]?.object), id = try #require(log["id"]?.string)
            sameItems(values["glass_items_data"]?.array ?? [], rows("LogbookGlassItem", of: id, through: "log"), "log \(id)")
            let techniques = (written["ProjectTechnique"] ?? []).compactMap { $0["values"]?.object }.filter { $0["log"]?.string == id }
            #expect(Set(techniques.map { $0["technique"]?.string ?? "" }) == Set((values["techniques_used"]?.array ?? []).map { $0.string ?? "" }))
            let logbook = try #require((written["Logbook"] ?? []).first { $0["id"]?.string == id }?["values"]?.object)
            #expect(logbook["based_on_plan_id"]?.string == values["based_on_plan_id"]?.string)
            #expect(logbook["hours_spent"]?.realNumber == values["hours_spent"]?.realNumber)
            #expect(logbook["price_point"]?.realNumber == values["price_point"]?.realNumber)
        }
        #expect(blobs == 6)
        #expect((written["Project"] ?? []).count == (legacy["ProjectPlan"] ?? []).count)
        #expect(report.coreData?.notMapped.map(\.from) == ["log_snapshot"])
    }
}

extension JSONValue {
    /// A number's value as a whole number, nil for anything else.
    fileprivate var wholeNumber: Int64? {
        if case .number(let number) = self { return number.int64 }
        return nil
    }

    /// A number's value, nil for anything else.
    fileprivate var realNumber: Double? {
        if case .number(let number) = self { return number.double }
        return nil
    }
}
