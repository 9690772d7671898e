import FerryJSON
import FerryModel
import Foundation

extension CoreDataDumpLoader {
    /// The third pass: the to-manys of the records that list objects in one, read again (files
    /// with none are not read), once the rows they link are all in.
    func linkRecords(in files: [String], indexed: IndexedRecords, written: WrittenRows, into writer: CoreDataStoreWriter) throws {
        // By destination (abstract ones too): which records' entities may be one.
        let kinds = Dictionary(model.entities.map { ($0.name, Self.kinds(leadingTo: $0.name, index: indexed.index, writer: writer)) },
                               uniquingKeysWith: { a, _ in a })
        var reader = JSONDocumentReader()
        var noInverseOwners: [String: String] = [:]
        for (number, file) in files.enumerated() where indexed.files[number].contains(where: { written.listing[$0] }) {
            var entry = indexed.files[number].lowerBound
            try forEachRecord(in: file) { bytes, line in
                defer { entry += 1 }
                guard written.listing[entry] else { return }
                let record = try record(bytes, at: RecordLocation(file: file, record: line), reader: &reader)
                let place = try indexed.place(of: record, entry: entry, file: number, line: line)
                try link(record, key: place.primaryKey, into: writer, index: indexed.index, kinds: kinds,
                         joinLists: written.joinLists, noInverseOwners: &noInverseOwners)
            }
        }
    }

    /// To-manys, once each: an ordered one's order on its destinations' to-one inverse; a join
    /// table from its first column's side, with both sides' orders; one without an inverse.
    private func link(_ record: Record, key pk: Int64, into writer: CoreDataStoreWriter, index: DumpKeyIndex, kinds: [String: [Bool]],
                      joinLists: [String: [String: JoinListing]], noInverseOwners: inout [String: String]) throws {
        for relationship in model.allRelationships(of: record.entity) where relationship.isToMany {
            guard let listed = record.values[relationship.name], !listed.isNull else { continue }
            var here = record.location
            here.field = relationship.name
            let ids = listed.array?.compactMap(\.string) ?? []
            // A destination the model lacks: no record may be one.
            let allowed = kinds[relationship.destinationEntity ?? ""] ?? index.entityNames.map { _ in false }
            let targets = try ids.map { id in
                let entry = try target(.string(id), of: relationship.name, leadingTo: relationship.destinationEntity ?? "nothing", kinds: allowed,
                                       index: index, at: here)
                return (entity: index.entityNames[Int(entry.entity)], primaryKey: entry.primaryKey)
            }
            guard Set(ids).count == ids.count else { throw CoreDataReadError(.badRecord("an id is listed twice"), at: here) }
            // Stored orders (lossless), else the listed order: 1, 2, …
            let order = try Self.orders(record.orders[relationship.name], count: ids.count, at: here)
            do {
                switch writer.layout.storage(ofRelationship: relationship.name, in: record.entity) {
                case .inverseForeignKey(_, _, let orderColumn) where relationship.inverseName != nil:
                    // The destinations' to-ones hold the link; an ordered list gives their order.
                    let inverse = relationship.inverseName ?? ""
                    let number = writer.layout.entityNumbers[record.entity.name].map(Int64.init)
                    for (id, target) in zip(ids, targets) {
                        let back = try writer.destination(ofToOne: inverse, of: target.entity, primaryKey: target.primaryKey)
                        guard let back, back.primaryKey == pk, back.entity == nil || back.entity == number else {
                            throw CoreDataReadError(.badRecord("lists \(id), whose \(inverse) does not name \(record.id) back"), at: here)
                        }
                    }
                    guard orderColumn != nil else { continue }
                    for (place, target) in targets.enumerated() {
                        try writer.setOrder(target.entity, primaryKey: target.primaryKey, inverse: inverse, order: order[place])
                    }
                case .inverseForeignKey(_, _, nil) where relationship.inverseName == nil:
                    for id in ids {
                        let key = "\(relationship.name) \(id)"
                        if let other = noInverseOwners[key] {
                            throw CoreDataReadError(.badRecord("lists \(id), which \(other) lists too; an object has one owner here"), at: here)
                        }
                        noInverseOwners[key] = record.id
                    }
                    try writer.link(record.entity.name, primaryKey: pk, relationship.name, to: targets.map(\.primaryKey))
                case .joinTable(let table, let source, _, _, _) where writer.layout.table(named: table)?.columns.first?.name == source:
                    // This record's place in each destination's list of the inverse, when that is ordered.
                    let inverseOrder: [Int64?] = try ids.map { id in
                        guard let inverse = relationship.inverseName, let theirs = joinLists[id]?[inverse] else { return 1 }
                        let place = theirs.ids.firstIndex(of: record.id) ?? theirs.ids.count
                        let stored = try Self.orders(theirs.orders, count: theirs.ids.count, at: theirs.location)
                        return place < stored.count ? stored[place] : Int64(place) + 1
                    }
                    try writer.link(record.entity.name, primaryKey: pk, relationship.name, to: targets.map(\.primaryKey), order: order,
                                    inverseOrder: inverseOrder)
                case .joinTable:
                    // The other side writes the rows; it must list what this side lists.
                    guard let inverse = relationship.inverseName else { continue }
                    for id in ids where !(joinLists[id]?[inverse]?.ids.contains(record.id) ?? false) {
                        throw CoreDataReadError(.badRecord("lists \(id), whose \(inverse) does not name \(record.id) back"), at: here)
                    }
                default:
                    break
                }
            } catch let error as CoreDataWriteError {
                throw CoreDataReadError(.badRecord(error.reason), at: here)
            }
        }
    }
}
