import FerryArchive
import FerryJSON
import FerryCoreData
import FerryTestSupport
import Foundation
import GRDB

/// A leaf value of a sample input and where it is: `Samples/roots/tasks.json` `[2].recurrence.interval`.
struct Leaf: CustomStringConvertible {
    var file: String
    var path: [String]
    var value: JSONValue

    var key: String { path.last(where: { Int($0) == nil }) ?? "" }
    var description: String { "\((file as NSString).lastPathComponent) \(path.joined(separator: ".")) = \(value)" }
}

/// Every leaf value of every sample input, read with readers other than the conversion's own
/// where there are any: JSON files and the `.molten` export's `plan.json`, and the rows of the
/// sample stores (relationship values, which are row ids, left out).
enum SampleLeaves {
    static func all() throws -> [Leaf] {
        var leaves: [Leaf] = []
        let samples = TestPaths.samples
        for relative in ["roots/courses.json", "roots/tasks.json", "roots/grades.json", "roots/planner.json",
                         "roots/assignment_plans.json", "roots/TimerState.json", "brewguide/recipes.json", "molten/glassitems.json"] {
            let path = samples.appendingPathComponent(relative).path
            collect(try JSONReader().read(Array(try Data(contentsOf: URL(fileURLWithPath: path)))), file: path, path: [], into: &leaves)
        }
        let ndjson = samples.appendingPathComponent("brewguide/brewlogs.ndjson").path
        for (number, line) in try String(contentsOfFile: ndjson, encoding: .utf8).split(separator: "\n").enumerated() {
            collect(try JSONReader().read(Array(line.utf8)), file: ndjson, path: ["\(number)"], into: &leaves)
        }
        let export = samples.appendingPathComponent("molten/Boro Fish.molten").path
        let archive = try ArchiveReader(path: export)
        while let entry = try archive.next() {
            let data = try archive.readData(limit: 1 << 20)
            if entry.path == "plan.json" { collect(try JSONReader().read(Array(data)), file: export, path: [], into: &leaves) }
        }
        let stores: [(String, String?)] = [
            ("molten/Molten.sqlite", "Formats/legacy/Molten.xcdatamodeld"), ("forager/Forager.sqlite", "Formats/legacy/Forager.xcdatamodel"),
            ("photoapp/PhotoApp.sqlite", "Formats/legacy/PhotoApp.xcdatamodel"), ("brewguide/BrewGuide.store", nil),
        ]
        for (relative, model) in stores {
            let path = samples.appendingPathComponent(relative).path
            let reader = try CoreDataStoreReader(path: path, model: model.map { TestPaths.packageRoot.appendingPathComponent($0).path })
            try reader.forEachRecord { record in
                guard let entity = reader.model.entity(named: record.entity) else { return }
                let relationships = Set(reader.model.allRelationships(of: entity).map(\.name))
                for member in record.values where !relationships.contains(member.key) {
                    collect(member.value, file: path, path: ["\(record.entity)/\(record.primaryKey)", member.key], into: &leaves)
                }
            }
        }
        return leaves
    }

    private static func collect(_ value: JSONValue, file: String, path: [String], into leaves: inout [Leaf]) {
        switch value {
        case .object(let object):
            for member in object { collect(member.value, file: file, path: path + [member.key], into: &leaves) }
        case .array(let elements):
            for (index, element) in elements.enumerated() { collect(element, file: file, path: path + ["\(index)"], into: &leaves) }
        case .null:
            return
        default:
            leaves.append(Leaf(file: file, path: path, value: value))
        }
    }
}

/// Every value a canonical store holds: its cells, and the leaves of its JSON columns
/// (extras, snapshot parameters, recurrence).
struct StoreValues {
    var strings: Set<String> = []
    var numbers: Set<Double> = []

    init(path: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try queue.read { db in
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") {
                for row in try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\"") {
                    for value in row.databaseValues { add(value) }
                }
            }
        }
        try queue.close()
    }

    private mutating func add(_ value: DatabaseValue) {
        switch value.storage {
        case .int64(let number): numbers.insert(Double(number))
        case .double(let number): numbers.insert(number)
        case .string(let text):
            strings.insert(text)
            if let number = Double(text) { numbers.insert(number) }
            if text.hasPrefix("{") || text.hasPrefix("["), let json = try? JSONReader().read(Array(text.utf8)) { add(json) }
        default: break
        }
    }

    private mutating func add(_ json: JSONValue) {
        switch json {
        case .string(let text): strings.insert(text)
        case .number(let number): if let double = number.double { numbers.insert(double) }
        case .bool(let flag): numbers.insert(flag ? 1 : 0)
        case .array(let elements): for element in elements { add(element) }
        case .object(let object): for member in object { add(member.value) }
        case .null: break
        }
    }
}
