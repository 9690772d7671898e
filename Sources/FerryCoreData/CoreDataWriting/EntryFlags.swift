/// One bit per record of a dump, by its entry in ``DumpKeyIndex``: a million records, 125 KB.
struct EntryFlags: Sendable {
    private var words: [UInt64] = []

    init(count: Int = 0) {
        words = [UInt64](repeating: 0, count: count / 64 + 1)
    }

    subscript(entry: Int) -> Bool {
        entry / 64 < words.count && words[entry / 64] & (1 << UInt64(entry % 64)) != 0
    }

    /// Sets the bit, growing the set as needed.
    mutating func set(_ entry: Int) {
        while entry / 64 >= words.count { words.append(0) }
        words[entry / 64] |= 1 << UInt64(entry % 64)
    }
}
