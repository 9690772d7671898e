import FerryModel

/// The order of an entity's `Z_FOK_` columns: Core Data orders them as if it read the entity's
/// SQL properties back from a hash table of its own (not CFDictionary's: other table sizes, a
/// 32-bit string hash that reads only six 4-character chunks of a name longer than 23) sized for
/// their count, adding an ordering column for each to-one with an ordered inverse as it met it
/// there. A rule fitted to every known case (Wire, Photos, DuckDuckGo), with its guesses, in
/// `Formats/coredata-sql-mapping.md` §4.3.
enum ForeignOrderKeyOrder {
    /// The most entries each table size holds, and that size.
    static let tableSizes: [(capacity: Int, buckets: Int)] = [
        (4, 5), (8, 11), (17, 23), (29, 41), (47, 67), (76, 113), (123, 199), (199, 317), (322, 521), (521, 839),
        (843, 1361), (1364, 2207), (2207, 3571), (3571, 5779), (5778, 9349), (9349, 15121), (15127, 24473), (24476, 39607),
    ]

    /// Each stored property name's bucket in the entity's table, in the order Core Data reads
    /// them back: the place of a to-one's `Z_FOK_` column among the entity's others.
    static func places(in entity: EntityDescription, of model: DataModel) -> [String: Int] {
        let attributes = model.allAttributes(of: entity).filter(CoreDataSQLLayout.isStored)
        let relationships = model.allRelationships(of: entity).filter(CoreDataSQLLayout.isStored)
        // Z_PK, Z_ENT and Z_OPT; a column per attribute and to-many; a to-one is its relationship
        // and its key, and the destination's entity column where it has sub-entities.
        var count = 3 + attributes.count
        for relationship in relationships {
            if relationship.isToMany { count += 1; continue }
            let destination = relationship.destinationEntity.flatMap(model.entity(named:))
            count += destination?.subentityNames.isEmpty == false ? 3 : 2
        }
        // Beyond the sizes known, no places: the columns then follow their to-ones' names.
        guard let size = tableSizes.first(where: { count <= $0.capacity })?.buckets else { return [:] }
        var table = [String?](repeating: nil, count: size)
        // Names meet in a bucket only by collision; which comes first then is a guess (by name).
        for name in (attributes.map(\.name) + relationships.map(\.name)).sorted() {
            var bucket = Int(hash(name) % UInt32(size))
            while table[bucket] != nil { bucket = (bucket + 1) % size }
            table[bucket] = name
        }
        var places: [String: Int] = [:]
        for (bucket, name) in table.enumerated() { if let name { places[name] = bucket } }
        return places
    }

    /// The hash over a name's UTF-16 units: four at a time, then one at a time; past 23 units
    /// only the first eight and the last sixteen.
    static func hash(_ name: String) -> UInt32 {
        let units = Array(name.utf16)
        var result = UInt32(truncatingIfNeeded: units.count)
        func chunk(_ start: Int) {
            result = result &* 67_503_105 &+ UInt32(units[start]) &* 16_974_593 &+ UInt32(units[start + 1]) &* 66_049
                &+ UInt32(units[start + 2]) &* 257 &+ UInt32(units[start + 3])
        }
        if units.count > 23 {
            for start in [0, 4, units.count - 16, units.count - 12, units.count - 8, units.count - 4] { chunk(start) }
        } else {
            var index = 0
            while index + 4 <= units.count { chunk(index); index += 4 }
            while index < units.count { result = result &* 257 &+ UInt32(units[index]); index += 1 }
        }
        return result &+ (result << UInt32(units.count & 31))
    }
}
