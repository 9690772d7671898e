/// A 64-bit hash of a record's rows, the same in every process and on every machine (Swift's
/// `Hasher` is seeded per process): MurmurHash3's 64-bit mixing, one lane, with its finalizer.
/// It tells a record's rows from other rows of the same record, which no one chooses to make
/// collide; it is no defence against someone who does (nor need it be: whoever writes the input
/// chooses the rows anyway).
struct RowDigestHasher {
    private var state: UInt64 = 0x6665_7272_792D_7264 // "ferry-rd": the digests' first version
    private var length: UInt64 = 0

    mutating func combine(_ word: UInt64) {
        var k = word &* 0x87C3_7B91_1142_53D5
        k = (k << 31) | (k >> 33)
        k = k &* 0x4CF5_AD43_2745_937F
        state ^= k
        state = (state << 27) | (state >> 37)
        state = state &* 5 &+ 0x52DC_E729
        length &+= 8
    }

    mutating func combine(bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        let words = bytes.count / 8
        let raw = UnsafeRawPointer(base)
        for index in 0..<words {
            combine(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)))
        }
        var tail: UInt64 = 0
        for index in stride(from: bytes.count - 1, through: words * 8, by: -1) {
            tail = (tail << 8) | UInt64(bytes[index])
        }
        // The tail's length goes in with it: "a" and "a\0" differ.
        combine(tail ^ (UInt64(bytes.count - words * 8) << 56))
    }

    func finalize() -> UInt64 {
        var h = state ^ length
        h ^= h >> 33
        h = h &* 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 33
        h = h &* 0xC4CE_B9FE_1A85_EC53
        h ^= h >> 33
        return h
    }

    /// A stable hash of a text (a table's name and columns), for seeds.
    static func text(_ text: String) -> UInt64 {
        var hasher = RowDigestHasher()
        var copy = text
        copy.withUTF8 { hasher.combine(bytes: $0) }
        return hasher.finalize()
    }
}
