import Crypto
import FerryJSON
import Foundation

/// Ids for records the legacy data gives none (store rows, blob items, tags): name-based
/// UUIDs (RFC 9562 version 5) of what identifies them, so that converting the same input
/// again gives the same ids and upserts instead of duplicating.
///
/// For example:
/// ```swift
/// StableID.make("molten", "ProjectPlan/p3", "material", "2")   // always the same UUID
/// ```
public enum StableID {
    /// Ferry's namespace UUID; fixed forever, or every derived id would change.
    static let namespace: [UInt8] = [0x6B, 0x1E, 0x3F, 0x0A, 0x52, 0x7D, 0x4C, 0x91, 0x8E, 0x2B, 0x3A, 0x64, 0x0F, 0x9C, 0x11, 0xD5]

    public static func make(_ parts: String...) -> String {
        make(parts)
    }

    public static func make(_ parts: [String]) -> String {
        var hasher = Insecure.SHA1()
        hasher.update(data: namespace)
        // The parts joined by U+001F, hashed where each lies rather than joined into a copy.
        for (index, part) in parts.enumerated() {
            if index > 0 { withUnsafeBytes(of: UInt8(0x1F)) { hasher.update(bufferPointer: $0) } }
            var part = part
            part.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        }
        return hasher.finalize().withUnsafeBytes { Hex.nameBasedUUID($0) }
    }

    /// The canonical form of a UUID text (upper case), or nil when it is not a UUID.
    public static func normalized(_ text: String) -> String? {
        // Most ids are already canonical: check their bytes rather than parse (Foundation's parser is slow).
        // Over the bytes in place: iterating the UTF-8 view was 6% of reading a brew log.
        let canonical = text.utf8.withContiguousStorageIfAvailable(isCanonical) ?? isCanonical(Array(text.utf8))
        if canonical { return text }
        return UUID(uuidString: text.trimmingCharacters(in: .whitespaces))?.uuidString
    }

    /// 8-4-4-4-12 upper-case hex digits.
    private static func isCanonical<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes) -> Bool where Bytes.Index == Int {
        guard bytes.count == 36 else { return false }
        for index in 0..<36 {
            let byte = bytes[bytes.startIndex + index]
            let hyphen = index == 8 || index == 13 || index == 18 || index == 23
            guard hyphen ? byte == 0x2D : ((0x30...0x39).contains(byte) || (0x41...0x46).contains(byte)) else { return false }
        }
        return true
    }
}
