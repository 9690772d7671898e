import FerryJSON
import FerrySystem
import Foundation

extension CoreDataDumpLoader {
    /// The first pass: each record's entity, id and pk, most read without their values. The
    /// files are cut into pieces (``firstPassPieceSize``) that threads scan side by side; the
    /// index takes what each found in the files' order, so that lines, entries and the first
    /// error are those of reading the files one after the other.
    func indexRecords(in files: [String], layout: CoreDataSQLLayout) throws -> IndexedRecords {
        let concrete = model.entities.filter { !$0.isAbstract }
        var index = DumpKeyIndex(entities: concrete.map { ($0.name, layout.entityTables[$0.name] ?? "") })
        let pieces = Self.pieces(of: files, size: firstPassPieceSize)
        let entityIndexes = Dictionary(concrete.enumerated().map { ($0.element.name, UInt16($0.offset)) }, uniquingKeysWith: { a, _ in a })
        var reader = JSONDocumentReader()
        var ranges: [Range<Int>] = []
        // Per file: the lines of its pieces merged so far, and its first entry.
        var linesBefore = 0, start = 0
        var wholeLines = WholeLineReader()
        defer { wholeLines.finish() }
        try OrderedPieces.run(count: pieces.count, scan: { Self.scan(pieces[$0], entityIndexes: entityIndexes) }) { number, found in
            let piece = pieces[number]
            if piece.range.lowerBound == 0 { (linesBefore, start) = (0, index.entries.count) }
            let file = files[piece.file]
            for scanned in found.records {
                let entry = scanned.entry, line = linesBefore + Int(entry.line)
                if entry.entity != ScannedPiece.readWhole {
                    found.ids.withUnsafeBufferPointer {
                        index.add(entity: entry.entity, id: UnsafeBufferPointer(rebasing: $0[scanned.bytes]), primaryKey: entry.primaryKey == 0 ? nil : entry.primaryKey,
                                  file: piece.file, line: line)
                    }
                    continue
                }
                // Read whole, the record is accepted as it is or refused with the reason.
                let location = RecordLocation(file: file, record: line)
                let record = try wholeLines.read(file, scanned.bytes) { try self.record($0, at: location, reader: &reader) }
                guard let entity = index.entityIndex(record.entity.name) else { continue }
                var id = record.id
                id.withUTF8 { index.add(entity: entity, id: $0, primaryKey: record.primaryKey, file: piece.file, line: line) }
            }
            if let failure = found.failure { throw CoreDataReadError(.unreadable(failure.reason), file: failure.path) }
            linesBefore += found.lines
            if piece.isLast { ranges.append(start..<index.entries.count) }
        }
        if let clash = index.seal() { throw try clashError(clash, index: index, files: files) }
        var counts = [Int](repeating: 0, count: concrete.count)
        for entry in index.entries { counts[Int(entry.entity)] += 1 }
        return IndexedRecords(index: index, files: ranges, counts: counts)
    }

    /// A byte range of a file, whose lines one thread scans.
    struct Piece: Sendable {
        var file: Int
        var path: String
        var range: Range<Int>
        var isLast: Bool
    }

    /// Each file in ranges of `size` bytes, in order; an empty file is one empty piece, and so is
    /// one whose size is unknown: reading it names what is wrong in its turn.
    static func pieces(of files: [String], size: Int) -> [Piece] {
        let size = max(size, 1)
        var pieces: [Piece] = []
        for (number, path) in files.enumerated() {
            var status = stat()
            let length = stat(path, &status) == 0 ? max(Int(status.st_size), 0) : 0
            var start = 0
            repeat {
                let end = length - start > size ? start + size : Int.max
                pieces.append(Piece(file: number, path: path, range: start..<end, isLast: end == Int.max))
                start = end
            } while start < length
        }
        return pieces
    }

    /// What a thread found in a piece: each record's entity, pk, line (counted in the piece) and
    /// id, as bytes of `ids`; a record whose header ``DumpRecordHeader`` does not read, by where
    /// its line lies in the file, to be read whole in order.
    struct ScannedPiece: Sendable {
        /// 32 bytes a record: a piece of small records holds hundreds of thousands.
        struct Record: Sendable {
            /// As the index keeps it (pk 0 for none), the line counted in the piece.
            var entry: DumpKeyIndex.Entry
            /// The id's bytes in `ids`, or (entity ``readWhole``) the line's in the file.
            var bytes: Range<Int>
        }

        /// The entity of a record to be read whole.
        static let readWhole = UInt16.max

        var records: [Record] = []
        var ids: [UInt8] = []
        var lines = 0
        /// What stopped the reading: the file and the system's reason.
        var failure: (path: String, reason: String)?
    }

    static func scan(_ piece: Piece, entityIndexes: [String: UInt16]) -> ScannedPiece {
        var found = ScannedPiece()
        var last: (name: [UInt8], entity: UInt16)?
        do {
            found.lines = try NDJSONLines(path: piece.path).forEach(startingIn: piece.range) { bytes, line, offset in
                guard !isBlank(bytes) else { return }
                if let header = DumpRecordHeader.scan(bytes), header.primaryKey.map({ (1...CoreDataStoreWriter.highestKey).contains($0) }) ?? true {
                    let entity: UInt16?
                    if let last, header.entity.elementsEqual(last.name) {
                        entity = last.entity
                    } else {
                        entity = entityIndexes[String(decoding: header.entity, as: UTF8.self)]
                        last = entity.map { (Array(header.entity), $0) }
                    }
                    if let entity, entity != ScannedPiece.readWhole {
                        let entry = DumpKeyIndex.Entry(primaryKey: header.primaryKey ?? 0, entity: entity, file: 0, line: UInt32(clamping: line))
                        found.records.append(.init(entry: entry, bytes: found.ids.count..<found.ids.count + header.id.count))
                        found.ids.append(contentsOf: header.id)
                        return
                    }
                }
                let entry = DumpKeyIndex.Entry(primaryKey: 0, entity: ScannedPiece.readWhole, file: 0, line: UInt32(clamping: line))
                found.records.append(.init(entry: entry, bytes: offset..<offset + bytes.count))
            }
        } catch let failure as NDJSONLines.Failure {
            found.failure = (failure.path, failure.reason)
        } catch {
            found.failure = (piece.path, "\(error)")
        }
        return found
    }

    /// Blank lines are no records.
    static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.allSatisfy { $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }
    }

    /// Lines read again by where they lie, for the records the first pass reads whole.
    struct WholeLineReader {
        private var file: (path: String, descriptor: Int32)?
        private var buffer: [UInt8] = []

        mutating func read<T>(_ path: String, _ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) throws -> T {
            let descriptor: Int32
            if let file, file.path == path {
                descriptor = file.descriptor
            } else {
                finish()
                descriptor = open(path, O_RDONLY | O_CLOEXEC)
                guard descriptor >= 0 else { throw CoreDataReadError(.unreadable(SystemCall.errorText()), file: path) }
                file = (path, descriptor)
            }
            buffer = [UInt8](repeating: 0, count: range.count)
            let got = buffer.withUnsafeMutableBytes { bytes in
                var done = 0
                while done < bytes.count {
                    let count = SystemCall.read(descriptor, into: bytes.baseAddress! + done, count: bytes.count - done, at: Int64(range.lowerBound + done))
                    guard count > 0 else { return count < 0 ? -1 : done }
                    done += count
                }
                return done
            }
            guard got == range.count else {
                throw CoreDataReadError(.unreadable(got < 0 ? SystemCall.errorText() : "the file changed while it was read"), file: path)
            }
            return try buffer.withUnsafeBufferPointer(body)
        }

        mutating func finish() {
            if let file { close(file.descriptor) }
            file = nil
        }
    }
}

/// Scans pieces on threads of their own and hands what each found, in the pieces' order, to
/// the calling thread; a few pieces ahead at most, so that memory stays bounded.
final class OrderedPieces<Found: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private let count: Int
    private let window: Int
    private var handedOut = 0
    private var merged = 0
    private var found: [Int: Found] = [:]
    private var stopped = false

    private init(count: Int, window: Int) {
        self.count = count
        self.window = window
    }

    /// Calls `merge` with each piece's number and `scan` of it, in order, the scans running on
    /// up to four threads.
    /// - Throws: what `merge` throws; the threads then take no more pieces.
    static func run(count: Int, scan: @escaping @Sendable (Int) -> Found, merge: (Int, Found) throws -> Void) throws {
        let threads = max(1, min(4, ProcessInfo.processInfo.activeProcessorCount, count))
        let pieces = OrderedPieces(count: count, window: threads + 2)
        defer { pieces.stop() }
        for _ in 0..<threads {
            let thread = Thread {
                while let piece = pieces.take() { pieces.put(piece, scan(piece)) }
            }
            thread.stackSize = 4 << 20
            thread.start()
        }
        for piece in 0..<count { try merge(piece, pieces.wait(for: piece)) }
    }

    private func take() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while handedOut < count, handedOut >= merged + window, !stopped { condition.wait() }
        guard !stopped, handedOut < count else { return nil }
        handedOut += 1
        return handedOut - 1
    }

    private func put(_ piece: Int, _ result: Found) {
        condition.withLock {
            found[piece] = result
            condition.broadcast()
        }
    }

    private func wait(for piece: Int) -> Found {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let result = found.removeValue(forKey: piece) {
                merged = piece + 1
                condition.broadcast()
                return result
            }
            condition.wait()
        }
    }

    private func stop() {
        condition.withLock {
            stopped = true
            condition.broadcast()
        }
    }
}
