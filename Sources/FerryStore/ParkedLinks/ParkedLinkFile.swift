import FerryFiles
import FerrySystem
import Foundation
import GRDB

/// One link parked until the end of a session: the row `id` of `table` names `target` (a row of
/// `targetTable`) in `field`, or in its snapshot (`field` `snapshot`, or `withSnapshot`).
struct ParkedLink: Equatable {
    var table: String
    var id: String
    var field: String
    var target: String
    var targetTable: String
    var withSnapshot: Bool
}

/// The links a session parks, appended to an unnamed temporary file and read back once, in
/// order, when the session settles them: a few hundred instructions a link, where rows of a
/// temporary SQLite table cost thirty times as many. The file has no name from the moment it is made, so nothing
/// is left behind whatever the end of the conversion.
final class ParkedLinkFile {
    private var descriptor: Int32 = -1
    private var buffer: [UInt8] = []
    private let bufferSize: Int
    private let folder: String
    private(set) var count = 0

    /// - Parameters:
    ///   - bufferSize: bytes gathered before each write, and read at a time.
    ///   - folder: where the file is made; by default where SQLite makes its own.
    init(bufferSize: Int = 1 << 20, folder: String = ParkedLinkFile.temporaryFolder()) {
        self.bufferSize = max(bufferSize, 64)
        self.folder = folder
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    func append(_ link: ParkedLink) throws {
        if descriptor < 0 { try open() }
        buffer.append(link.withSnapshot ? 1 : 0)
        // Field by field, without gathering them in an array: this runs once per parked link.
        func put(_ text: String) {
            var text = text
            text.withUTF8 { utf8 in
                withUnsafeBytes(of: UInt32(utf8.count).littleEndian) { buffer.append(contentsOf: $0) }
                buffer.append(contentsOf: utf8)
            }
        }
        put(link.table)
        put(link.id)
        put(link.field)
        put(link.target)
        put(link.targetTable)
        count += 1
        if buffer.count >= bufferSize { try writeBuffer() }
    }

    /// Hands every link to `body` in the order they were appended, until it returns false.
    func forEach(_ body: (ParkedLink) throws -> Bool) throws {
        guard descriptor >= 0 else { return }
        try writeBuffer()
        var reader = Reader(descriptor: descriptor, chunk: bufferSize, folder: folder)
        while let flag = try reader.byte() {
            func text() throws -> String {
                let count = try reader.bytes(4).enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
                return String(decoding: try reader.bytes(count), as: UTF8.self)
            }
            let link = ParkedLink(table: try text(), id: try text(), field: try text(), target: try text(), targetTable: try text(),
                                  withSnapshot: flag == 1)
            guard try body(link) else { return }
        }
    }

    private func open() throws {
        // Unnamed at once, with no moment an interruption could see its name: the file goes
        // with its descriptor, whatever ends the conversion.
        let made = ScratchFiles.unnamedFile(in: folder, prefix: "ferry-links-")
        guard made >= 0 else { throw Self.failure("cannot make a file", folder: folder) }
        descriptor = made
        buffer.reserveCapacity(bufferSize + 4096)
    }

    private func writeBuffer() throws {
        guard buffer.withUnsafeBytes({ SystemCall.writeAll(descriptor, $0) }) else { throw Self.failure("cannot write", folder: folder) }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Where SQLite puts its own temporary files (`SQLITE_TMPDIR`, `TMPDIR`, then the usual
    /// folders), so that a conversion needs its temporary space in one place.
    static func temporaryFolder(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        RunTemporaryFolder.base(environment)
    }

    static func failure(_ what: String, folder: String) -> DatabaseError {
        let code = errno
        return DatabaseError(resultCode: code == ENOSPC || code == EDQUOT ? .SQLITE_FULL : .SQLITE_IOERR,
                             message: "parked links (temporary file in \(RunTemporaryFolder.named(folder))): \(what): \(String(cString: strerror(code)))")
    }

    /// Reads the file from its start, a chunk at a time.
    private struct Reader {
        let descriptor: Int32
        let chunk: Int
        let folder: String
        var data: [UInt8] = []
        var position = 0
        var offset: off_t = 0

        init(descriptor: Int32, chunk: Int, folder: String) {
            (self.descriptor, self.chunk, self.folder) = (descriptor, chunk, folder)
        }

        /// The next byte, or nil at the end of the file.
        mutating func byte() throws -> UInt8? {
            guard try fill(1) else { return nil }
            defer { position += 1 }
            return data[position]
        }

        mutating func bytes(_ count: Int) throws -> ArraySlice<UInt8> {
            guard try fill(count) else {
                throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "parked links (temporary file in \(RunTemporaryFolder.named(folder))): cut short")
            }
            defer { position += count }
            return data[position..<position + count]
        }

        /// Whether `count` bytes are there to take, reading on when fewer are.
        private mutating func fill(_ count: Int) throws -> Bool {
            while data.count - position < count {
                data.removeSubrange(0..<position)
                position = 0
                let start = data.count
                data += repeatElement(0, count: max(chunk, count))
                let read = data.withUnsafeMutableBytes { SystemCall.read(descriptor, into: $0.baseAddress! + start, count: $0.count - start, at: Int64(offset)) }
                guard read >= 0 else { throw ParkedLinkFile.failure("cannot read", folder: folder) }
                data.removeSubrange((start + read)...)
                offset += off_t(read)
                if read == 0 { return false }
            }
            return true
        }
    }
}
