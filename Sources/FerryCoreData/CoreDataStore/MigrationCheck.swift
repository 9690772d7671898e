import FerryJSON
import FerryModel
import Foundation

/// What a migration from one model version to another would do to the records a store holds:
/// every record that would make it fail or lose data, by kind. Core Data finds these at launch,
/// on the users' devices; this finds them before shipping.
///
/// For example:
/// ```swift
/// let report = try MigrationCheck(store: reader, new: newModel).run()
/// report.failures == 0   // the migration would succeed on this store
/// report.losses == 0     // and keep every value it holds
/// ```
public struct MigrationCheck {
    public let reader: CoreDataStoreReader
    public let new: DataModel

    /// - Parameters:
    ///   - reader: the store, read with the version it was made with (its `model`).
    ///   - new: the version the app will migrate it to.
    public init(store reader: CoreDataStoreReader, new: DataModel) {
        self.reader = reader
        self.new = new
    }

    public func run() throws -> MigrationCheckReport {
        let old = reader.model
        var plans: [String: EntityPlan] = [:]
        for entity in new.entities {
            guard let before = old.entities.first(where: { $0.name == entity.renamingIdentifier }) ?? old.entity(named: entity.name),
                  plans[before.name] == nil else { continue }
            plans[before.name] = EntityPlan(old: before, new: entity, oldModel: old, newModel: new)
        }
        var report = MigrationCheckReport(store: reader.path, oldVersion: old.versionName, newVersion: new.versionName)
        var tuples: [String: [String: [String]]] = [:]  // entity → constraint key → record ids
        _ = try reader.forEachRecord { record in
            guard let plan = plans[record.entity] else {
                report.add(MigrationProblem(kind: .recordDropped, entity: record.entity, record: record.id, property: "", value: "",
                                            detail: "\(record.entity) is not in the new version: the migration drops its rows"))
                return
            }
            for problem in plan.problems(record) { report.add(problem) }
            for (constraint, key) in plan.uniquenessKeys(record) {
                tuples[plan.new.name, default: [:]]["\(constraint)\u{1F}\(key)", default: []].append(record.id)
            }
        }
        for (entity, keys) in tuples.sorted(by: { $0.key < $1.key }) {
            for (key, ids) in keys.sorted(by: { $0.key < $1.key }) where ids.count > 1 {
                let parts = key.split(separator: "\u{1F}", maxSplits: 1).map(String.init)
                report.add(MigrationProblem(kind: .duplicateUnderConstraint, entity: entity, record: ids.dropFirst().joined(separator: ", "),
                                            property: parts.first ?? "", value: parts.count > 1 ? parts[1] : "",
                                            detail: "the same \(parts.first ?? "") as \(ids[0]) under the new uniqueness constraint"))
            }
        }
        return report
    }
}

/// What one entity's records are checked for, worked out once from the two versions.
struct EntityPlan {
    let new: EntityDescription
    /// (new attribute, the old attribute it comes from, or nil when it is new)
    var attributes: [(new: AttributeDescription, old: AttributeDescription?)] = []
    var requiredToOnes: [(new: RelationshipDescription, old: RelationshipDescription?)] = []
    /// Old stored properties whose values the migration does not carry, with why.
    var dropped: [DroppedProperty] = []
    /// New uniqueness constraints the old version did not have.
    var constraints: [[String]] = []

    init(old: EntityDescription, new: EntityDescription, oldModel: DataModel, newModel: DataModel) {
        self.new = new
        let oldAttributes = oldModel.allAttributes(of: old)
        for attribute in newModel.allAttributes(of: new) where !attribute.isTransient && !attribute.isDerived {
            // As Core Data matches: by renaming identifier, then by name (two attributes that swap
            // names by identifier are two renames, not two type changes).
            let before = oldAttributes.first { $0.name == attribute.renamingIdentifier } ?? oldAttributes.first { $0.name == attribute.name }
            attributes.append((attribute, before?.isTransient == true ? nil : before))
        }
        let oldRelationships = oldModel.allRelationships(of: old)
        for relationship in newModel.allRelationships(of: new) where !relationship.isToMany && !relationship.isOptional && !relationship.isTransient {
            let before = oldRelationships.first { $0.name == relationship.renamingIdentifier } ?? oldRelationships.first { $0.name == relationship.name }
            requiredToOnes.append((relationship, before))
        }
        dropped = DroppedProperty.find(old: old, new: new, oldModel: oldModel, newModel: newModel)
        let existing = Set(old.uniquenessConstraints.map { $0.joined(separator: ",") })
        constraints = new.uniquenessConstraints.filter { !existing.contains($0.joined(separator: ",")) }
    }

    func problems(_ record: CoreDataRecord) -> [MigrationProblem] {
        var found: [MigrationProblem] = []
        func problem(_ kind: MigrationProblem.Kind, _ property: String, _ value: JSONValue?, _ detail: String) {
            found.append(MigrationProblem(kind: kind, entity: new.name, record: record.id, property: property,
                                          value: value.map(Self.text) ?? "nil", detail: detail))
        }
        for (attribute, before) in attributes {
            let value = before.flatMap { record.values[$0.name] } ?? .null
            if value == .null {
                if !attribute.isOptional && !attribute.hasDefault {
                    problem(.nullInRequired, attribute.name, nil, before == nil
                        ? "a new required attribute without a default value"
                        : "required in the new version, with no default value")
                }
                continue
            }
            if let before, before.type != attribute.type, !Self.converts(value, to: attribute.type) {
                problem(.doesNotConvert, attribute.name, value, "\(before.type.rawValue) does not convert to \(attribute.type.rawValue)")
                continue
            }
            if let reason = Self.outOfRange(value, attribute) { problem(.outOfRange, attribute.name, value, reason) }
        }
        for (relationship, before) in requiredToOnes {
            let value = before.flatMap { record.values[$0.name] } ?? .null
            if value == .null { problem(.emptyRequiredRelationship, relationship.name, nil,
                                                    "a required to-one relationship with no object (only a mapping model can set it)") }
        }
        for property in dropped {
            if let value = property.lostValue(in: record) { problem(.valueDropped, property.name, value, property.reason) }
        }
        return found
    }

    /// Each new uniqueness constraint's value tuple for the record, as text.
    func uniquenessKeys(_ record: CoreDataRecord) -> [(String, String)] {
        constraints.map { names in
            (names.joined(separator: ", "), names.map { record.values[$0].map(Self.text) ?? "nil" }.joined(separator: " | "))
        }
    }

    static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): return text
        case .number(let number): return number.text
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return "nil"
        default: return JSONWriter.string(value)
        }
    }

    /// Whether Core Data's conversion of a stored value to `type` keeps it (numbers to narrower
    /// integers within range, text to numbers when it is one, anything to text).
    static func converts(_ value: JSONValue, to type: AttributeType) -> Bool {
        switch type {
        case .string: return true
        case .integer16, .integer32, .integer64:
            let number: Int64?
            switch value {
            case .number(let n): number = n.int64
            case .string(let text): number = Int64(text.trimmingCharacters(in: .whitespaces))
            case .bool(let flag): number = flag ? 1 : 0
            default: number = nil
            }
            guard let number, let range = type.integerRange else { return false }
            return range.contains(number)
        case .double, .float, .decimal:
            switch value {
            case .number: return true
            case .string(let text): return Double(text.trimmingCharacters(in: .whitespaces)) != nil
            case .bool: return true
            default: return false
            }
        case .boolean:
            if case .bool = value { return true }
            if case .number(let n) = value { return n.int64 == 0 || n.int64 == 1 }
            return false
        default:
            return false
        }
    }

    /// Why a value breaks the new version's bounds (numbers by value, text by length), or nil.
    static func outOfRange(_ value: JSONValue, _ attribute: AttributeDescription) -> String? {
        let measured: Double?
        let what: String
        switch (attribute.type, value) {
        case (.string, .string(let text)): (measured, what) = (Double(text.count), "length")
        case (_, .number(let number)) where attribute.type.isNumeric: (measured, what) = (number.double, "value")
        default: return nil
        }
        guard let measured else { return nil }
        if let minimum = attribute.minValue.flatMap(Double.init), measured < minimum {
            return "\(what) \(Self.number(measured)) is below the new minimum \(attribute.minValue ?? "")"
        }
        if let maximum = attribute.maxValue.flatMap(Double.init), measured > maximum {
            return "\(what) \(Self.number(measured)) is above the new maximum \(attribute.maxValue ?? "")"
        }
        return nil
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
