import FerryCanonical
/// A Bloom filter of the claims moved to the ledger: an id it has never seen is answered
/// "not claimed" without a query. Its size is fixed (4 MB, four probes), so memory stays flat;
/// a false "maybe" costs one query, and there are no false "no"s (rates: Formats/performance.md).
struct ClaimFilter {
    private static let bitCount = 1 << 25
    private var words = [UInt64](repeating: 0, count: bitCount / 64)

    mutating func insert(table: String, high: UInt64, low: UInt64) {
        let (first, second) = Self.hashes(table: table, high: high, low: low)
        for probe in 0..<UInt64(Self.probes) {
            let bit = Self.position(first, second, probe)
            words[bit >> 6] |= 1 << UInt64(bit & 63)
        }
    }

    func mayContain(table: String, high: UInt64, low: UInt64) -> Bool {
        let (first, second) = Self.hashes(table: table, high: high, low: low)
        for probe in 0..<UInt64(Self.probes) {
            let bit = Self.position(first, second, probe)
            if words[bit >> 6] & (1 << UInt64(bit & 63)) == 0 { return false }
        }
        return true
    }

    private static let probes = 4

    /// Positions by double hashing of the id's bits mixed with the table's name (ids are
    /// claimed per table). Name-based UUIDs are hashes already; random ones are random.
    private static func hashes(table: String, high: UInt64, low: UInt64) -> (UInt64, UInt64) {
        var tableHash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in table.utf8 { tableHash = (tableHash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        // Both halves in both hashes: ids of one app often share their first half.
        let first = mix(high ^ tableHash ^ mix(low))
        return (first, mix(low &+ first) | 1)
    }

    private static func position(_ first: UInt64, _ second: UInt64, _ probe: UInt64) -> Int {
        Int(truncatingIfNeeded: (first &+ probe &* second) & UInt64(bitCount - 1))
    }

    /// The finalizer of SplitMix64: every input bit moves every output bit.
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
