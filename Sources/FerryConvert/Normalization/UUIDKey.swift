/// Where a claimed id was first seen: compact, for millions of ids.
struct SeenAt {
    var file: UInt32
    var record: UInt32
}

/// A UUID's 128 bits, parsed from its text (any case); nil for other text.
struct UUIDKey: Hashable {
    var high: UInt64
    var low: UInt64

    init?(_ text: String) {
        // Over the bytes in place: iterating the UTF-8 view cost twice as much.
        guard let key = text.utf8.withContiguousStorageIfAvailable(Self.init(bytes:)) ?? Self(bytes: Array(text.utf8)) else { return nil }
        self = key
    }

    private init?<Bytes: Collection<UInt8>>(bytes: Bytes) {
        var high: UInt64 = 0, low: UInt64 = 0, digits = 0
        for byte in bytes {
            let value: UInt8
            switch byte {
            case 0x30...0x39: value = byte - 0x30
            case 0x41...0x46: value = byte - 0x41 + 10
            case 0x61...0x66: value = byte - 0x61 + 10
            case 0x2D:
                guard digits == 8 || digits == 12 || digits == 16 || digits == 20 else { return nil }
                continue
            default: return nil
            }
            if digits < 16 { high = high << 4 | UInt64(value) } else { low = low << 4 | UInt64(value) }
            digits += 1
            if digits > 32 { return nil }
        }
        guard digits == 32, bytes.count == 36 else { return nil }
        self.high = high
        self.low = low
    }
}
