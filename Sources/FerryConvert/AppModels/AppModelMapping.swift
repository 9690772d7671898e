import FerryCanonical
import FerryCoreData
import FerryModel
import FerryStore

/// Writes converted records into an app's own Core Data model (`ferry convert --as core-data
/// --model APP_MODEL`): which canonical record becomes which object, which value which
/// attribute. Whatever the model has no place for is reported, never dropped in silence.
protocol AppModelMapping: Sendable {
    /// The app and the entities that identify its model.
    var app: String { get }
    var entities: [String] { get }
    func write(_ rows: CanonicalRows, model: DataModel, into writer: CoreDataStoreWriter, notMapped: inout NotMappedTally,
               attempts: RecordAttempts) throws -> [String: Int]
}

/// One record's mapping at a time: a record the model cannot take (a required value missing,
/// a value of the wrong type) stops the conversion, or with `--keep-going` is set aside and
/// reported while the others go in.
final class RecordAttempts {
    let keepGoing: Bool
    private(set) var rejected: [(file: String, key: String?, message: String)] = []
    /// The ids of the records set aside.
    private(set) var rejectedIDs: Set<String> = []

    init(keepGoing: Bool) {
        self.keepGoing = keepGoing
    }

    func run(_ row: CanonicalRows.Row, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as CoreDataWriteError where keepGoing {
            rejected.append((row.text(SharedColumns.sourceFile) ?? row.table, row.text(SharedColumns.id), error.reason))
            if let id = row.text(SharedColumns.id) { rejectedIDs.insert(id) }
        }
    }
}

extension AppModelMapping {
    func accepts(_ model: DataModel) -> Bool { entities.allSatisfy { model.entity(named: $0) != nil } }

    func write(canonicalStore: String, model: DataModel, modelPath: String, to path: String, replacing: Bool,
               keepGoing: Bool, beforePublishing: () throws -> Void) throws -> (output: CoreDataOutput, rejected: [(file: String, key: String?, message: String)]) {
        let rows = try CanonicalRows(path: canonicalStore)
        let writer = try CoreDataStoreWriter(creating: path, model: model, replacing: replacing)
        var notMapped = NotMappedTally()
        let attempts = RecordAttempts(keepGoing: keepGoing)
        let objects = try write(rows, model: model, into: writer, notMapped: &notMapped, attempts: attempts)
        // A store holding none of the input is a wrong model, not a success; the writer's
        // unfinished file goes with it.
        if objects.values.reduce(0, +) == 0, !notMapped.entries.isEmpty {
            let records = notMapped.entries.map { "\($0.count) \($0.from)" }.joined(separator: ", ")
            throw CoreDataWriteError(kind: .noMapping("nothing of the input fits the \(app) model: \(records) have no place in it; "
                + "give the model of the app the data came from, or leave out --model to write the canonical model"), file: modelPath)
        }
        try writer.finish(beforePublishing: beforePublishing)
        return (CoreDataOutput(model: modelPath, objects: objects, notMapped: notMapped.entries), attempts.rejected)
    }
}

/// The apps whose own models Ferry writes into.
enum AppModelMappings {
    static let all: [any AppModelMapping] = [RootsModelMapping(), MoltenModelMapping()]

    static func mapping(for model: DataModel, at path: String) throws -> any AppModelMapping {
        guard let mapping = all.first(where: { $0.accepts(model) }) else {
            let known = all.map { "\($0.app) (\($0.entities.joined(separator: ", ")))" }.joined(separator: "; ")
            throw CoreDataWriteError(kind: .noMapping("Ferry writes converted data into the models of \(known); this model is none of them "
                + "(leave out --model to write the canonical model, Formats/canonical/Ferry.xcdatamodeld)"), file: path)
        }
        return mapping
    }
}
