import Foundation

/// Writes small zip archives (stored, no compression) with any entry names, including the
/// hostile ones no well-behaved zip tool writes, for testing readers that must refuse them.
public enum ZipFixture {
    /// Entries are written in name order. Returns the archive's path.
    @discardableResult
    public static func write(_ entries: [String: Data], to url: URL) throws -> String {
        var archive = Data()
        var central = Data()
        for (name, contents) in entries.sorted(by: { $0.key < $1.key }) {
            let nameBytes = Data(name.utf8)
            let crc = crc32(contents)
            let offset = UInt32(archive.count)
            archive.append(le32(0x0403_4B50))
            archive.append(le16(20)); archive.append(le16(0x0800)); archive.append(le16(0))   // version, UTF-8 names, stored
            archive.append(le16(0)); archive.append(le16(0x21))                                // time, date (1980-01-01)
            archive.append(le32(crc)); archive.append(le32(UInt32(contents.count))); archive.append(le32(UInt32(contents.count)))
            archive.append(le16(UInt16(nameBytes.count))); archive.append(le16(0))
            archive.append(nameBytes)
            archive.append(contents)
            central.append(le32(0x0201_4B50))
            central.append(le16(0x0314)); central.append(le16(20)); central.append(le16(0x0800)); central.append(le16(0))
            central.append(le16(0)); central.append(le16(0x21))
            central.append(le32(crc)); central.append(le32(UInt32(contents.count))); central.append(le32(UInt32(contents.count)))
            central.append(le16(UInt16(nameBytes.count))); central.append(le16(0)); central.append(le16(0))
            central.append(le16(0)); central.append(le16(0)); central.append(le32(0o100644 << 16)); central.append(le32(offset))
            central.append(nameBytes)
        }
        let centralOffset = UInt32(archive.count)
        archive.append(central)
        archive.append(le32(0x0605_4B50)); archive.append(le16(0)); archive.append(le16(0))
        archive.append(le16(UInt16(entries.count))); archive.append(le16(UInt16(entries.count)))
        archive.append(le32(UInt32(central.count))); archive.append(le32(centralOffset)); archive.append(le16(0))
        try archive.write(to: url)
        return url.path
    }

    private static func le16(_ value: UInt16) -> Data { withUnsafeBytes(of: value.littleEndian) { Data($0) } }
    private static func le32(_ value: UInt32) -> Data { withUnsafeBytes(of: value.littleEndian) { Data($0) } }

    private static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
        }
        return ~crc
    }
}
