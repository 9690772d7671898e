import FerryArchive
import FerryCanonical
import FerryConvert
import FerryTestSupport
import Foundation
import GRDB
import Testing

/// BrewGuide's store logs read typed (no record objects) must come out exactly as the general
/// reading makes them, rows it leaves to the general reading included.
@Suite struct TypedStoreRowsTests {
    let directory = TemporaryDirectory("ferry-typed-rows")

    /// The sample store, with logs of every kind the typed reading takes or leaves.
    func store() throws -> String {
        let path = directory.url.appendingPathComponent("BrewGuide.store").path
        try SampleStores.brewGuide(path)
        try DatabaseQueue(path: path).write { db in
            let number = try Int.fetchOne(db, sql: "SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'BrewLog'") ?? 0
            let recipe = try Int.fetchOne(db, sql: "SELECT Z_PK FROM ZRECIPE LIMIT 1")
            var key = try Int.fetchOne(db, sql: "SELECT max(Z_PK) FROM ZBREWLOG") ?? 0
            func log(_ id: (any DatabaseValueConvertible)?, _ values: [String: (any DatabaseValueConvertible)?]) throws {
                key += 1
                let names = ["Z_PK", "Z_ENT", "Z_OPT", "ZID"] + values.keys.sorted()
                let arguments: [(any DatabaseValueConvertible)?] = [key, number, 1, id] + values.keys.sorted().map { values[$0]! }
                try db.execute(sql: "INSERT INTO ZBREWLOG (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))",
                               arguments: StatementArguments(arguments))
            }
            func uuid(_ n: Int) -> Data { CoreDataStoreBuilder.uuid(String(format: "B9B9B9B9-1111-4222-8333-%012d", n)) }
            try log(uuid(1), ["ZTIMESTAMP": 782_639_100.380816, "ZRATING": 4, "ZRECIPE": recipe, "ZDOSEGRAMS": 15.5, "ZTARGETYIELDGRAMS": 250,
                               "ZWATERTEMPERATURECELSIUS": 94, "ZGRINDLABEL": "medium", "ZMETHOD": "v60", "ZTASTETAG": "too_sour",
                               "ZRECIPENAMEATBREW": "V60 Balanced", "ZNOTE": "bright"])
            try log(uuid(2), ["ZTIMESTAMP": nil, "ZRATING": nil, "ZMETHOD": "aeropress"])                  // no time: synthesized
            try log(uuid(3), ["ZTIMESTAMP": 1, "ZRATING": 9])                                                // rating out of range: rejected
            try log(uuid(4), ["ZDOSEGRAMS": "fifteen", "ZRECIPE": 999])                                       // text in a number; a recipe no row has
            try log(Data(repeating: 0, count: 16), ["ZMETHOD": "chemex"])                                   // the nil UUID
            try log(uuid(6), ["ZTIMESTAMP": 1e300])                                                          // a date out of range
            try log(uuid(7), ["ZMETHOD": "v60"])
            try log(uuid(7), ["ZMETHOD": "v60"])                                                             // one UUID twice: named by key
            try log(uuid(8), ["ZTIMESTAMP": -31_000_000_000.5, "ZTASTETAG": "mystery", "ZGRINDLABEL": "Fine"]) // year 1018; unknown enum values
        }
        return path
    }

    func convert(_ path: String, typed: Bool) throws -> (TableContents, ConversionReport) {
        var options = ConversionOptions(keepGoing: true, openArchive: ArchiveReader.opener)
        options.readsStoreRowsTyped = typed
        let out = directory.url.appendingPathComponent("\(typed ? "typed" : "general").ferry").path
        let report = try ConversionJob(inputs: [path], store: out, options: options).run()
        var contents = try TableContents(path: out)
        // When it ran and how long it took differ by nature.
        contents.tables["import_run"] = nil
        return (contents, report)
    }

    @Test func typedRowsConvertAsTheGeneralReadingDoes() throws {
        let path = try store()
        let (typed, typedReport) = try convert(path, typed: true)
        let (general, generalReport) = try convert(path, typed: false)
        #expect(typed.differences(from: general).isEmpty, "\(typed.differences(from: general).prefix(5))")
        #expect((typed.tables["log"]?.count ?? 0) >= 8)
        #expect(typedReport.rejected.map(\.message) == generalReport.rejected.map(\.message))
        #expect(typedReport.rejected.count >= 2)
        #expect(typedReport.counts == generalReport.counts)
        #expect(typedReport.synthesized.map(\.field) == generalReport.synthesized.map(\.field))
    }
}
