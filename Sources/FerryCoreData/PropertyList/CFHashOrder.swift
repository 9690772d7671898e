/// The order in which a CoreFoundation dictionary with string keys lists them, and so writes them
/// to a property list: by bucket of CFString's hash in an open-addressed table whose size follows
/// from the key count, a key whose bucket is taken moving to the next free one. Core Data's store
/// metadata lists entity version hashes in this order (`Formats/coredata-store-writing.md`).
public enum CFHashOrder {
    /// CFString's hash of a string of up to 96 UTF-16 units (longer strings hash only parts of
    /// themselves in CoreFoundation, which this does not follow).
    public static func hash(_ text: String) -> UInt64 {
        let units = Array(text.utf16)
        var result = UInt64(units.count)
        var index = 0
        while index + 4 <= units.count {
            result = result &* 67_503_105 &+ UInt64(units[index]) &* 16_974_593 &+ UInt64(units[index + 1]) &* 66_049
                &+ UInt64(units[index + 2]) &* 257 &+ UInt64(units[index + 3])
            index += 4
        }
        while index < units.count {
            result = result &* 257 &+ UInt64(units[index])
            index += 1
        }
        return result &+ (result << UInt64(units.count & 31))
    }

    /// CFBasicHash's table sizes and the most keys each holds before it grows.
    static let tableSizes: [(capacity: Int, size: Int)] = [
        (3, 3), (6, 7), (11, 13), (19, 23), (32, 41), (52, 71), (85, 127), (118, 191), (155, 251),
        (237, 383), (390, 631), (672, 1087), (1065, 1723), (1732, 2803), (2795, 4523),
    ]

    /// The table size for `count` keys; nil beyond the sizes listed.
    public static func tableSize(for count: Int) -> Int? {
        tableSizes.first { count <= $0.capacity }?.size
    }

    /// `keys`, inserted in the order given into a table sized for `capacity` keys, in the table's order.
    public static func ordered(_ keys: [String], sizedFor capacity: Int? = nil) -> [String] {
        guard let size = tableSize(for: max(capacity ?? 0, keys.count)) else { return keys }
        var table = [String?](repeating: nil, count: size)
        for key in keys {
            var bucket = Int(hash(key) % UInt64(size))
            while table[bucket] != nil { bucket = (bucket + 1) % size }
            table[bucket] = key
        }
        return table.compactMap { $0 }
    }
}
