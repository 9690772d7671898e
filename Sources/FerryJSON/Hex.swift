/// Bytes as text, the two ways Ferry writes them: lower-case hex (digests, hashes) and the UUID
/// form of a name-based id.
public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)
    private static let upperDigits = Array("0123456789ABCDEF".utf8)

    public static func lowercase<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The first 16 bytes of a digest as a name-based UUID (RFC 9562: version 5 and variant bits
    /// set), upper case like every UUID Ferry writes.
    public static func nameBasedUUID<Bytes: Sequence<UInt8>>(_ digest: Bytes) -> String {
        nameBasedUUID(Array(digest.prefix(16)))
    }

    /// As ``nameBasedUUID(_:)-(Bytes)``, from the digest's bytes as they lie: across modules the
    /// generic one is not specialized, and iterating a digest through it was a tenth of reading
    /// a schema.org recipe (a recipe, its steps and lines each get an id).
    public static func nameBasedUUID(_ digest: UnsafeRawBufferPointer) -> String {
        nameBasedUUID(Array(digest.prefix(16)))
    }

    private static func nameBasedUUID(_ prefix: [UInt8]) -> String {
        var bytes = prefix
        precondition(bytes.count == 16, "a digest of at least 16 bytes")
        bytes[6] = (bytes[6] & 0x0F) | 0x50
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return uuid(bytes)
    }

    /// Bytes in the UUID form: upper-case hex, a hyphen after bytes 4, 6, 8 and 10 (called for
    /// every row of a store: no formatting machinery, no generic iteration).
    public static func uuid(_ bytes: [UInt8]) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2 + 4) { text in
            var out = 0
            for index in bytes.indices {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    text[out] = UInt8(ascii: "-")
                    out += 1
                }
                text[out] = upperDigits[Int(bytes[index] >> 4)]
                text[out + 1] = upperDigits[Int(bytes[index] & 0x0F)]
                out += 2
            }
            return out
        }
    }
}
