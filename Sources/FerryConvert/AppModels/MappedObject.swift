import FerryCoreData
import FerryJSON
import FerryModel
import FerryCanonical
import FerryStore

/// One canonical row on its way to an object of an app's model: the attribute values taken
/// from its columns and its `extras`, and a record of which of them were taken, so that every
/// value left over is reported (``leftovers``).
struct MappedObject {
    let row: CanonicalRows.Row
    let entity: EntityDescription
    let model: DataModel
    private(set) var extras: JSONObject
    private(set) var values: [String: CoreDataCell] = [:]
    /// Ferry's own mark of the times it made up is about the canonical row, not a value of the app's.
    private var used: Set<String> = Set([SharedColumns.extras, SharedColumns.sourceApp, SharedColumns.sourceEntity, SharedColumns.sourceKey,
                                          SharedColumns.sourceFile, RecipeTable.kind].map(\.name) + ["extras.\(SynthesizedTimes.key)"])
    /// Sources whose attribute this version of the model lacks: reported with the leftovers.
    private var unheld: [String] = []
    /// Whether an `extras` key that is not there sets its attribute to null (a store's value
    /// carried over, as a migration does) rather than leaving it to the model's default (a new
    /// object, as the app makes from its files).
    let absentIsNull: Bool

    init(_ row: CanonicalRows.Row, as entityName: String, in model: DataModel, absentIsNull: Bool = false) throws {
        guard let entity = model.entity(named: entityName) else {
            throw CoreDataWriteError(kind: .unknownEntity(entityName), file: row.text(SharedColumns.sourceFile) ?? row.table)
        }
        self.row = row
        self.absentIsNull = absentIsNull
        self.entity = entity
        self.model = model
        let text = row.text(SharedColumns.extras) ?? "{}"
        // The canonical store's rule keeps extras a JSON object; one that is not is damage to report, not to drop.
        do {
            guard let object = try JSONReader().read(Array(text.utf8)).object else {
                throw CoreDataWriteError(kind: .cannotWrite("\(row.table) \(row.text(SharedColumns.id) ?? "row \(row.rowid)"): extras is not a JSON object"),
                                         file: row.text(SharedColumns.sourceFile) ?? row.table)
            }
            extras = object
        } catch let error as JSONReadError {
            throw CoreDataWriteError(kind: .cannotWrite("\(row.table) \(row.text(SharedColumns.id) ?? "row \(row.rowid)"): extras is not valid JSON (\(error))"),
                                     file: row.text(SharedColumns.sourceFile) ?? row.table)
        }
    }

    /// The legacy file the record came from, which errors name (the table, for parts).
    var file: String { row.text(SharedColumns.sourceFile) ?? row.table }

    /// How errors name the record: its table and id.
    var location: String { "\(row.table) \(row.text(SharedColumns.id) ?? "row \(row.rowid)")" }

    /// The first of an attribute's names across the app's model versions that this version has
    /// (the first, to be reported as unheld, when it has none).
    func attribute(_ names: String...) -> String {
        names.first(where: has) ?? names[0]
    }

    func has(_ attribute: String) -> Bool {
        model.allAttributes(of: entity).contains { $0.name == attribute }
    }

    /// Sets `attribute` from a column, converted to the attribute's type.
    mutating func column(_ column: CanonicalColumn, to attribute: String) throws {
        used.insert(column.name)
        try set(attribute, row[column], from: column.name)
    }

    /// Sets attributes from columns, each `column: attribute`, in the order given.
    mutating func columns(_ pairs: KeyValuePairs<CanonicalColumn, String>) throws {
        for (column, attribute) in pairs { try self.column(column, to: attribute) }
    }

    /// Sets each attribute from the `extras` key of its own name.
    mutating func extras(_ keys: [String]) throws {
        for key in keys { try extra(key, to: key) }
    }

    /// Sets `attribute` from a key of `extras` (a legacy field with no canonical column).
    mutating func extra(_ key: String, to attribute: String) throws {
        used.insert("extras.\(key)")
        guard let value = extras[key] else {
            if absentIsNull { try set(attribute, .null, from: "extras.\(key)") }
            return
        }
        let cell: CoreDataCell
        switch value {
        case .null: cell = .null
        case .string(let text): cell = .text(text)
        case .bool(let flag): cell = .integer(flag ? 1 : 0)
        case .number(let number): cell = number.int64.map(CoreDataCell.integer) ?? number.double.map(CoreDataCell.real) ?? .null
        default:
            throw CoreDataWriteError(kind: .refused("extras.\(key) is a JSON \(value.kindName), which \(entity.name).\(attribute) cannot hold",
                                                    record: location), file: file)
        }
        try set(attribute, cell, from: "extras.\(key)")
    }

    /// Sets `attribute` to a value made from the named columns or `extras` keys.
    mutating func set(_ attribute: String, _ value: CoreDataCell, from source: String) throws {
        guard let description = model.allAttributes(of: entity).first(where: { $0.name == attribute }) else {
            // Another version of the app's model (an older one, a trimmed one) may lack it: the
            // value is reported as having no place, as any other leftover, not a failure.
            // Reported whatever else reads the same source later (a `use` does not hide it).
            if value != .null && !unheld.contains(source) { unheld.append(source) }
            return
        }
        do {
            values[attribute] = try AttributeCells.cell(value, as: description)
        } catch {
            throw CoreDataWriteError(kind: .refused("\(source): \(error.reason)", record: location), file: file)
        }
    }

    /// Columns accounted for without an attribute of their own: derived by Ferry, or read into
    /// another attribute.
    mutating func use(_ columns: CanonicalColumn...) {
        used.formUnion(columns.map(\.name))
    }

    /// `extras` keys accounted for so.
    mutating func use(extras keys: String...) {
        used.formUnion(keys.map { "extras.\($0)" })
    }

    /// The values with no attribute: columns that hold something (a flag that is set, any other
    /// non-null value) and `extras` keys, as `<table>.<column>` and `<table>.extras.<key>`.
    var leftovers: [String] {
        var names: [String] = []
        for (column, value) in row.values where !used.contains(column) && value != .null {
            if column.hasPrefix("is_"), value == .integer(0) { continue }
            names.append("\(row.table).\(column)")
        }
        for member in extras.members where !used.contains("extras.\(member.key)") {
            names.append("\(row.table).extras.\(member.key)")
        }
        return names + unheld.map { "\(row.table).\($0)" }.filter { !names.contains($0) }
    }

    /// The values for the writer, with the model's defaults for those not set.
    /// - Throws: when a required attribute has no value.
    func completedValues() throws -> [String: CoreDataCell] {
        var values = self.values
        let missing = AttributeCells.complete(&values, of: entity, in: model)
        guard missing.isEmpty else {
            throw CoreDataWriteError(kind: .refused("\(entity.name) requires \(missing.joined(separator: ", ")), which the record has no value for",
                                                    record: location), file: file)
        }
        return values
    }
}
