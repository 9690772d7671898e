import Crypto
import FerryJSON
import Foundation

/// A SHA-256 of a whole archive file, stored inside the file where every reader skips it: a
/// zstd skippable frame after a `.tar.zst`, an empty gzip member with a comment after a
/// `.tar.gz`, the archive comment of a `.zip`.
///
/// Why: libarchive's zstd writer adds no content checksum and its gzip reader ignores CRCs, and
/// tar ignores the padding between entries; a flipped bit there changes no file's checksum.
/// The seal catches any change to any byte.
public enum ArchiveSeal {
    static let prefix = Array("FERRY-SEAL sha256:".utf8)
    static let textLength = prefix.count + 64
    static let zstdMagic: [UInt8] = [0x5E, 0x2A, 0x4D, 0x18]   // 0x184D2A5E, little-endian

    public enum Status: Sendable, Equatable {
        case valid
        /// The file carries no seal (written by another tool, or the seal itself was damaged).
        case absent
        case mismatch
    }

    /// Appends the seal to a finished archive and flushes the file to disk.
    /// - Parameter digest: the SHA-256 of the file as it is, which ``ArchiveWriter/finish()`` returns.
    public static func seal(_ path: String, format: ArchiveFormat, digest: [UInt8]) throws(ArchiveError) {
        guard let handle = FileHandle(forUpdatingAtPath: path) else {
            throw ArchiveError(path: path, reason: "cannot open to seal: \(String(cString: strerror(errno)))")
        }
        defer { try? handle.close() }
        do {
            let text = prefix + Array(Hex.lowercase(digest).utf8)
            try handle.seekToEnd()
            switch format {
            case .tarZstd:
                try handle.write(contentsOf: zstdMagic + littleEndian32(UInt32(text.count)) + text)
            case .tarGzip:
                try handle.write(contentsOf: gzipMember(comment: text))
            case .zip:
                let size = try handle.seekToEnd()
                guard size >= 22 else { throw ArchiveError(path: path, reason: "not a zip file") }
                try handle.seek(toOffset: size - 22)
                let end = try handle.read(upToCount: 22) ?? Data()
                guard Array(end.prefix(4)) == [0x50, 0x4B, 0x05, 0x06], end[end.startIndex + 20] == 0, end[end.startIndex + 21] == 0 else {
                    throw ArchiveError(path: path, reason: "the zip file does not end with an empty comment")
                }
                try handle.seek(toOffset: size - 2)
                try handle.write(contentsOf: littleEndian16(UInt16(text.count)) + text)
            }
            try handle.synchronize()
        } catch let error as ArchiveError {
            throw error
        } catch {
            throw ArchiveError(path: path, reason: "cannot seal: \((error as NSError).localizedDescription)")
        }
    }

    /// Checks the seal of an archive file.
    public static func check(_ path: String) throws(ArchiveError) -> Status {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ArchiveError(path: path, reason: String(cString: strerror(errno)))
        }
        defer { try? handle.close() }
        do {
            let size = try handle.seekToEnd()
            try handle.seek(toOffset: 0)
            let magic = Array(try handle.read(upToCount: 4) ?? Data())
            let trailer: Int
            var zip = false
            if magic == [0x28, 0xB5, 0x2F, 0xFD] { trailer = 8 + textLength }
            else if magic.starts(with: [0x1F, 0x8B]) { trailer = gzipMember(comment: [UInt8](repeating: 0x20, count: textLength)).count }
            else if magic == [0x50, 0x4B, 0x03, 0x04] { trailer = textLength; zip = true }
            else { return .absent }
            guard size > UInt64(trailer + 22) else { return .absent }
            try handle.seek(toOffset: size - UInt64(trailer))
            let tail = Array(try handle.read(upToCount: trailer) ?? Data())
            guard let stored = sealText(in: tail, zip: zip, trailer: trailer) else { return .absent }
            if zip {
                try handle.seek(toOffset: size - UInt64(trailer) - 22)
                let end = Array(try handle.read(upToCount: 22) ?? Data())
                guard end.starts(with: [0x50, 0x4B, 0x05, 0x06]), Int(end[20]) | Int(end[21]) << 8 == textLength else { return .absent }
            }
            try handle.seek(toOffset: 0)
            let digest = try sha256(handle, length: size - UInt64(trailer), patchZipCommentLength: zip)
            return Hex.lowercase(digest) == stored ? .valid : .mismatch
        } catch {
            throw ArchiveError(path: path, reason: "cannot read: \((error as NSError).localizedDescription)")
        }
    }

    private static func sealText(in tail: [UInt8], zip: Bool, trailer: Int) -> String? {
        let start: Int
        if zip { start = 0 }
        else if tail.starts(with: zstdMagic) {
            guard Array(tail[4..<8]) == littleEndian32(UInt32(textLength)) else { return nil }
            start = 8
        } else if tail.starts(with: [0x1F, 0x8B, 0x08, 0x10]) {
            start = 10
        } else { return nil }
        guard tail.count >= start + textLength, Array(tail[start..<(start + prefix.count)]) == prefix else { return nil }
        // Every byte of the trailer is fixed but the digest: a change to any of them is a damaged seal.
        if start == 10, tail != gzipMember(comment: Array(tail[start..<(start + textLength)])) { return nil }
        let digits = tail[(start + prefix.count)..<(start + textLength)]
        guard digits.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else { return nil }
        return String(decoding: digits, as: UTF8.self)
    }

    /// SHA-256 of the first `length` bytes. For a sealed zip the comment length (the last two
    /// bytes hashed) counts as zero, as it was when the seal was computed.
    private static func sha256(_ handle: FileHandle, length: UInt64, patchZipCommentLength: Bool) throws -> [UInt8] {
        var hasher = SHA256()
        var remaining = length
        while remaining > 0 {
            guard let chunk = try handle.read(upToCount: Int(min(remaining, 1 << 20))), !chunk.isEmpty else { break }
            remaining -= UInt64(chunk.count)
            if patchZipCommentLength, remaining == 0 {
                var last = chunk
                if last.count >= 2 { last.replaceSubrange((last.count - 2)..<last.count, with: [0, 0]) }
                hasher.update(data: last)
            } else {
                hasher.update(data: chunk)
            }
        }
        return Array(hasher.finalize())
    }

    /// An empty gzip member whose header carries `comment` (FCOMMENT): every gzip reader skips it.
    private static func gzipMember(comment: [UInt8]) -> [UInt8] {
        [0x1F, 0x8B, 0x08, 0x10, 0, 0, 0, 0, 0, 0xFF] + comment + [0x00] + [0x03, 0x00] + [0, 0, 0, 0] + [0, 0, 0, 0]
    }

    private static func littleEndian32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
    private static func littleEndian16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
}
