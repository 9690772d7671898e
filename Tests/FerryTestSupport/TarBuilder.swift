import Foundation

/// Writes an uncompressed ustar archive entry by entry, including the entries an honest writer
/// never makes (links, devices, FIFOs, `..` paths, duplicates): the raw material of attack tests.
public struct TarBuilder {
    public enum Kind: UInt8, Sendable {
        case file = 0x30, hardLink = 0x31, symbolicLink = 0x32, characterDevice = 0x33, blockDevice = 0x34, directory = 0x35, fifo = 0x36
    }

    public private(set) var bytes: [UInt8] = []

    public init() {}

    public mutating func add(_ name: String, _ contents: [UInt8] = [], kind: Kind = .file, link: String = "", declaredSize: Int? = nil) {
        var header = [UInt8](repeating: 0, count: 512)
        func put(_ text: String, at offset: Int, width: Int) {
            for (index, byte) in text.utf8.prefix(width).enumerated() { header[offset + index] = byte }
        }
        func octal(_ value: Int, at offset: Int, width: Int) {
            put(String(String(value, radix: 8).suffix(width - 1)).leftPadded(to: width - 1), at: offset, width: width - 1)
        }
        precondition(name.utf8.count <= 100, "ustar names are at most 100 bytes")
        put(name, at: 0, width: 100)
        octal(kind == .directory ? 0o755 : 0o644, at: 100, width: 8)
        octal(0, at: 108, width: 8)
        octal(0, at: 116, width: 8)
        octal(declaredSize ?? (kind == .file ? contents.count : 0), at: 124, width: 12)
        octal(0, at: 136, width: 12)
        header[156] = kind.rawValue
        put(link, at: 157, width: 100)
        put("ustar", at: 257, width: 6)
        put("00", at: 263, width: 2)
        for index in 148..<156 { header[index] = 0x20 }
        let sum = header.reduce(0) { $0 + Int($1) }
        put(String(String(sum, radix: 8)).leftPadded(to: 6) + "\0 ", at: 148, width: 8)
        bytes += header
        if kind == .file {
            bytes += contents
            bytes += [UInt8](repeating: 0, count: (512 - contents.count % 512) % 512)
        }
    }

    /// The archive with its end-of-archive blocks.
    public var archive: [UInt8] {
        bytes + [UInt8](repeating: 0, count: 1024)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
